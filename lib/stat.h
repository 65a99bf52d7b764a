/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STAT_H
#define STAT_H

#include <stddef.h>

#include "str.h"

struct numstat;

/*
 * git's --stat and --summary text, in one place: the names git diff
 * --stat prints for files, their width in columns and how they are cut
 * to fit, the parsing of its rows, of --summary lines and of the totals
 * line, and the totals line itself.  Pure
 * functions over bytes: no I/O, no git, no global state, no assumption
 * that a line is NUL-terminated (lines are struct str, without their
 * newline).
 *
 * Names
 * -----
 *
 * git diff --stat (diff.c, show_stats()) prints a file's name as
 * quote_c_style() does (quoted, with C escapes, when the path has a
 * control character, '"' or '\\' in it, or with core.quotePath, the
 * default, a byte >= 0x80), and a rename or copy as pprint_rename()
 * does: "pfx{a => b}sfx" with the longest common directory prefix and
 * suffix taken out, "a => b" when there is none, and "a" => "b" quoted
 * as a whole when either needs quoting.  A name wider than the name
 * column becomes "..." followed by the end of the name from its first
 * '/' on, cut at a column (byte in git 2.38) so that it fits: so ".../"
 * and a tail, or "..." and a tail without '/'.
 */

/*
 * The columns s (len bytes) takes on a terminal, as git's
 * utf8_strwidth() counts them and so git diff --stat pads and cuts
 * names: a wide or fullwidth character (East Asian Width W or F: CJK,
 * most emoji) two, a combining mark, format or control character none,
 * any other character one.  A byte that starts no valid UTF-8 sequence
 * counts one column.
 */
size_t stat_width(const char *s, size_t len);

/* The bytes of the longest start of s, whole characters, at most columns wide. */
size_t stat_width_prefix(const char *s, size_t len, size_t columns);

/*
 * git diff --stat's cut of a name wider than columns (show_stats()):
 * characters are dropped from its start until what is left fits in
 * columns - 3, beside the "..." printed before it, then up to the first
 * '/' left, if any.  Returns where the tail printed after "..." starts,
 * or 0 when the name fits and is printed whole.
 */
size_t stat_name_cut(const char *name, size_t len, size_t columns);

/*
 * The name git diff --stat prints for the file at path (renamed or
 * copied from `from` when from_len is not 0), with core.quotePath
 * when quotepath: a malloc()ed NUL-terminated string, its length in
 * *len (never NULL: out of memory dies, as a strbuf does).
 */
char *stat_name(const char *path, size_t path_len, const char *from,
		size_t from_len, int quotepath, size_t *len);

/*
 * The paths a whole printed name stands for, quote_c_style() and
 * pprint_rename() undone: *path where the file ends up, *from its
 * source when the name is a rename (else empty).  Both empty when it
 * cannot be told.  They point into name, or into one malloc()ed block
 * returned for the caller to free (else NULL; out of memory dies, as a
 * strbuf does).
 */
char *stat_name_paths(struct str name, struct str *path, struct str *from);

/* The same for a name that is one path (a --summary create or delete). */
char *stat_name_path(struct str name, struct str *path);

/*
 * The rows
 * --------
 *
 *	 <path> | <N> <graph>
 *	 <path> | Bin <old> -> <new> bytes
 *	 <path> | Unmerged
 *	 ...				(fewer rows shown than files)
 *	 <N> files changed, <I> insertions(+), <D> deletions(-)
 *	 create mode 100644 <path>
 *	 rename <pfx>{<a> => <b>}<sfx> (<NN>%)
 */
enum stat_row_kind {
	STAT_ROW_TEXT,			/* " <name> | <N> +++--" */
	STAT_ROW_BINARY,		/* " <name> | Bin <old> -> <new> bytes" */
	STAT_ROW_UNMERGED		/* " <name> | Unmerged" */
};

struct stat_row {
	enum stat_row_kind kind;
	/*
	 * The name as printed, without the padding after it: a path
	 * (C-quoted when it needs it), a rename "pfx{a => b}sfx" or
	 * "a => b", either of them maybe abbreviated to "..." and a tail
	 * of the name (see match.h).
	 */
	struct str name;
	int abbreviated;		/* name starts with "..." */
	/*
	 * The paths the name stands for (stat_name_paths()), when they
	 * can be told; both empty when abbreviated.  stat_parse_row()
	 * leaves them empty.
	 */
	struct str path, from;
	/*
	 * A text row: changes is N, the lines added plus deleted (--stat
	 * shows no more: its graph is scaled to the width).  A binary
	 * row: old_size and new_size in bytes, -1 both when only "Bin"
	 * is printed; changes is -1, as for an "Unmerged" row.
	 */
	long changes;
	long old_size, new_size;
};

/* Is line a stat row?  1 and *row (its name pointing into line), or 0. */
int stat_parse_row(struct str line, struct stat_row *row);

/* Is line the " ..." show_stats() writes when it shows fewer rows than files? */
int stat_is_cut(struct str line);

/* One line of the --summary part. */
enum stat_summary_kind {
	STAT_SUMMARY_CREATE,		/* " create mode <mode> <path>" */
	STAT_SUMMARY_DELETE,		/* " delete mode <mode> <path>" */
	STAT_SUMMARY_RENAME,		/* " rename <names> (<NN>%)" */
	STAT_SUMMARY_COPY,		/* " copy <names> (<NN>%)" */
	STAT_SUMMARY_REWRITE,		/* " rewrite <path> (<NN>%)" */
	STAT_SUMMARY_MODE_CHANGE	/* " mode change <old> => <new>[ <path>]" */
};

struct stat_summary {
	enum stat_summary_kind kind;
	struct str name;		/* as printed; empty for a mode change
					   that follows its rename */
	struct str path, from;		/* as in struct stat_row */
	unsigned old_mode, new_mode;	/* create: new_mode, delete: old_mode;
					   0 when not printed */
	int similarity;			/* NN of "(NN%)", else -1 */
};

/* Is line a --summary line?  1 and *sum (paths left empty), or 0. */
int stat_parse_summary(struct str line, struct stat_summary *sum);

/* The totals line */
struct stat_totals {
	long files, insertions, deletions;
};

/*
 * Is line " <N> file(s) changed[, <I> insertion(s)(+)][, <D>
 * deletion(s)(-)]"?  1 and *t, or 0.
 */
int stat_parse_totals(struct str line, struct stat_totals *t);

/* The totals of a numstat (numstat.h): binary files count no lines. */
void stat_numstat_totals(const struct numstat *ns, struct stat_totals *t);

/*
 * The totals line as git prints it, without the leading space and the
 * newline ("2 files changed, 5 insertions(+), 1 deletion(-)";
 * print_stat_summary() leaves out a zero count but when both are
 * zero), into buf of STAT_TOTALS_MAX bytes: buf.
 */
#define STAT_TOTALS_MAX 96
const char *stat_totals_line(char *buf, const struct stat_totals *t);

#endif
