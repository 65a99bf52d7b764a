/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STR_H
#define STR_H

#include <stddef.h>

/*
 * The counted string of the pure parsers (mtree.h, stat.h, pullreq.h):
 * len bytes at s, with no NUL after them, pointing into the parser's
 * input or into memory its result owns.  s may be NULL when len is 0.
 */
struct str {
	const char *s;
	size_t len;
};

/* The len bytes at s ("" when len is 0). */
struct str str_at(const char *s, size_t len);

/* A NUL-terminated string as a struct str. */
struct str str_cstr(const char *s);

/* Does s start with the NUL-terminated prefix? */
int str_starts_with(struct str s, const char *prefix);

/* Is s the NUL-terminated string cs? */
int str_equals(struct str s, const char *cs);

/*
 * Is s (len bytes) a commit id as a person or request-pull writes it:
 * 7 to 64 hex digits, in either case (abbreviated, or whole in SHA-1
 * or SHA-256)?
 */
int is_hex_id(const char *s, size_t len);

/* Is s (len bytes) a whole object id as git prints it: 40 or 64 lowercase hex digits? */
int is_oid(const char *s, size_t len);

#endif
