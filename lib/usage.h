/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef USAGE_H
#define USAGE_H

#include <stddef.h>

#include "grow.h"

/*
 * Messages in git's style: lowercase, no trailing period, on stderr.
 *
 *	die()		"fatal: ..." and exit 128 (the cleanups of
 *			at_cleanup() run, as at any exit)
 *	die_errno()	the same, with ": <strerror(errno)>" after it
 *	die_message()	"fatal: ..." and return 128, for a caller that
 *			has a hint to add before it exits with that code
 *	warning(), hint(), note()
 *			"warning: ...", "hint: ...", "note: ..."
 *	BUG()		a programming error, never a user's: "BUG: file:line:
 *			...", then abort()
 *
 * xmalloc(), xrealloc(), xstrdup() and ALLOC_GROW() die when memory runs
 * out, so that callers never check.
 */

#define NORETURN __attribute__((__noreturn__))
#define PRINTF(f, a) __attribute__((__format__(__printf__, f, a)))

NORETURN PRINTF(1, 2) void die(const char *fmt, ...);
NORETURN PRINTF(1, 2) void die_errno(const char *fmt, ...);
PRINTF(1, 2) int die_message(const char *fmt, ...);
PRINTF(1, 2) void warning(const char *fmt, ...);
PRINTF(1, 2) void hint(const char *fmt, ...);
PRINTF(1, 2) void note(const char *fmt, ...);

#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
NORETURN PRINTF(3, 4) void bug_fl(const char *file, int line,
				  const char *fmt, ...);

void *xmalloc(size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

/* All of buf written to fd, through EINTR: 0, or -1 with errno set. */
int write_in_full(int fd, const void *buf, size_t len);

/* grow_array() (grow.h) for code that may die. */
#define ALLOC_GROW(arr, nr, alloc)                                          \
	do {                                                                \
		if (grow_array((void **)&(arr), (nr), &(alloc),             \
			       sizeof(*(arr))))                             \
			die("out of memory");                               \
	} while (0)

#endif
