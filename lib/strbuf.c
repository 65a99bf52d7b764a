// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want;

	if (extra >= (size_t)-1 - sb->len - 1)
		die("strbuf too large");
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	if (want < sb->alloc * 2)
		want = sb->alloc * 2;
	if (want < 64)
		want = 64;
	if (!sb->alloc)
		sb->buf = NULL;
	sb->buf = xrealloc(sb->buf, want);
	sb->alloc = want;
	sb->buf[sb->len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)		/* data may be NULL: an empty str */
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	strbuf_add(sb, &ch, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("vsnprintf failed");
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	strbuf_setlen(sb, sb->len + (size_t)n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc && !len)
		return;
	if (len >= sb->alloc)
		BUG("strbuf_setlen beyond the allocation");
	sb->len = len;
	sb->buf[len] = '\0';
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *buf;

	strbuf_grow(sb, 0);
	buf = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return buf;
}

void strbuf_trim_newlines(struct strbuf *sb)
{
	size_t len = sb->len;

	while (len && (sb->buf[len - 1] == '\n' || sb->buf[len - 1] == '\r'))
		len--;
	strbuf_setlen(sb, len);
}
