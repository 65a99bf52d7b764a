/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef JUDGE_H
#define JUDGE_H

#include "match.h"
#include "merge.h"
#include "numstat.h"
#include "options.h"
#include "pullmsg.h"
#include "stat.h"
#include "strbuf.h"
#include "strvec.h"

/*
 * The judge of one pull request of --verify, once its tip is here:
 * judge() runs the gits that say what pulling the tip changes, compares
 * the request's diffstat with them and returns what it found in a
 * struct judgement.  It prints nothing: verdict-print.h renders a
 * judgement for a person or, with --porcelain, for a script.
 *
 * The request's diffstat is compared, in turn, and each diff only when
 * the one before did not give it, with
 *  1. the clean diffstat (-C): matches;
 *  2. the same changes with renames only (-M), as git request-pull
 *     finds them: matches, -C seeing copies;
 *  3. git request-pull's from the first merge base: messy;
 *  4. the diff of 1 or 2 whose files the request has, with another diff
 *     algorithm: matches, its line counts being that algorithm's;
 *  5. else: differs, and why.
 * A merge that conflicts: conflicts.  A tip <upstream> has already
 * needs no merge: every diff is empty.
 */

/* FAILED: the request could not be verified (refused, not fetched) */
enum verdict { MATCHES, MESSY, DIFFERS, CONFLICTS, FAILED, NR_VERDICTS };

/* The verdicts' words in --porcelain's verdict record ("error": FAILED). */
extern const char *const verdict_name[NR_VERDICTS];

/* A request pulled in memory before this one (--in-order). */
struct pulled {
	size_t number;			/* its message */
	const char *tip;
};

/*
 * A request, with its tip: what judge() needs.  With --no-fetch the
 * tip (and its subject) may be left empty: judge() then finds it from
 * want, the mail's "up to" commit, in the walk it does anyway.
 */
struct verifying {
	const struct options *opts;
	const struct pullmsg *msg;
	struct pull p;
	struct strbuf url, ref, want, tip, subject;
	const char *how;		/* "local", "fetched", "moved" */
	/* --in-order: <upstream> is then the merge of these into it */
	const struct pulled *earlier;
	size_t nr_earlier;
	const char *upstream_oid;	/* <upstream> itself, before them */
	struct strbuf merged_tree;	/* what judge() merged, when clean */
	/* the tip here, the fetch that re-reads its branch failed: why */
	struct strbuf refetch;
};

/* Which diff a matching request's diffstat is. */
enum judged_by {
	BY_CLEAN,			/* the clean diffstat */
	BY_RENAMES,			/* its renames only (-M): -C found copies */
	BY_ALGORITHM			/* another diff.algorithm's counts */
};

/* Why a request's diffstat differs. */
enum differs_why {
	WHY_UNKNOWN,			/* not what pulling it changes */
	WHY_FOREIGN,			/* the mail lists commits it does not bring */
	WHY_MOVED,			/* the branch moved since the request */
	WHY_MERGED,			/* <upstream> has the tip already */
	WHY_EARLIER,			/* requests pulled before bring its work */
	WHY_UPSTREAM_HAS		/* <upstream> has some of its commits */
};

struct judgement {
	enum verdict verdict;
	struct strbuf why;		/* FAILED: why, in one line */
	int tip_missing;		/* FAILED: the tip to find is not here
					   (why is empty: the caller says) */
	int merged;			/* <upstream> has the tip already */
	/* the request's "since" commit, and git merge-base --is-ancestor's
	   exit of it and the tip (0: an ancestor, 1: not, else unknown) */
	struct strbuf since;
	int since_rc;
	long shortlog_foreign;		/* its shortlog's commits not pulled */
	struct merge merge;		/* CONFLICTS: the conflicted paths */
	/*
	 * --in-order, the messages pulled before it: with CONFLICTS, those
	 * whose tip conflicts with its own; with DIFFERS, those that bring
	 * some of its commits.
	 */
	struct strvec earlier;
	/* all but FAILED and CONFLICTS: the clean diff (its paths point
	   into clean_out, git's output), and the request's rows matched
	   with its files */
	struct stat_totals clean_totals;
	struct strbuf clean_out;
	struct numstat clean;
	struct match match;
	enum judged_by by;		/* MATCHES */
	const char *algorithm;		/* BY_ALGORITHM: its name */
	/* MESSY: git request-pull's merge base, its subject (from the walk),
	   the clean --stat --summary; how many merge bases there are */
	struct strbuf base, base_subject, clean_stat;
	size_t nr_bases;
	/*
	 * DIFFERS: why; with WHY_FOREIGN how many commits.  What only a
	 * person's report says is not looked for with --porcelain (no git
	 * for it): with WHY_UPSTREAM_HAS, how many commits of how many
	 * since the request's "since" <upstream> has.
	 */
	enum differs_why reason;
	long foreign, commits, upstream_has;
};

/*
 * Judge vf's request into *j (to be released by judgement_release()):
 * its verdict, or FAILED with why (a git that failed for this request:
 * the others of an mbox go on) or with tip_missing.  vf->tip and
 * vf->subject get the tip when they were empty; vf->merged_tree the
 * tree pulling it makes when it merges cleanly.
 */
void judge(struct verifying *vf, struct judgement *j);
void judgement_release(struct judgement *j);

#endif
