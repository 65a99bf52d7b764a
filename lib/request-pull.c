// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conflicts.h"
#include "diff.h"
#include "merge.h"
#include "request-pull.h"

/* The format of git request-pull -p's tail: the diffstat, then the patch. */
static const char *const with_patch[] = { "--stat", "--summary", "-p", NULL };

/* git request-pull <start> <url> [<end>], its output and status kept */
static int run_request_pull(const struct options *opts, struct strbuf *out)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	strvec_push(&cp.args, "request-pull");
	if (opts->patch)
		strvec_push(&cp.args, "-p");
	/* <end> may be NULL: then the list ends before it */
	strvec_pushl(&cp.args, "--", opts->upstream, opts->url, opts->end,
		     NULL);
	cp.out = out;
	return run_git(&cp);
}

/* What git request-pull ends with: its diffstat, and with -p the patch. */
static void request_pull_tail(const struct pull *p, const char *base,
			      int patch, struct strbuf *out)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	request_pull_diff(&cp, p, base, NULL, patch ? with_patch : NULL);
	cp.out = out;
	run_git_or_die(&cp);
}

/* The paragraph on a conflicted merge, at the end of the message. */
static void add_conflict_paragraph(struct strbuf *message, const struct merge *m)
{
	static const char *const about_markers[] = {
		"",
		"\nThe diffstat counts the conflict markers of the files listed "
		"with them.\n",
		"\nThe diffstat counts these files with their conflict markers.\n",
	};
	enum markers markers;

	strbuf_addf(message, "\nMerging this into %s conflicts in:\n\n",
		    m->pull->upstream.name);
	markers = conflict_lines(message, m->pull, &m->res);
	strbuf_addstr(message, about_markers[markers]);
}

int request_pull(const struct options *opts)
{
	struct strbuf message = STRBUF_INIT, tail = STRBUF_INIT;
	struct strbuf local = STRBUF_INIT;
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strvec base = STRVEC_INIT;
	const char *colon;
	struct pull p;
	struct merge m;
	int rc;

	/* <end> is <local>[:<remote>], as git request-pull takes it */
	if (opts->end) {
		colon = strrchr(opts->end, ':');
		strbuf_add(&local, opts->end,
			   colon ? (size_t)(colon - opts->end) : strlen(opts->end));
	}
	resolve(&p, opts->upstream, local.len ? local.buf : NULL);
	/* before git request-pull, which would say the same in its words */
	merge_run(&m, &p, opts->allow_unrelated, &base);

	/*
	 * The tail first: in a partial clone, its diff fetches the blobs
	 * that git request-pull's own diff reads, into the quarantine,
	 * with what git says on the way ("ref updates forbidden inside
	 * quarantine environment" from 2.48 on) kept from the user.
	 */
	request_pull_tail(&p, base.v[0], opts->patch, &tail);
	rc = run_request_pull(opts, &message);
	if (message.len < tail.len ||
	    memcmp(message.buf + message.len - tail.len, tail.buf, tail.len)) {
		if (!rc)
			die("git request-pull's output does not end with the "
			    "diffstat it should; not replacing it");
		/* it failed, and said why: pass it all on */
		fwrite(message.buf, 1, message.len, stdout);
	} else {
		strbuf_setlen(&message, message.len - tail.len);
		merge_diff(&cp, &m, &opts->diff,
			   opts->patch ? with_patch : NULL);
		cp.out = &message;
		run_git_or_die(&cp);
		if (m.conflicted) {
			add_conflict_paragraph(&message, &m);
			rc = 1;
		}
		fwrite(message.buf, 1, message.len, stdout);
		if (m.conflicted) {
			fflush(stdout);
			report_conflicts(&p, &m.res);
		}
	}

	merge_release(&m);
	pull_release(&p);
	strbuf_release(&message);
	strbuf_release(&tail);
	strbuf_release(&local);
	strvec_clear(&base);
	return rc < 0 ? 128 : rc;
}
