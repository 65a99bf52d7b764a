// SPDX-License-Identifier: GPL-2.0-only
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
 *		  (lib/resolve.c)
 *	merge	  with git merge-tree --write-tree, its objects quarantined
 *		  (lib/merge.c, lib/quarantine.c)
 *	diff	  upstream against the merged tree, with git diff straight
 *		  to our stdout (lib/diff.c)
 *	report	  the conflicts (lib/conflicts.c), or that there is nothing
 *		  to pull
 *
 * --check and --explain (lib/compare.c) set git request-pull's diffstat
 * beside the clean one; --request-pull (lib/request-pull.c) runs git
 * request-pull and puts the clean diffstat in its message; --verify
 * (lib/verify.c) checks a pull request received (lib/pullmsg.c).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/compare.h"
#include "lib/conflicts.h"
#include "lib/diff.h"
#include "lib/merge.h"
#include "lib/options.h"
#include "lib/relay.h"
#include "lib/request-pull.h"
#include "lib/resolve.h"
#include "lib/signals.h"
#include "lib/verify.h"

/*
 * In a partial clone, git fetches the blobs the diff needs when it first
 * reads them, into the quarantine.  In git 2.48 and 2.49 (which create
 * refs/remotes/<remote>/HEAD when missing) and from 2.51 on (which
 * commit even an empty batch of ref updates), that fetch tries a ref
 * update the quarantine refuses and says "error: ref updates forbidden
 * inside quarantine environment", on the diff's stderr, which is the
 * user's.  The objects arrive all the same.  So have the same diff read
 * them first, its output and what it says thrown away, and with external
 * diff drivers off: the diff proper then finds them all.  Nothing but the
 * objects is written, and only to the quarantine.
 */
static void prefetch(const struct merge *m, const struct options *opts)
{
	const struct pull *p = m->pull;
	struct child_process cp = CHILD_PROCESS_INIT;
	struct diff_opts user = opts->diff;
	struct strvec args = STRVEC_INIT;

	if (!p->partial_clone || !(p->git_version == 248 ||
				   p->git_version == 249 ||
				   p->git_version >= 251))
		return;
	/* the user's options, then ours: the last one wins */
	strvec_pushv(&args, opts->diff.args.v, opts->diff.args.nr);
	strvec_push(&args, "--no-ext-diff");
	user.args = args;
	merge_diff(&cp, m, &user, NULL);
	cp.no_stdout = 1;
	cp.no_stderr = 1;
	run_git(&cp);
	strvec_clear(&args);
}

/*
 * The clean diffstat, its output straight to our stdout: nothing is
 * copied or held here.
 */
static int show_diffstat(const struct merge *m, const struct options *opts)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int rc;

	prefetch(m, opts);
	merge_diff(&cp, m, &opts->diff, NULL);
	fflush(stdout);
	rc = run_git(&cp);
	if (rc == -SIGPIPE)	/* our reader went away: go quietly, as git */
		signals_die(SIGPIPE);
	if (rc < 0)
		die("git diff died of %s", run_describe(rc));
	if (rc)
		exit(rc == 129 ? 129 : 128);

	if (m->conflicted)
		report_conflicts(m->pull, &m->res);
	else if (merge_nothing_to_pull(m))
		note("'%s' is already merged into '%s'", m->pull->head.name,
		     m->pull->upstream.name);
	return m->conflicted;
}

int main(int argc, char **argv)
{
	struct options opts;
	struct pull p;
	struct merge m;
	struct strvec bases = STRVEC_INIT;
	int status;

	if (getenv(RELAY_ENV))		/* git fetch's proxy (fetch.h) */
		return relay_main(argc, argv);
	relay_set_program(argv[0]);
	signals_init();
	parse_options(argc, argv, &opts);
	if (opts.help) {
		execlp("git", "git", "help", "clean-diffstat", (char *)NULL);
		die_errno("cannot run git help");
	}
	if (opts.mode == MODE_REQUEST_PULL) {
		status = request_pull(&opts);
		options_release(&opts);
		exit_flushing_stdout(status);
	}
	if (opts.mode == MODE_VERIFY) {
		status = verify(&opts);
		options_release(&opts);
		exit_flushing_stdout(status);
	}

	resolve(&p, opts.upstream, opts.head);
	/* and git request-pull's merge base, for the modes that compare */
	merge_run(&m, &p, opts.allow_unrelated,
		  opts.mode != MODE_DIFFSTAT ? &bases : NULL);

	switch (opts.mode) {
	case MODE_CHECK:
		status = compare_check(&m, &bases, &opts);
		break;
	case MODE_EXPLAIN:
		status = compare_explain(&m, &bases, &opts);
		break;
	default:
		status = show_diffstat(&m, &opts);
		break;
	}
	merge_release(&m);
	pull_release(&p);
	strvec_clear(&bases);
	options_release(&opts);
	exit_flushing_stdout(status);
}
