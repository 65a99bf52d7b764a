#ifndef MERGE_H
#define MERGE_H

#include "mtree.h"
#include "strbuf.h"
#include "strvec.h"

/*
 * The merge at the heart of the tool, done in memory.
 *
 * merge_resolve() turns <upstream> and <head> into commit ids with one
 * git rev-parse (on failure it dies, saying which revision is wrong and
 * why) and finds the repository's object directory.  merge_run() makes
 * the quarantine and runs git merge-tree --write-tree with its objects
 * going there; it dies on any failure but a conflict.  Afterwards
 * m->env is the environment every later git needs to see the merged
 * tree (with its attributes, as in a checkout of it), and m->tree its id.
 */

struct merge {
	const char *name[2];		/* <upstream>, <head>, as spelled */
	int default_upstream;		/* name[0] is our "@{upstream}" */
	int allow_unrelated;		/* --allow-unrelated-histories */
	struct strbuf oid[2];		/* their commit ids */
	struct strbuf upstream_tree;
	struct strbuf objdir;		/* the repository's object directory */
	struct strbuf prefix;		/* of the current directory, "dir/" */
	struct strvec env;		/* for git to read the merged tree */
	struct strbuf output;		/* merge-tree's; res points into it */
	struct mtree_result res;
	struct strbuf tree;		/* the merged tree */
	struct strbuf paths;		/* res's conflicted paths, from the top */
	int conflicted;
	/* from git rev-parse's trace2 (merge_resolve()) */
	int git_version;		/* 2.47 as 247; 0 when unknown */
	struct strbuf diff_algorithm;	/* diff.algorithm, if set */
	int partial_clone;		/* has a promisor remote */
};

/* upstream may be NULL for the current branch's @{upstream}, head for HEAD. */
void merge_init(struct merge *m, const char *upstream, const char *head,
		int allow_unrelated);
void merge_resolve(struct merge *m);
void merge_run(struct merge *m);
/* Is <head> an ancestor of <upstream>, so that there is nothing to pull? */
int merge_nothing_to_pull(const struct merge *m);
void merge_release(struct merge *m);

#endif
