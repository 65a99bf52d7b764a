/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stddef.h>

/*
 * Progress on stderr, as git's long commands show it (git's progress.h):
 *
 *	struct progress *p = start_progress("Verifying pull requests");
 *	display_progress(p, done, fetching);	as work ends
 *	progress_clear(p);			before writing to stdout
 *	stop_progress(&p);			", done." and a newline
 *
 * start_progress() returns NULL, and every other call does nothing with
 * it, unless progress is wanted: the --progress, --no-progress and -q
 * of git (progress_wanted()), or by default when stderr is a terminal.
 * The line is rewritten in place ("\r"), and cleared before the caller
 * writes to stdout, which may be the same terminal.
 */

struct progress;

/* want: 1 --progress, 0 --no-progress or -q, -1 neither (a terminal?) */
void progress_wanted(int want);

struct progress *start_progress(const char *title);
void display_progress(struct progress *p, size_t done, size_t fetching);
void progress_clear(struct progress *p);
void stop_progress(struct progress **p);

#endif
