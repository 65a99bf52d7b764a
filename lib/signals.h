#ifndef SIGNALS_H
#define SIGNALS_H

#include "usage.h"

/*
 * Deaths by signal, handled in one place.  signals_init() catches
 * SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE and SIGCHLD with a handler
 * that only notes the signal and writes a byte to a self-pipe; whoever waits
 * (run.c) polls signals_fd() beside its children's pipes, so nothing is
 * done inside a handler.  signals_take() drains the pipe and returns
 * the fatal signal that arrived, or 0 (SIGCHLD alone is not fatal).
 * signals_die() runs the cleanups registered with at_cleanup() and then
 * dies of that same signal, so the caller's shell sees the usual status.
 * Cleanups registered with at_cleanup() also run at exit(), thus at die().
 * A child of fork() calls signals_forked(): a self-pipe of its own, so
 * that neither process takes the other's wake-ups.
 */

void signals_init(void);
void signals_forked(void);
int signals_fd(void);
int signals_take(void);
NORETURN void signals_die(int sig);
void at_cleanup(void (*fn)(void));

#endif
