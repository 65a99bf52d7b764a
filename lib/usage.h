#ifndef USAGE_H
#define USAGE_H

#include <stddef.h>

/*
 * Messages in git's style: lowercase, no trailing period, on stderr.
 * die() prints "fatal: ..." and exits 128 (atexit cleanups run);
 * error() prints "error: ..." and returns -1; warning() and hint()
 * print "warning: ..." and "hint: ...".  x*alloc() die when memory
 * runs out, so callers never check.
 */

#define NORETURN __attribute__((__noreturn__))
#define PRINTF(f, a) __attribute__((__format__(__printf__, f, a)))

NORETURN PRINTF(1, 2) void die(const char *fmt, ...);
NORETURN PRINTF(1, 2) void die_errno(const char *fmt, ...);
PRINTF(1, 2) int error(const char *fmt, ...);
PRINTF(1, 2) void warning(const char *fmt, ...);
PRINTF(1, 2) void hint(const char *fmt, ...);
PRINTF(1, 2) void note(const char *fmt, ...);

void *xmalloc(size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

#endif
