/*
 * git clean-diffstat: the diffstat of what pulling <head> into
 * <upstream> really changes, for pull requests whose history has more
 * than one merge base.
 *
 * It is the procedure of the kernel's "Handling messy pull-request
 * diffstats" (merge on a throwaway TEMP branch, then
 * "git diff -C --stat --summary upstream..TEMP") without the branch,
 * the checkout or any object written to the repository:
 *
 *	parse	  the command line (lib/options.c)
 *	resolve	  both revisions to commit ids with one git rev-parse
 *	merge	  with git merge-tree --write-tree, its objects quarantined
 *		  (lib/merge.c, lib/quarantine.c)
 *	diff	  upstream against the merged tree, with git diff straight
 *		  to our stdout
 *	report	  the conflicts, or that there is nothing to pull
 *
 * --check, --explain (lib/compare.c) and --request-pull (lib/pullreq.c)
 * use the same merge for the pull request itself.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/compare.h"
#include "lib/merge.h"
#include "lib/options.h"
#include "lib/pullreq.h"
#include "lib/report.h"
#include "lib/run.h"
#include "lib/signals.h"

/*
 * In a partial clone, git fetches the blobs the diff needs when it first
 * reads them, into the quarantine.  In git 2.48 and 2.49 (which create
 * refs/remotes/<remote>/HEAD when missing) and from 2.51 on (which
 * commit even an empty batch of ref updates), that fetch tries a ref
 * update the quarantine refuses and says "error: ref updates forbidden
 * inside quarantine environment", on the diff's stderr, which is the
 * user's.  The objects arrive all the same.  So have the same diff read
 * them first, its output thrown away and what it says kept from the
 * user: the diff proper then finds them all.  Nothing but the objects is
 * written, and only to the quarantine.
 */
static int lazy_fetch_complains(int git_version)
{
	return git_version == 248 || git_version == 249 || git_version >= 251;
}

static void prefetch(const struct merge *m, const struct strvec *diff,
		     const struct options *opts)
{
	/* the diff's options end before "--end-of-options <from> <to> --" */
	size_t i, end = diff->nr - (size_t)opts->nr_pathspec - 4;
	struct strvec argv = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	for (i = 0; i < diff->nr; i++) {
		if (i == end) {
			strvec_push(&argv, "--output=/dev/null");
			strvec_push(&argv, "--no-ext-diff");
		}
		strvec_push(&argv, diff->v[i]);
	}
	run_git(argv.v, m->env.v, NULL, &err);
	strvec_clear(&argv);
	strbuf_release(&err);
}

/*
 * The porcelain git diff, as the procedure runs it, so that diff.* and
 * color.* configuration and the terminal's width apply exactly as they
 * would there (git diff-tree, plumbing, ignores them).  Its output goes
 * straight to our stdout: nothing is copied or held here.
 */
static void diff(const struct merge *m, const struct options *opts)
{
	struct strvec argv = STRVEC_INIT;
	int rc;

	diff_command(&argv, opts, "-C", NULL, m->oid[0].buf, m->tree.buf);
	if (m->partial_clone && lazy_fetch_complains(m->git_version))
		prefetch(m, &argv, opts);
	fflush(stdout);
	rc = run_git(argv.v, m->env.v, NULL, NULL);
	strvec_clear(&argv);
	if (rc == -SIGPIPE)	/* our reader went away: go quietly, as git */
		signals_die(SIGPIPE);
	if (rc < 0)
		die("git diff died of %s", run_describe(rc));
	if (rc)
		exit(rc == 129 ? 129 : 128);
}

static int show_diffstat(const struct merge *m, const struct options *opts)
{
	diff(m, opts);
	if (m->conflicted)
		report_conflicts(m->name[0], m->name[1], &m->res);
	else if (merge_nothing_to_pull(m))
		note("'%s' is already merged into '%s'", m->name[1], m->name[0]);
	return m->conflicted;
}

int main(int argc, char **argv)
{
	struct options opts;
	struct merge m;
	int status;

	signals_init();
	parse_options(argc, argv, &opts);
	if (opts.help) {
		execlp("git", "git", "help", "clean-diffstat", (char *)NULL);
		die_errno("cannot run git help");
	}
	if (opts.mode == MODE_REQUEST_PULL) {
		status = request_pull(&opts);
		strvec_clear(&opts.diff);
		return status;
	}

	merge_init(&m, opts.rev[0], opts.rev[1], opts.allow_unrelated);
	merge_resolve(&m);
	merge_run(&m);

	switch (opts.mode) {
	case MODE_CHECK:
		status = compare_check(&m, &opts);
		break;
	case MODE_EXPLAIN:
		status = compare_explain(&m, &opts);
		break;
	default:
		status = show_diffstat(&m, &opts);
		break;
	}
	if (fflush(stdout) || ferror(stdout))
		die_errno("cannot write the output");

	merge_release(&m);
	strvec_clear(&opts.diff);
	return status;
}
