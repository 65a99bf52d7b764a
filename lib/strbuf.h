/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STRBUF_H
#define STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "usage.h"

/*
 * A growable buffer of bytes, always NUL-terminated (buf[len] == '\0')
 * so that it can be used as a C string when it holds no NUL itself.
 * STRBUF_INIT or strbuf_init() before use, strbuf_release() after.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
PRINTF(2, 0) void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
PRINTF(2, 3) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)
/*
 * The buffer, NUL-terminated and malloc()ed, handed to the caller to
 * free(); its length in *len when len is not NULL.  sb is then empty.
 */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Drop trailing newlines (and a trailing CR before them). */
void strbuf_trim_newlines(struct strbuf *sb);

#endif
