#ifndef PULLMSG_H
#define PULLMSG_H

#include <stddef.h>

/*
 * Parser of pull requests as a receiver gets them: what
 * `git request-pull` wrote (git 2.38 to 2.55 write the same text),
 * inside a plain text body, an RFC 822 message, or an mbox of many
 * messages, with what mail does to it on the way.
 *
 * pullmsg_parse() is a pure function over bytes: no I/O, no global
 * state, no git, no assumption that the buffer is NUL-terminated.  The
 * result owns every byte its strings point at (decoding needs copies
 * anyway), so the input may be freed once it returns; the strings live
 * until pullmsg_release().
 *
 * The input
 * ---------
 *
 *  - An mbox when it starts with "From ": a message starts at each line
 *    "From " that opens the input or follows an empty line.  Inside a
 *    message, a line ">From ", ">>From ", ... loses one '>' (mboxrd; on
 *    an mboxo file this also unquotes a ">From " the sender wrote,
 *    which cannot be told apart).  Outside an mbox nothing is unquoted.
 *  - Otherwise an RFC 822 message when its first lines up to an empty
 *    line are all header fields ("Name: value") or their continuations;
 *    otherwise a plain text body.
 *  - Lines end in LF or CRLF (both, mixed, also inside encoded bodies).
 *  - Header fields are unfolded.  Subject and From decode RFC 2047
 *    encoded words (=?charset?q?...?= and ?b?) whose charset is utf-8,
 *    us-ascii or iso-8859-1 (converted to UTF-8); a word in any other
 *    charset, or malformed, is kept as written.
 *  - The body: Content-Transfer-Encoding quoted-printable and base64
 *    are decoded (anything else is taken as it is); format=flowed
 *    (RFC 3676, with delsp) is undone.  In a multipart message (nested
 *    too, the boundary quoted or not) the text/plain parts are tried in
 *    order, depth first, and the first that holds a pull request is the
 *    one; a message/rfc822 part (a forwarded request) is looked into
 *    too.  text/html and every other type is skipped.  A part without
 *    Content-Type is text/plain.
 *
 * The pull request in a body
 * --------------------------
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
 *	 <path> | <N> <graph>			(git diff -M --stat --summary)
 *	 <path> | Bin <old> -> <new> bytes
 *	 <N> files changed, <I> insertions(+), <D> deletions(-)
 *	 create mode 100644 <path>
 *	 rename <pfx>{<a> => <b>}<sfx> (<NN>%)
 *	 ...
 *	<patch>					(request-pull -p)
 *
 * Text before the first line (a greeting) and after the diffstat (a
 * signature) is ignored.  The commit ids are 7 to 64 hex digits.  The
 * words of the lines are matched exactly, but "Git" in "are available
 * in the Git repository at:" in any case (older gits wrote "git").
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

struct pullmsg_str {			/* len bytes at s, no NUL after them */
	const char *s;			/* may be NULL when len is 0 */
	size_t len;
};

/* One row of the --stat part. */
enum pullmsg_row_kind {
	PULLMSG_ROW_TEXT,		/* " <name> | <N> +++--" */
	PULLMSG_ROW_BINARY,		/* " <name> | Bin <old> -> <new> bytes" */
	PULLMSG_ROW_UNMERGED		/* " <name> | Unmerged" */
};

struct pullmsg_row {
	enum pullmsg_row_kind kind;
	/*
	 * The name as printed, without the padding after it: a path
	 * (C-quoted when it needs it), a rename "pfx{a => b}sfx" or
	 * "a => b", either of them maybe abbreviated to "..." and a tail
	 * of the name (see pullmsg_name_matches()).
	 */
	struct pullmsg_str name;
	int abbreviated;		/* name starts with "..." */
	/*
	 * The paths the name stands for, unquoted, when they can be
	 * told: path where the file ends up, from its source when the
	 * name is a rename (else empty).  Both empty when abbreviated.
	 */
	struct pullmsg_str path, from;
	/*
	 * A text row: changes is N, the lines added plus deleted (--stat
	 * shows no more: its graph is scaled to the width).  A binary
	 * row: old_size and new_size in bytes, -1 both when only "Bin"
	 * is printed; changes is -1.
	 */
	long changes;
	long old_size, new_size;
};

/* One line of the --summary part. */
enum pullmsg_summary_kind {
	PULLMSG_SUMMARY_CREATE,		/* " create mode <mode> <path>" */
	PULLMSG_SUMMARY_DELETE,		/* " delete mode <mode> <path>" */
	PULLMSG_SUMMARY_RENAME,		/* " rename <names> (<NN>%)" */
	PULLMSG_SUMMARY_COPY,		/* " copy <names> (<NN>%)" */
	PULLMSG_SUMMARY_REWRITE,	/* " rewrite <path> (<NN>%)" */
	PULLMSG_SUMMARY_MODE_CHANGE	/* " mode change <old> => <new>[ <path>]" */
};

struct pullmsg_summary {
	enum pullmsg_summary_kind kind;
	struct pullmsg_str name;	/* as printed; empty for a mode change
					   that follows its rename */
	struct pullmsg_str path, from;	/* as in struct pullmsg_row */
	unsigned old_mode, new_mode;	/* create: new_mode, delete: old_mode;
					   0 when not printed */
	int similarity;			/* NN of "(NN%)", else -1 */
};

