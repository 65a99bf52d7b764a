// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "numstat.h"

/* A count up to the next tab: digits, or "-" for binary (-1). */
static const char *parse_count(const char *p, const char *end, long *n)
{
	if (p < end && *p == '-') {
		*n = -1;
		p++;
	} else {
		const char *start = p;

		*n = 0;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (*n > 99999999)
				return NULL;
			*n = *n * 10 + (*p - '0');
		}
		if (p == start)
			return NULL;
	}
	return p < end && *p == '\t' ? p + 1 : NULL;
}

/* The NUL-terminated string at p: its length, or -1 without a NUL. */
static long field(const char *p, const char *end)
{
	const char *nul = memchr(p, '\0', (size_t)(end - p));

	return nul ? (long)(nul - p) : -1;
}

int numstat_parse(const char *buf, size_t len, struct numstat *res,
		  const char **err)
{
	const char *p = buf, *end = buf + len, *dummy;
	size_t alloc = 0;

	if (!err)
		err = &dummy;
	memset(res, 0, sizeof(*res));
	while (p && p < end) {
		struct numstat_file f;
		long n;

		memset(&f, 0, sizeof(f));
		if (!(p = parse_count(p, end, &f.added)) ||
		    !(p = parse_count(p, end, &f.deleted)) ||
		    (f.added < 0) != (f.deleted < 0) ||
		    (n = field(p, end)) < 0) {
			*err = "malformed numstat line";
			goto fail;
		}
		if (!n) {		/* rename or copy: from, then to */
			p++;
			f.from = p;
			if ((n = field(p, end)) <= 0) {
				*err = "malformed rename in numstat";
				goto fail;
			}
			f.from_len = (size_t)n;
			p += n + 1;
			if ((n = field(p, end)) <= 0) {
				*err = "malformed rename in numstat";
				goto fail;
			}
		}
		f.path = p;
		f.path_len = (size_t)n;
		p += n + 1;
		if (grow_array((void **)&res->file, res->nr, &alloc,
			       sizeof(*res->file))) {
			*err = "out of memory";
			goto fail;
		}
		res->file[res->nr++] = f;
	}
	return 0;
fail:
	numstat_release(res);
	return -1;
}

void numstat_release(struct numstat *res)
{
	free(res->file);
	res->file = NULL;
	res->nr = 0;
}
