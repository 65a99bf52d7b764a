/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RESOLVE_H
#define RESOLVE_H

#include "run.h"
#include "strbuf.h"

/*
 * What the command line names, resolved against the repository before
 * anything else runs, so that every later git sees the same commits and
 * no revision can pass for an option or a file name.
 *
 * resolve() fills a struct pull with one git rev-parse: the ids of both
 * commits, <upstream>'s tree, the repository's object directory and the
 * current directory's prefix.  On failure it dies saying which revision
 * is wrong and why, as precisely as git can tell.
 */

struct revision {
	const char *name;		/* as the user spelled it */
	struct strbuf oid;		/* the commit's id, in hex */
};

struct pull {				/* pulling head into upstream */
	struct revision upstream;	/* "@{upstream}" when not given */
	struct revision head;		/* "HEAD" when not given */
	int default_upstream;		/* upstream.name is our "@{upstream}" */
	struct strbuf upstream_tree;	/* the id of upstream's tree */
	struct strbuf objdir;		/* the repository's object directory */
	struct strbuf prefix;		/* of the current directory: "dir/" */
	/*
	 * What the same git rev-parse's trace2 tells of the git that runs,
	 * of the settings where git merge and git merge-tree differ from
	 * one version to the next, and whether --verify's bound of a
	 * message is set: learnt without another git.
	 */
	int git_version;		/* 2.50 as 250; 0 when unknown */
	struct strbuf diff_algorithm;	/* diff.algorithm, if set */
	int partial_clone;		/* a promisor remote is configured */
	int max_message_size;		/* clean-diffstat.maxMessageSize is set */
	int quote_path;			/* core.quotePath: bytes >= 0x80 quoted */
};

/* upstream may be NULL for @{upstream}, head for HEAD. */
void resolve(struct pull *p, const char *upstream, const char *head);

/*
 * resolve() in two steps, for a caller that runs other gits at the same
 * time (run_git_all()): resolve_cmd() fills in the names and prepares
 * cp to run the git rev-parse, its output into out and what it says
 * into err; resolve_result() takes what it gave (it exited rc) and does
 * the rest, dying as resolve() does.  The caller releases out and err.
 */
void resolve_cmd(struct pull *p, const char *upstream, const char *head,
		 struct child_process *cp, struct strbuf *out,
		 struct strbuf *err);
void resolve_result(struct pull *p, int rc, struct strbuf *out,
		    struct strbuf *err);
void pull_release(struct pull *p);

/* Is the repository a shallow clone? */
int repo_is_shallow(void);

/* Is the git on PATH older than 2.38?  Then say so and stop. */
void check_git_version(void);

#endif
