// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "usage.h"

static void vreportf(const char *prefix, const char *fmt, va_list ap,
		   const char *suffix)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s%s%s%s\n", prefix, msg, suffix ? ": " : "",
		suffix ? suffix : "");
	fflush(stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreportf("fatal: ", fmt, ap, NULL);
	va_end(ap);
	exit(128);
}

void die_errno(const char *fmt, ...)
{
	const char *reason = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vreportf("fatal: ", fmt, ap, reason);
	va_end(ap);
	exit(128);
}

int die_message(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreportf("fatal: ", fmt, ap, NULL);
	va_end(ap);
	return 128;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreportf("warning: ", fmt, ap, NULL);
	va_end(ap);
}

void hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreportf("hint: ", fmt, ap, NULL);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreportf("note: ", fmt, ap, NULL);
	va_end(ap);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	char prefix[256];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vreportf(prefix, fmt, ap, NULL);
	va_end(ap);
	abort();
}

void *xmalloc(size_t size)
{
	return xrealloc(NULL, size);
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die("out of memory, %zu bytes wanted", size);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

int write_in_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
