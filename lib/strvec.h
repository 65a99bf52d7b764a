/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STRVEC_H
#define STRVEC_H

#include <stddef.h>

#include "usage.h"

/*
 * A NULL-terminated array of owned strings, grown as strings are
 * pushed: the argv and envp handed to a child process.
 */
struct strvec {
	const char **v;
	size_t nr;
	size_t alloc;
};

#define STRVEC_INIT { NULL, 0, 0 }

void strvec_push(struct strvec *sv, const char *s);
PRINTF(2, 3) void strvec_pushf(struct strvec *sv, const char *fmt, ...);
/* Push each of the arguments up to a NULL, as git's strvec_pushl(). */
__attribute__((__sentinel__)) void strvec_pushl(struct strvec *sv, ...);
void strvec_pushv(struct strvec *sv, const char *const *v, size_t nr);
void strvec_clear(struct strvec *sv);

#endif
