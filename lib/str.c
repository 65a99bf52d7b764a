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
