// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "str.h"

static int is_hex_digit(int ch, int upper_too)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
	       (upper_too && ch >= 'A' && ch <= 'F');
}

static int all_hex(const char *s, size_t len, int upper_too)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_hex_digit((unsigned char)s[i], upper_too))
			return 0;
	return 1;
}

int is_hex_id(const char *s, size_t len)
{
	return len >= 7 && len <= 64 && all_hex(s, len, 1);
}

int is_oid(const char *s, size_t len)
{
	return (len == 40 || len == 64) && all_hex(s, len, 0);
}

struct str str_at(const char *s, size_t len)
{
	struct str str;

	str.s = len ? s : "";
	str.len = len;
	return str;
}

struct str str_cstr(const char *s)
{
	return str_at(s, strlen(s));
}

int str_starts_with(struct str s, const char *prefix)
{
	size_t n = strlen(prefix);

	return s.len >= n && !memcmp(s.s, prefix, n);
}

int str_equals(struct str s, const char *cs)
{
	return s.len == strlen(cs) && !memcmp(s.s, cs, s.len);
}

int str_same(struct str a, struct str b)
{
	return a.len == b.len && (!a.len || !memcmp(a.s, b.s, a.len));
}

const char *str_find(struct str s, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; s.len >= n && i <= s.len - n; i++)
		if (!memcmp(s.s + i, needle, n))
			return s.s + i;
	return NULL;
}

static int lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

int str_equals_ci(struct str s, const char *word)
{
	size_t i;

	for (i = 0; i < s.len; i++)
		if (!word[i] || lower((unsigned char)s.s[i]) != word[i])
			return 0;
	return !word[s.len];
}

const char *str_find_ci(struct str s, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; s.len >= n && i <= s.len - n; i++)
		if (str_equals_ci(str_at(s.s + i, n), needle))
			return s.s + i;
	return NULL;
}

struct str str_rtrim(struct str s, const char *set)
{
	while (s.len && is_in_set(s.s[s.len - 1], set))
		s.len--;
	return str_at(s.s, s.len);
}

struct str str_trim(struct str s, const char *set)
{
	while (s.len && is_in_set(s.s[0], set)) {
		s.s++;
		s.len--;
	}
	return str_rtrim(s, set);
}

struct str str_next_line(struct str *rest)
{
	const char *nl = memchr(rest->s, '\n', rest->len);
	struct str line;

	line.s = rest->s;
	line.len = nl ? (size_t)(nl - rest->s) : rest->len;
	rest->s += line.len + !!nl;
	rest->len -= line.len + !!nl;
	return line;
}

int str_is_blank(struct str s)
{
	return !str_trim(s, " \t\r\n").len;
}

int is_in_set(int ch, const char *set)
{
	return ch && strchr(set, ch) != NULL;
}

int is_space_or_tab(int ch)
{
	return ch == ' ' || ch == '\t';
}

size_t utf8_char(const char *s, size_t left, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len, i;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	} else if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
		*cp = u[0] & 0x1fu;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		*cp = u[0] & 0x0fu;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		*cp = u[0] & 0x07u;
	} else {
		return 0;
	}
	if (left < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (u[i] & 0x3fu);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are no characters */
	if ((len == 3 && *cp < 0x800) || (len == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return len;
}

int code_in_ranges(unsigned cp, const struct code_range *r, size_t nr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp < r[mid].first)
			hi = mid;
		else if (cp > r[mid].last)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}
