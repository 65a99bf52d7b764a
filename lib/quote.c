// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "quote.h"
#include "str.h"

/*
 * The invisible characters that change how a text reads: the Unicode
 * categories Cf (format: the bidi embeddings, overrides and isolates,
 * the zero-width space and joiners, the marks LRM, RLM and ALM, the
 * BOM, the soft hyphen, tags), Zl and Zp (the line and paragraph
 * separators), from the Unicode Character Database 14.0, as
 * unicode-width.h.
 */
static const struct code_range invisible[] = {
	{ 0x00ad, 0x00ad }, { 0x0600, 0x0605 }, { 0x061c, 0x061c },
	{ 0x06dd, 0x06dd }, { 0x070f, 0x070f }, { 0x0890, 0x0891 },
	{ 0x08e2, 0x08e2 }, { 0x180e, 0x180e }, { 0x200b, 0x200f },
	{ 0x2028, 0x202e }, { 0x2060, 0x2064 }, { 0x2066, 0x206f },
	{ 0xfeff, 0xfeff }, { 0xfff9, 0xfffb }, { 0x110bd, 0x110bd },
	{ 0x110cd, 0x110cd }, { 0x13430, 0x13438 }, { 0x1bca0, 0x1bca3 },
	{ 0x1d173, 0x1d17a }, { 0xe0001, 0xe0001 }, { 0xe0020, 0xe007f },
};

/*
 * The character at s (left > 0 bytes) that must not reach a terminal
 * as it is: its length, 0 when there is none.  A control character
 * (a byte below 0x20, DEL, a C1 control U+0080..U+009F) or an
 * invisible one (above).
 */
static size_t unsafe_at(const char *s, size_t left)
{
	unsigned char c = (unsigned char)s[0];
	unsigned cp;
	size_t n;

	if (c < 0x20 || c == 0x7f)
		return 1;
	if (c < 0x80)
		return 0;
	n = utf8_char(s, left, &cp);
	return n && (cp < 0xa0 ||
		     code_in_ranges(cp, invisible,
				    sizeof(invisible) / sizeof(*invisible))) ? n : 0;
}

/* How quote() quotes. */
enum {
	QUOTE_HIGH = 1 << 0,		/* every byte >= 0x80 too */
	QUOTE_SPECIAL = 1 << 1,		/* '"' and '\\' make quotes, as in a path */
	QUOTE_TAB_SPACE = 1 << 2,	/* a TAB is a space, and makes none */
	QUOTE_ALWAYS = 1 << 3,
	QUOTE_AS_GIT = 1 << 4		/* what git's quote_c_style() escapes, no more */
};

/* What must be escaped at s (left > 0 bytes): its length, or 0. */
static size_t escaped_at(const char *s, size_t left, unsigned flags)
{
	unsigned char c = (unsigned char)s[0];

	if (c == '\t' && (flags & QUOTE_TAB_SPACE))
		return 0;
	if ((flags & QUOTE_HIGH) && c >= 0x80)
		return 1;
	if (flags & QUOTE_AS_GIT)
		return c < 0x20 || c == 0x7f;
	return unsafe_at(s, left);
}

static int needs_quotes(const char *s, size_t len, unsigned flags)
{
	size_t i;

	if (flags & QUOTE_ALWAYS)
		return 1;
	for (i = 0; i < len; i++)
		if (escaped_at(s + i, len - i, flags) ||
		    ((flags & QUOTE_SPECIAL) && (s[i] == '"' || s[i] == '\\')))
			return 1;
	return 0;
}

/*
 * s as it is (a TAB a space with QUOTE_TAB_SPACE) or, when it needs
 * quotes, between double quotes with C escapes: \a \b \t \n \v \f \r,
 * \" and \\, and three octal digits for each byte of any other
 * character escaped_at() finds.
 */
static void quote(struct strbuf *sb, const char *s, size_t len,
		  unsigned flags)
{
	static const char esc[] = "\a\b\t\n\v\f\r";
	static const char name[] = "abtnvfr";
	int quoted = needs_quotes(s, len, flags);
	size_t i, n, k;

	if (quoted)
		strbuf_addch(sb, '"');
	for (i = 0; i < len; i += n) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c ? strchr(esc, c) : NULL;

		n = quoted ? escaped_at(s + i, len - i, flags) : 0;
		if (c == '\t' && (flags & QUOTE_TAB_SPACE)) {
			strbuf_addch(sb, ' ');
			n = 1;
		} else if (quoted && (c == '"' || c == '\\')) {
			strbuf_addf(sb, "\\%c", c);
			n = 1;
		} else if (!n) {
			strbuf_addch(sb, c);
			n = 1;
		} else if (e) {
			strbuf_addf(sb, "\\%c", name[e - esc]);
		} else {
			for (k = 0; k < n; k++)
				strbuf_addf(sb, "\\%03o", (unsigned char)s[i + k]);
		}
	}
	if (quoted)
		strbuf_addch(sb, '"');
}

void quote_c_always(struct strbuf *sb, const char *s, size_t len,
		    int quote_high)
{
	quote(sb, s, len, QUOTE_ALWAYS | QUOTE_SPECIAL |
	      (quote_high ? QUOTE_HIGH : 0));
}

void quote_c_style(struct strbuf *sb, const char *s, size_t len,
		   int quote_high)
{
	quote(sb, s, len, QUOTE_SPECIAL | (quote_high ? QUOTE_HIGH : 0));
}

void quote_c_as_git(struct strbuf *sb, const char *s, size_t len,
		    int quote_high)
{
	quote(sb, s, len, QUOTE_AS_GIT | QUOTE_SPECIAL |
	      (quote_high ? QUOTE_HIGH : 0));
}

int quote_c_as_git_needed(const char *s, size_t len, int quote_high)
{
	return needs_quotes(s, len, QUOTE_AS_GIT | QUOTE_SPECIAL |
			    (quote_high ? QUOTE_HIGH : 0));
}

void quote_shown(struct strbuf *sb, const char *s, size_t len)
{
	quote(sb, s, len, QUOTE_TAB_SPACE);
}

void quote_arg(struct strbuf *sb, const char *s, size_t len)
{
	if (needs_quotes(s, len, 0)) {
		quote(sb, s, len, 0);
		return;
	}
	strbuf_addch(sb, '\'');
	strbuf_add(sb, s, len);
	strbuf_addch(sb, '\'');
}