struct pullmsg_request {
	struct pullmsg_str base;	/* hex id "since commit" */
	struct pullmsg_str base_subject;/* "<subject> (<date>)", or empty */
	struct pullmsg_str url;		/* as written: check it with
					   pullmsg_check_url() before use */
	struct pullmsg_str ref;		/* empty: none (the remote's HEAD);
					   check it with pullmsg_check_ref() */
	struct pullmsg_str tip;		/* hex id "up to" */
	struct pullmsg_str tip_subject;
	struct pullmsg_str tag_message;	/* each of these three without */
	struct pullmsg_str description;	/* the blank lines around it, */
	struct pullmsg_str shortlog;	/* or empty */

	struct pullmsg_row *row;
	size_t nr_rows;
	int rows_cut;			/* a " ..." line: fewer rows than files */
	long files, insertions, deletions;
	struct pullmsg_summary *summary;
	size_t nr_summary;
	int has_patch;			/* "diff --git " right after it (-p) */
};

struct pullmsg {
	size_t number;			/* 1, 2, ...: its place in the input */
	struct pullmsg_str subject;	/* unfolded, decoded; empty when the */
	struct pullmsg_str from;	/* input has no header */
	struct pullmsg_str message_id;
	struct pullmsg_str date;
	/*
	 * NULL when the message holds a pull request, in req; otherwise
	 * a static sentence saying what is missing, such as "no 'The
	 * following changes since commit' line" (req is then empty).
	 */
	const char *error;
	struct pullmsg_request req;
};

struct pullmsg_list {
	struct pullmsg *msg;
	size_t nr;
	int mbox;			/* the input was an mbox */
	char **owned_;			/* private: what the strings point into */
	size_t nr_owned_, alloc_owned_;
};

#define PULLMSG_LIST_INIT { NULL, 0, 0, NULL, 0, 0 }

/*
 * Parse len bytes at buf into *res: one struct pullmsg per message of
 * the input (one for a plain body or a single message), in order, each
 * with its request or the reason it has none.  Returns 0; -1 with *err
 * (when err is not NULL) set to a static description, and *res empty,
 * when out of memory.
 */
int pullmsg_parse(const char *buf, size_t len, struct pullmsg_list *res,
		  const char **err);

/* Free what pullmsg_parse() allocated; *res is then empty again. */
void pullmsg_release(struct pullmsg_list *res);

/*
 * Matching a request's row with a file of another diffstat
 * --------------------------------------------------------
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
 * The name git diff --stat prints for the file at path (renamed or
 * copied from `from` when from_len is not 0), with core.quotePath
 * when quotepath: a malloc()ed NUL-terminated string, its length in
 * *len; NULL when out of memory.
 */
char *pullmsg_stat_name(const char *path, size_t path_len,
			const char *from, size_t from_len, int quotepath,
			size_t *len);

enum pullmsg_match {
	PULLMSG_NO_MATCH = 0,
	PULLMSG_MATCH,			/* the whole name is the file's */
	PULLMSG_MATCH_ABBREV		/* "..." and a tail of the file's name */
};

/*
 * Does the printed name of a row (as in struct pullmsg_row) stand for
 * the file at path (renamed or copied from `from` when from_len is not
 * 0)?  The name is compared with what pullmsg_stat_name() makes of the
 * file with and without core.quotePath (the sender's setting is not
 * known), trailing spaces aside (the padding hides them).  An
 * abbreviated name can stand for several files; the caller who matches
 * a whole diffstat should prefer whole names and take each file once.
 */
enum pullmsg_match pullmsg_name_matches(const char *name, size_t name_len,
					const char *path, size_t path_len,
					const char *from, size_t from_len);

/*
 * What a pull request says to fetch is untrusted
 * ----------------------------------------------
 *
 * pullmsg_check_url() accepts the transports a maintainer pulls over:
 * "https://", "http://", "git://", "ssh://" and scp-like "[user@]host:path"
 * (ssh; git's rule: a ':' with no '/' before it), and with allow_local
 * also "file://" and local paths.  It refuses: an empty URL, a space or
 * control character anywhere, a leading '-' (the URL, the host, an
 * scp-like path: option injection into git or ssh), "<transport>::"
 * (remote helpers such as ext::, which run commands) and every other
 * scheme.  Scheme names are lowercase, as git's transport code wants.
 *
 * pullmsg_check_ref() applies git's check_refname_format() with
 * --allow-onelevel (request-pull writes "master", "tags/v1.0": refs/
 * and heads/ are taken off), and refuses besides a ref starting with
 * '-' (an option to git fetch) or '+' (a forced refspec).  An absent
 * ref (empty) means the remote's HEAD and needs no check.
 *
 * The split with the caller: these are the first gate, before anything
 * runs.  The caller still passes URL and ref after "--" or
 * --end-of-options to git fetch, restricts transports for git itself
 * (GIT_ALLOW_PROTOCOL=https:http:git:ssh, plus file with allow_local),
 * never through a shell, and may run `git check-ref-format
 * --allow-onelevel <ref>` as a second opinion.  That command takes
 * neither "--" nor --end-of-options (an argument starting with '-' is
 * always a usage error there), so only a ref this function accepted,
 * which cannot start with '-', may be handed to it.
 */
enum pullmsg_transport {
	PULLMSG_HTTPS,
	PULLMSG_HTTP,
	PULLMSG_GIT,
	PULLMSG_SSH,			/* ssh://... */
	PULLMSG_SCP,			/* [user@]host:path, ssh too */
	PULLMSG_FILE,			/* file://..., only with allow_local */
	PULLMSG_LOCAL			/* a path, only with allow_local */
};

/* 0 and *kind (when kind is not NULL); -1 and *err (when err is not NULL). */
int pullmsg_check_url(const char *url, size_t len, int allow_local,
		      enum pullmsg_transport *kind, const char **err);
int pullmsg_check_ref(const char *ref, size_t len, const char **err);

#endif
