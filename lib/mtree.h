/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MTREE_H
#define MTREE_H

#include <stddef.h>

#include "str.h"

/*
 * Parser for the output of
 *
 *	git merge-tree --write-tree -z --messages <branch1> <branch2>
 *
 * as git-merge-tree(1) specifies it: the toplevel tree id and a NUL;
 * for a conflicted merge, the "conflicted file info" entries
 * ("<mode> <oid> <stage>\t<path>", each ended by NUL); then, when there
 * are messages, a NUL that opens the messages section.  Since git 2.39
 * that section is a sequence of records
 *
 *	<n>NUL<path1>NUL...<pathN>NUL<type>NUL<message>NUL
 *
 * and in git 2.38 one free-form block of text without any NUL (git 2.39
 * may also end the records with such a block: advice about submodules).
 *
 * A merge driver that git merge-tree runs writes to the same stdout, and
 * before merge-tree prints anything: what comes before the tree id is
 * theirs.
 *
 * mtree_parse() is a pure function over bytes: no I/O, no global state,
 * no assumption that the buffer is NUL-terminated.  Every string in the
 * result points into the caller's buffer, with its length beside it, so
 * the buffer must outlive the result.
 */

struct mtree_entry {			/* one conflicted-file-info entry */
	unsigned mode;
	struct str oid;
	int stage;			/* 1, 2 or 3 */
	struct str path;
};

struct mtree_message {			/* one record of the messages */
	struct str *paths;
	size_t nr_paths;
	struct str type;	/* "Auto-merging", "CONFLICT (contents)", ... */
	struct str text;
};

struct mtree_result {
	struct str tree;	/* hex id of the merged toplevel tree */
	struct mtree_entry *entries;
	size_t nr_entries;
	struct mtree_message *messages;
	size_t nr_messages;
	struct str freeform;	/* text after the records, or empty */
	struct str prelude;	/* merge drivers' output, or empty */
};

#define MTREE_RESULT_INIT \
	{ { NULL, 0 }, NULL, 0, NULL, 0, { NULL, 0 }, { NULL, 0 } }

/*
 * Parse len bytes at buf into *res, the tree id being id_len (40 or 64)
 * hex digits.  The result is the first suffix of buf that is a valid
 * output and starts with a tree id ended by a NUL; the bytes before it
 * are the prelude.  Returns 0 on success; on malformed input returns
 * -1, leaves *res empty and points *err (when err is not NULL) at a
 * static description of what was wrong.
 */
int mtree_parse(const char *buf, size_t len, size_t id_len,
		struct mtree_result *res, const char **err);

/* Free what mtree_parse() allocated; *res is then empty again. */
void mtree_release(struct mtree_result *res);

/* Does this message record report a conflict (its type says CONFLICT)? */
int mtree_is_conflict(const struct mtree_message *msg);

/*
 * The short conflict label of a record, such as "content", "add/add",
 * "modify/delete" or "binary": the words in parentheses that git's
 * English message starts with ("CONFLICT (add/add): Merge conflict in
 * ..."), told from the record's type alone, since the message is in the
 * user's language.  For a content conflict they depend on its path's
 * conflicted file info: stages, with bit n set when stage n is there,
 * and gitlink, whether one of them is a submodule.  Empty when the type
 * has none.  The label points into msg's type or into static storage.
 */
struct str mtree_conflict_label(const struct mtree_message *msg,
				unsigned stages, int gitlink);

#endif
