#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "pullreq.h"
#include "report.h"
#include "run.h"


/* What git request-pull ends with: git diff -M --stat --summary [-p] base..head */
static void request_pull_diff(const struct merge *m, int patch,
			      struct strbuf *out)
{
	const char *mb[] = { "git", "merge-base", NULL, NULL, NULL };
	struct strbuf base = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;

	mb[2] = m->oid[0].buf;
	mb[3] = m->oid[1].buf;
	strvec_pushv(&argv, mb, 4);
	run_git_or_die(argv.v, NULL, &base);
	strbuf_trim_newlines(&base);
	strvec_clear(&argv);

	strvec_push(&argv, "git");
	strvec_push(&argv, "diff");
	strvec_push(&argv, "-M");
	strvec_push(&argv, "--stat");
	strvec_push(&argv, "--summary");
	if (patch)
		strvec_push(&argv, "-p");
	strvec_pushf(&argv, "%s..%s", base.buf, m->oid[1].buf);
	run_git_or_die(argv.v, NULL, out);
	strvec_clear(&argv);
	strbuf_release(&base);
}

int request_pull(const struct options *opts)
{
	struct strbuf message = STRBUF_INIT, tail = STRBUF_INIT;
	struct strbuf clean = STRBUF_INIT, local = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	static const char *const patch[] = { "--stat", "--summary", "-p", NULL };
	const char *colon;
	struct merge m;
	int rc;

	/* <end> is <local>[:<remote>], as git request-pull takes it */
	if (opts->end) {
		colon = strrchr(opts->end, ':');
		strbuf_add(&local, opts->end,
			   colon ? (size_t)(colon - opts->end) : strlen(opts->end));
	}
	merge_init(&m, opts->rev[0], local.len ? local.buf : NULL,
		   opts->allow_unrelated);
	merge_resolve(&m);
	merge_run(&m);

	strvec_push(&argv, "git");
	strvec_push(&argv, "request-pull");
	if (opts->patch)
		strvec_push(&argv, "-p");
	strvec_push(&argv, "--");
	strvec_push(&argv, opts->rev[0]);
	strvec_push(&argv, opts->url);
	if (opts->end)
		strvec_push(&argv, opts->end);
	rc = run_git(argv.v, NULL, &message, NULL);
	strvec_clear(&argv);

	request_pull_diff(&m, opts->patch, &tail);
	if (message.len < tail.len ||
	    memcmp(message.buf + message.len - tail.len, tail.buf, tail.len)) {
		if (rc) {	/* it failed, and said why: pass it all on */
			fwrite(message.buf, 1, message.len, stdout);
			return rc < 0 ? 128 : rc;
		}
		die("git request-pull's output does not end with the diffstat "
		    "it should; not replacing it");
	}
	strbuf_setlen(&message, message.len - tail.len);

	diff_command(&argv, opts, "-C", opts->patch ? patch : NULL,
		     m.oid[0].buf, m.tree.buf);
	run_git_or_die(argv.v, m.env.v, &clean);
	strvec_clear(&argv);
	strbuf_add(&message, clean.buf, clean.len);
	if (m.conflicted) {
		strbuf_addf(&message, "\nMerging this into %s conflicts in:\n\n",
			    m.name[0]);
		conflict_lines(&message, &m.res);
		rc = 1;
	}
	fwrite(message.buf, 1, message.len, stdout);

	merge_release(&m);
	strbuf_release(&message);
	strbuf_release(&tail);
	strbuf_release(&clean);
	strbuf_release(&local);
	return rc < 0 ? 128 : rc;
}
