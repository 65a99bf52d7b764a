// SPDX-License-Identifier: GPL-2.0-only
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
