/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NUMSTAT_H
#define NUMSTAT_H

#include <stddef.h>

/*
 * Parser for the output of "git diff --numstat -z": per file
 *
 *	<added>\t<deleted>\t<path>NUL
 *	<added>\t<deleted>\tNUL<from>NUL<to>NUL	(a rename or copy)
 *
 * with "-" for both counts of a binary file.  Like mtree.h, a pure
 * function over bytes; the strings point into the caller's buffer.
 */

struct numstat_file {
	long added, deleted;		/* -1 for a binary file */
	const char *path;		/* where the file ends up */
	size_t path_len;
	const char *from;		/* its source when renamed or copied */
	size_t from_len;
};

struct numstat {
	struct numstat_file *file;
	size_t nr;
};

#define NUMSTAT_INIT { NULL, 0 }

/* 0 on success; -1 with *err set on malformed input (*res then empty). */
int numstat_parse(const char *buf, size_t len, struct numstat *res,
		  const char **err);
void numstat_release(struct numstat *res);

#endif
