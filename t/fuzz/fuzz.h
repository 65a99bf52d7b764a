/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the libFuzzer targets here share: an exact-size copy of the
 * input, and a read of every byte of a string the parser returned.
 *
 * The copy is exactly the input's size because the parsers must not
 * assume a terminating NUL, and an exact-size heap block makes a
 * one-past-the-end read an overflow ASan reports.  Reading every byte
 * of a result makes ASan catch a string that points at freed or foreign
 * memory; fuzz_read_in() also aborts when the string is not inside the
 * input, for the parsers whose results point into it.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned char fuzz_sink;

/* A malloc'd copy of the input, exactly its size; NULL if out of memory */
static inline char *fuzz_copy(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);

	if (buf && size)
		memcpy(buf, data, size);
	return buf;
}

static inline void fuzz_read(const char *s, size_t len)
{
	size_t i;

	if (len && !s)
		abort();
	for (i = 0; i < len; i++)
		fuzz_sink ^= (unsigned char)s[i];
}

/* fuzz_read(), when s lies inside [buf, buf + size), else abort(). */
static inline void fuzz_read_in(const char *s, size_t len, const char *buf,
				size_t size)
{
	if (len && (!s || s < buf || len > size ||
		    (size_t)(s - buf) > size - len))
		abort();
	fuzz_read(s, len);
}

#endif
