/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SIGNALS_H
#define SIGNALS_H

#include <sys/types.h>

#include "usage.h"

/*
 * Deaths by signal, handled in one place.  signals_init() catches
 * SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE and SIGCHLD with a handler
 * that only notes the signal and writes a byte to a self-pipe; whoever waits
 * (run.c) polls signals_fd() beside its children's pipes, so nothing is
 * done inside a handler.  signals_take() drains the pipe and returns
 * the fatal signal that arrived, or 0 (SIGCHLD alone is not fatal);
 * signals_pending() the same without draining the pipe.
 * signals_die() runs the cleanups registered with at_cleanup() and then
 * dies of that same signal, so the caller's shell sees the usual status.
 * Cleanups registered with at_cleanup() also run at exit(), thus at die().
 * A fatal signal that came and was not yet acted on wins over any exit:
 * at exit() the process dies of it all the same (^C while a git was
 * ending is ^C, not that git's failure).
 */

void signals_init(void);
int signals_fd(void);
int signals_take(void);
int signals_pending(void);
NORETURN void signals_die(int sig);
/*
 * read(2) of fd that a fatal signal interrupts: the process dies of it
 * (SA_RESTART would have the read go on, and ^C wait for the input's
 * end).  Returns what read() returns; EINTR is retried.
 */
ssize_t signals_read(int fd, void *buf, size_t len);
void at_cleanup(void (*fn)(void));

/*
 * Exit with status once standard output is written out, as git does
 * after every command: when a write failed, say "fatal: write failure
 * on standard output: <reason>" and exit 128 instead, or die of SIGPIPE
 * when the reader went away.  Every way out after something was
 * printed on stdout goes through here.
 */
NORETURN void exit_flushing_stdout(int status);

/*
 * Write out what is buffered for standard output now (a report that is
 * ready), or stop as exit_flushing_stdout() would on a failure.
 */
void flush_stdout(void);

#endif
