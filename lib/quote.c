// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "quote.h"

static int needs_quote(unsigned char c, int quote_high)
{
	return c < 0x20 || c == '"' || c == '\\' || c == 0x7f ||
	       (quote_high && c >= 0x80);
}

void quote_c_always(struct strbuf *sb, const char *s, size_t len,
		    int quote_high)
{
	static const char esc[] = "\a\b\t\n\v\f\r";
	static const char name[] = "abtnvfr";
	size_t i;

	strbuf_addch(sb, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c ? strchr(esc, c) : NULL;

		if (!needs_quote(c, quote_high))
			strbuf_addch(sb, c);
		else if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (e)
			strbuf_addf(sb, "\\%c", name[e - esc]);
		else
			strbuf_addf(sb, "\\%03o", c);
	}
	strbuf_addch(sb, '"');
}

void quote_c_style(struct strbuf *sb, const char *s, size_t len,
		   int quote_high)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (needs_quote((unsigned char)s[i], quote_high)) {
			quote_c_always(sb, s, len, quote_high);
			return;
		}
	strbuf_add(sb, s, len);
}

static int has_control(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 1;
	return 0;
}

void quote_shown(struct strbuf *sb, const char *s, size_t len)
{
	if (has_control(s, len))
		quote_c_always(sb, s, len, 0);
	else
		strbuf_add(sb, s, len);
}

void quote_arg(struct strbuf *sb, const char *s, size_t len)
{
	if (has_control(s, len)) {
		quote_c_always(sb, s, len, 0);
		return;
	}
	strbuf_addch(sb, '\'');
	strbuf_add(sb, s, len);
	strbuf_addch(sb, '\'');
}
