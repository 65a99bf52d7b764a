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

/* Are a and b the same bytes? */
int str_same(struct str a, struct str b);

/* Where the NUL-terminated needle first is in s, or NULL. */
const char *str_find(struct str s, const char *needle);

/*
 * The same, ASCII letters in any case: needle and word are written in
 * lowercase ("are available in the git repository at:").
 */
int str_equals_ci(struct str s, const char *word);
const char *str_find_ci(struct str s, const char *needle);

/* s without the bytes of the NUL-terminated set at its end, or at both ends. */
struct str str_rtrim(struct str s, const char *set);
struct str str_trim(struct str s, const char *set);

/*
 * The line at the start of *rest (which is not empty), without its
 * '\n' (the last one may have none), pointing into *rest even when it
 * is empty; *rest is then what follows it.
 */
struct str str_next_line(struct str *rest);

/* Is s empty, or only spaces, tabs, CRs and LFs? */
int str_is_blank(struct str s);

/* Is ch one of the bytes of the NUL-terminated set (never NUL itself)? */
int is_in_set(int ch, const char *set);

int is_space_or_tab(int ch);

/*
 * Is s (len bytes) a commit id as a person or request-pull writes it:
 * 7 to 64 hex digits, in either case (abbreviated, or whole in SHA-1
 * or SHA-256)?
 */
int is_hex_id(const char *s, size_t len);

/* Is s (len bytes) a whole object id as git prints it: 40 or 64 lowercase hex digits? */
int is_oid(const char *s, size_t len);

/*
 * The UTF-8 character at s (left > 0 bytes): its length in bytes and
 * its code point in *cp (an ASCII byte is one); 0 when s starts no
 * valid sequence (a byte that starts none, a sequence cut short, an
 * overlong form, a surrogate, beyond U+10FFFF).
 */
size_t utf8_char(const char *s, size_t left, unsigned *cp);

/* Inclusive ranges of code points, sorted (unicode-width.h, quote.c). */
struct code_range {
	unsigned first, last;
};

/* Is cp in one of the nr ranges at r? */
int code_in_ranges(unsigned cp, const struct code_range *r, size_t nr);

#endif
