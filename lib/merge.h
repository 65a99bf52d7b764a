/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MERGE_H
#define MERGE_H

#include "mtree.h"
#include "resolve.h"
#include "strbuf.h"
#include "strvec.h"

struct child_process;

/*
 * The merge at the heart of the tool, done in memory: the merged tree
 * that the clean diffstat (diff.h's merge_diff()) is taken of.
 *
 * merge_run() makes the quarantine (quarantine.h) and runs
 *
 *	git merge-tree --write-tree -z --messages <upstream> <head>
 *
 * with its new objects going there, and with the attributes (merge
 * drivers, text, eol) of <upstream>, in whose checkout the procedure
 * merges.  It dies on any failure but a conflict.
 *
 * When bases is not NULL, git merge-base --all <upstream> <head> runs
 * meanwhile, and bases gets the merge bases in git's order: the
 * first is the one git merge-base, and so git request-pull, picks.
 * When there is none, it dies in one line, before looking at the
 * merge: git request-pull, and so every mode that sets its diffstat
 * beside the clean one, needs one whatever the options.
 */

struct merge {
	const struct pull *pull;	/* what is merged into what */
	struct strvec env;		/* the quarantine, for every git after */
	struct strvec gitmodules;	/* the merged tree's, for the diff */
	struct strbuf output;		/* merge-tree's; res points into it */
	struct strbuf err;		/* what merge-tree said on stderr */
	struct mtree_result res;	/* conflicted paths from the top */
	struct strbuf tree;		/* the merged tree's id */
	struct strbuf paths;		/* where res's entries' paths are */
	int conflicted;
	int allow_unrelated;
};

void merge_run(struct merge *m, const struct pull *p, int allow_unrelated,
	       struct strvec *bases);

/*
 * The merge alone in two steps, for a caller that runs other gits at
 * the same time (run_git_all()) and goes on after a failure (--verify's
 * requests, one after the other): merge_cmd() makes the quarantine and
 * prepares cp to run git merge-tree, its output into m; merge_result()
 * takes its exit code rc and reads the merge.  It returns 0, or -1 with
 * the reason in why, one line, where merge_run() would die (and dies
 * when why is NULL).  The caller releases m all the same.
 */
void merge_cmd(struct merge *m, const struct pull *p, int allow_unrelated,
	       struct child_process *cp);
int merge_result(struct merge *m, int rc, struct strbuf *why);
void merge_release(struct merge *m);

/*
 * The merge of a <head> that has <upstream> in its history, found so by
 * a walk: git merge fast-forwards, and the merged tree is <head>'s, tree.
 * No git merge-tree runs; m is as merge_result() leaves it.
 */
void merge_fast_forward(struct merge *m, const struct pull *p,
			const char *tree);

/*
 * git merge-base --all <upstream> <head> alone, for a caller that
 * merged without asking for the bases and needs them after all: 0, or
 * -1 with why in one line: "unrelated: ..." when there is none, or in
 * a shallow clone that it is missing from it and how to deepen it, as
 * merge_run() says.
 */
int merge_bases(const struct pull *p, struct strvec *bases, struct strbuf *why);

/* Is <head> an ancestor of <upstream>, so that there is nothing to pull? */
int merge_nothing_to_pull(const struct merge *m);

#endif
