/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PULLREQ_H
#define PULLREQ_H

#include <stddef.h>

#include "stat.h"
#include "str.h"

/*
 * The finder of the pull request in the text of one message, decoded
 * (mail.h: UTF-8, lines ending in LF; a CR before it is ignored), as
 * `git request-pull` wrote it (git 2.38 to 2.55 write the same text).
 *
 * pullreq_find() is a pure function over bytes: no I/O, no global
 * state, no git, no assumption that the text is NUL-terminated.  The
 * strings of the result point into the text, which must outlive it, or
 * into memory the result owns (paths unquoted out of the stat's
 * names), which lives until pullreq_release().
 *
 *	The following changes since commit <base>:
 *
 *	  <subject> (<date>)
 *
 *	are available in the Git repository at:
 *
 *	  <url> <ref>				(or "  <url> ": no ref)
 *
 *	for you to fetch changes up to <tip>:
 *
 *	  <subject> (<date>)
 *
 *	----------------------------------------------------------------
 *	<tag message>				(a tag: up to its signature)
 *
 *	----------------------------------------------------------------
 *	(from the branch description for <b> local branch)
 *
 *	<description>
 *	----------------------------------------------------------------
 *	<shortlog>
 *
 *	 <path> | <N> <graph>			(git diff -M --stat --summary,
 *	 <path> | Bin <old> -> <new> bytes	 stat.h)
 *	 <N> files changed, <I> insertions(+), <D> deletions(-)
 *	 create mode 100644 <path>
 *	 rename <pfx>{<a> => <b>}<sfx> (<NN>%)
 *	 ...
 *	<patch>					(request-pull -p)
 *
 * Text before the first line (a greeting) and after the diffstat (a
 * signature) is ignored.  The commit ids are 7 to 64 hex digits
 * (is_hex_id()).  The words of the lines are matched exactly, but "Git"
 * in "are available in the Git repository at:" in any case (older gits
 * wrote "git").
 *
 * The diffstat is found by its " N file(s) changed" line, after the
 * "up to" line: the stat rows are the lines right above it that parse
 * as rows, and they must add up to it (as many rows as files, and the
 * rows' N summing to insertions + deletions).  A block that adds up but
 * is followed by a "----" separator line (64 dashes, as request-pull
 * writes them) is one quoted in a tag message or branch description and
 * is passed over, unless a patch ("diff --git ") follows it directly;
 * when every block is passed over, the last one is taken.
 */
struct pullreq {
	struct str base;		/* hex id "since commit" */
	struct str base_subject;	/* "<subject> (<date>)", or empty */
	struct str url;			/* as written: untrusted, to be checked
					   (fetchgate_check_url()) before use */
	struct str ref;			/* empty: none (the remote's HEAD);
					   check it (fetchgate_check_ref()) */
	struct str tip;			/* hex id "up to" */
	struct str tip_subject;
	struct str tag_message;		/* each of these three without */
	struct str description;		/* the blank lines around it, */
	struct str shortlog;		/* or empty */

	struct stat_row *row;
	size_t nr_rows;
	int rows_cut;			/* a " ..." line: fewer rows than files */
	long files, insertions, deletions;
	struct stat_summary *summary;
	size_t nr_summary;
	int has_patch;			/* "diff --git " right after it (-p) */

	char **owned_;			/* private: what the paths point into */
	size_t nr_owned_, alloc_owned_;
};

/*
 * Find the pull request in len bytes of text into *req: NULL, or a
 * static sentence saying what is missing, such as "no 'The following
 * changes since commit' line", or "out of memory" (*req then empty).
 */
const char *pullreq_find(const char *text, size_t len, struct pullreq *req);

/* Free what pullreq_find() allocated; *req is then empty. */
void pullreq_release(struct pullreq *req);

#endif
