#ifndef RUN_H
#define RUN_H

#include "strbuf.h"
#include "strvec.h"

/*
 * Running git.  run_git() spawns "git" with the given argv (argv[0] is
 * "git"; no shell is ever involved), standard input from /dev/null and
 * our environment with env's "NAME=value" entries put in place of any
 * variable of the same name.  The child's stdout goes to out and its
 * stderr to err when those are given (both read together with poll(),
 * so that neither pipe can fill up and deadlock the two processes),
 * else straight to ours.
 *
 * It returns the exit status of git, or -N when git was killed by
 * signal N.  When a fatal signal reaches us meanwhile, the child gets
 * the same signal, is waited for, and we die of it (signals.h): the
 * caller never sees an interrupted run.
 */

int run_git(const char **argv, const char **env,
	    struct strbuf *out, struct strbuf *err);

/*
 * Stop because a git command failed: pass on what it said on stderr
 * (err), or say that it failed and how, and exit 128 as git would.
 */
NORETURN void die_with_git(const char *what, int status,
			   const struct strbuf *err);

/* run_git() for a command that must succeed: else die_with_git(). */
void run_git_or_die(const char **argv, const char **env, struct strbuf *out);

/* Describe a status of run_git() for a message: "exit code 3", "signal 9". */
const char *run_describe(int status);

#endif
