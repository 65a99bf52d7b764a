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
 * strings of the result point into memory the result owns (the
 * request's lines with what mail did undone, paths unquoted out of the
 * stat's names), which lives until pullreq_release().
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
 * (is_hex_id()).  "Git" in "are available in the Git repository at:"
 * is matched in any case (older gits wrote "git").
 *
 * What mail does to that text is undone, the damage named in the
 * result (enum pullreq_damage):
 *
 *  - Unicode spaces (U+00A0 no-break space and the like) where git wrote
 *    spaces: in the indent of a line, and in a run of spaces (the
 *    padding of the stat's rows); one inside a name is left alone;
 *  - the request quoted in a reply ("> ", ">", "> > ") or indented as a
 *    whole: the prefix of its "up to" line is taken off every line of it;
 *    the diffstat's rows and totals line may be indented by any amount,
 *    or not at all;
 *  - a header line after prose on the same line, or damaged at its start
 *    ("he following changes since commit <id>:"): the request is found
 *    by "changes since commit <id>", the repository line and its URL,
 *    and "for you to fetch changes up to <id>";
 *  - a header worded by a sender's own template: "are available in the
 *    Git repository at:" after prose on its line, or any line of words
 *    that ends in "repository at:" ("from the Git repository at:"), and
 *    "the following change since commit" (PULLREQ_HEADER too);
 *  - no "since" line at all (git send-email takes it for a header of
 *    the mail when it comes first, and drops it): the request starts
 *    at its repository line, base is empty (PULLREQ_HEADER too);
 *  - the repository line wrapped after its URL, the ref alone on the
 *    next line, or the "since" or "up to" line before its id, the id
 *    alone on the next line (PULLREQ_HEADER too);
 *  - a stat row wrapped by the mail client (its +/- graph, or its
 *    "| N +-" part, on a line of its own), or a "create mode" or
 *    "delete mode" line before its path, is joined again; summary lines
 *    appended to the totals line are split off it; a blank line between
 *    two rows, before the totals line or between summary lines (a
 *    format=flowed wrap, a double-spaced reply) is taken out.
 *
 * A diffstat is a run of stat rows (a " ..." line may end it), with the
 * " N file(s) changed" line after it, or without (the totals were cut
 * off: totals_missing), or that line alone (totals_only).  A diffstat before the last "----" separator
 * line (64 dashes, as request-pull writes them) is one quoted in a tag
 * message or branch description and is passed over, unless a patch
 * ("diff --git ") follows it directly.  A diffstat is a patch's (one of
 * the patches a sender pastes after the request: git format-patch's
 * output, with its "From <id> Mon Sep 17 00:00:00 2001" lines or not,
 * each under a "[PATCH n/m] <subject>" line or after a line of dashes)
 * when its rows come right after format-patch's "---" line, or a
 * patch's "From <id> ..." line or "[PATCH" subject is between it and
 * the diffstat, or the separator line, before it; a patch's is never
 * taken while another is there.  The request's diffstat is the first
 * after its shortlog; when there is none, the last one passed over
 * (so one written before the shortlog).  Other shortlogs and diffstats
 * with their totals line after it (another request's, pasted in), not
 * a patch's, are kept in extra[], not taken; one that is the request's
 * diffstat again, row for row, is left out.
 *
 * A text may hold several requests, each with its "up to" line: the
 * first is found, and next says where the text after it starts.
 */

/* What mail did to a request's text, undone (the bits of damage). */
enum pullreq_damage {
	PULLREQ_SPACES = 1 << 0,	/* Unicode spaces for git's spaces */
	PULLREQ_QUOTED = 1 << 1,	/* quoted, or indented as a whole */
	PULLREQ_WRAPPED = 1 << 2,	/* stat lines wrapped or joined */
	PULLREQ_HEADER = 1 << 3		/* a header line not as git writes
					   it: damaged, after prose, or
					   wrapped */
};

/* One author's commits in a shortlog: "<author> (<count>):" and subjects. */
struct pullreq_author {
	struct str name;
	long count;			/* -1 when not written */
	struct str *subject;		/* as written (a wrapped one joined) */
	size_t nr_subjects;
};

/* A shortlog and the diffstat after it. */
struct pullreq_block {
	struct str shortlog;		/* its text, or empty */
	struct pullreq_author *author;
	size_t nr_authors;
	struct stat_row *row;
	size_t nr_rows;
	int rows_cut;			/* a " ..." line: fewer rows than files */
	/*
	 * No " N files changed" line: files, insertions and deletions
	 * are counted from the rows (insertions and deletions from their
	 * graphs, -1 both when a graph is scaled and they cannot be).
	 */
	int totals_missing;
	/*
	 * No rows: the " N files changed" line alone (git diff
	 * --shortstat's), files, insertions and deletions its own.
	 */
	int totals_only;
	int rows_uneven;		/* the rows do not add up to the totals */
	long files, insertions, deletions;
	struct stat_summary *summary;
	size_t nr_summary;
};

struct pullreq {
	struct str base;		/* hex id "since commit", or empty */
	struct str base_subject;	/* "<subject> (<date>)", or empty */
	struct str url;			/* as written: untrusted, to be checked
					   (fetchgate_check_url()) before use */
	struct str ref;			/* empty: none (the remote's HEAD);
					   check it (fetchgate_check_ref()) */
	struct str tip;			/* hex id "up to" */
	struct str tip_subject;
	struct str tag_message;		/* each of these two, and the */
	struct str description;		/* block's shortlog, without the
					   blank lines around it, or empty */
	struct pullreq_block block;	/* the shortlog and the diffstat */
	int has_patch;			/* "diff --git " right after it (-p),
					   or patches pasted after it */

	unsigned damage;		/* enum pullreq_damage bits */
	/* shortlogs and diffstats after the request's: not what it brings */
	struct pullreq_block *extra;
	size_t nr_extra_blocks;
	/*
	 * Where another request starts, as an offset into the text
	 * (0: none follows); set when an error is returned too.
	 */
	size_t next;

	char **owned_;			/* private: what the paths point into */
	size_t nr_owned_, alloc_owned_;
};

/*
 * Find the first pull request in len bytes of text into *req: NULL, or a
 * static sentence saying what is missing, such as "no 'The following
 * changes since commit' line", or "out of memory".  *req is then empty
 * but for next and, when what is missing comes after the "up to" line
 * (a reply that quotes a request down to its tip), the header: base,
 * url, ref, tip and damage.  The next one is found in text + req->next.
 * pullreq_release() it either way.
 */
const char *pullreq_find(const char *text, size_t len, struct pullreq *req);

/*
 * Does the text have a line of a request in it ("The following changes
 * since commit", "are available in the Git repository at", "for you to
 * fetch changes up to"), whether or not a request can be read from it?
 */
int pullreq_telltale(const char *text, size_t len);

/* Free what pullreq_find() allocated; *req is then empty. */
void pullreq_release(struct pullreq *req);

#endif
