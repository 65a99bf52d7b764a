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
	struct mtree_result res;	/* conflicted paths from the top */
	struct strbuf tree;		/* the merged tree's id */
	struct strbuf paths;		/* where res's entries' paths are */
	int conflicted;
};

void merge_run(struct merge *m, const struct pull *p, int allow_unrelated,
	       struct strvec *bases);

/*
 * merge_run() for a caller that goes on after a failure (--verify's
 * requests, one after the other): -1 with the reason in why, one line
 * ("unrelated: ..." when there is no merge base, or in a shallow clone
 * that it is missing from it and how to deepen it, as merge_run()
 * says), where merge_run() would die; the caller releases m all the same.  Its nr_also gits
 * (at most 2) run beside the merge, their exit codes into rcs.
 */
int merge_try(struct merge *m, const struct pull *p, struct strvec *bases,
	      struct child_process **also, int *rcs, size_t nr_also,
	      struct strbuf *why);
void merge_release(struct merge *m);

/*
 * git merge-base --all <upstream> <head> alone, for a caller that
 * merged without asking for the bases and needs them after all: 0, or
 * -1 with why in one line, as merge_try() says it.
 */
int merge_bases(const struct pull *p, struct strvec *bases, struct strbuf *why);

/* Is <head> an ancestor of <upstream>, so that there is nothing to pull? */
int merge_nothing_to_pull(const struct merge *m);

#endif
