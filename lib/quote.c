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

/*
 * The control character at s (left > 0 bytes): its length, 1, or 2 for
 * a C1 control (U+0080..U+009F, C2 80..C2 9F in UTF-8); 0 when there is
 * none.  NUL and DEL are control characters.
 */
static size_t control_at(const char *s, size_t left)
{
	unsigned char c = (unsigned char)s[0];

	if (c < 0x20 || c == 0x7f)
		return 1;
	if (c == 0xc2 && left > 1 && (unsigned char)s[1] >= 0x80 &&
	    (unsigned char)s[1] <= 0x9f)
		return 2;
	return 0;
}

/* Is there a control character in s, a TAB aside when tab_is_space? */
static int has_control(const char *s, size_t len, int tab_is_space)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (control_at(s + i, len - i) && !(tab_is_space && s[i] == '\t'))
			return 1;
	return 0;
}

/*
 * Add s as it is, a TAB as a space when tab_is_space, or when it has a
 * control character, between double quotes with C escapes for those
 * (octal for each byte of a C1 control), '"' and '\\'.
 */
static void add_shown(struct strbuf *sb, const char *s, size_t len,
		      int tab_is_space)
{
	static const char esc[] = "\a\b\t\n\v\f\r";
	static const char name[] = "abtnvfr";
	int quoted = has_control(s, len, tab_is_space);
	size_t i, n;

	if (quoted)
		strbuf_addch(sb, '"');
	for (i = 0; i < len; i += n) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c ? strchr(esc, c) : NULL;

		n = control_at(s + i, len - i);
		if (c == '\t' && tab_is_space) {
			strbuf_addch(sb, ' ');
			n = 1;
		} else if (quoted && (c == '"' || c == '\\')) {
			strbuf_addf(sb, "\\%c", c);
			n = 1;
		} else if (!n || !quoted) {
			strbuf_addch(sb, c);
			n = 1;
		} else if (e) {
			strbuf_addf(sb, "\\%c", name[e - esc]);
		} else if (n == 2) {
			strbuf_addf(sb, "\\%03o\\%03o", c, (unsigned char)s[i + 1]);
		} else {
			strbuf_addf(sb, "\\%03o", c);
		}
	}
	if (quoted)
		strbuf_addch(sb, '"');
}

void quote_shown(struct strbuf *sb, const char *s, size_t len)
{
	add_shown(sb, s, len, 1);
}

void quote_arg(struct strbuf *sb, const char *s, size_t len)
{
	if (has_control(s, len, 0)) {
		add_shown(sb, s, len, 0);
		return;
	}
	strbuf_addch(sb, '\'');
	strbuf_add(sb, s, len);
	strbuf_addch(sb, '\'');
}
