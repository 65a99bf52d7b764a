/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RUN_H
#define RUN_H

#include "strbuf.h"
#include "strvec.h"

/*
 * Running git, as git's run-command.h runs its children: a command is
 * data, started by one call.
 *
 *	struct child_process cp = CHILD_PROCESS_INIT;
 *
 *	strvec_pushl(&cp.args, "merge-base", "--all", a, b, NULL);
 *	cp.out = &out;
 *	rc = run_git(&cp);
 *
 * args are git's arguments: "git" itself is implied, and no shell is
 * ever involved.  env holds "NAME=value" entries that take the place of
 * our variables of the same name in git's environment, and "NAME"
 * entries that take ours away.  Standard input is /dev/null, or the
 * file named by in, or with stdin_inherit ours (a git that reads the
 * user's terminal, where ^C reaches it and us alike).  Each of stdout
 * and stderr is captured into a strbuf
 * (out, err), thrown away (no_stdout, no_stderr), or else ours.  The
 * captured streams are read together with poll(), so that neither pipe
 * can fill up and deadlock the two processes.
 */
struct child_process {
	struct strvec args;
	struct strvec env;
	struct strbuf *out;
	struct strbuf *err;
	size_t err_max;			/* keep only stderr's last bytes, about
					   this many (0: all of it) */
	int timeout_ms;			/* stop git after this long (0: never) */
	int idle_ms;			/* stop it when it writes nothing for
					   this long (0: never) */
	unsigned watch : 1;		/* git has as fd RUN_WATCH_FD a pipe
					   its relays (relay.h) say on what
					   they receive: idle_ms is then the
					   time nothing came while a
					   connection was open, or before the
					   first, not what git writes */
	unsigned no_stdout : 1;
	unsigned no_stderr : 1;
	unsigned stdin_inherit : 1;	/* our stdin, not /dev/null */
	const char *in;			/* or this file's */
};

#define CHILD_PROCESS_INIT \
	{ STRVEC_INIT, STRVEC_INIT, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, NULL }

/* The file descriptor of a watched git's relays (child_process.watch). */
#define RUN_WATCH_FD 3

/*
 * What run_git() returns for a git stopped at its limits (timeout_ms,
 * idle_ms): it was killed with SIGTERM and waited for.
 */
#define RUN_TIMED_OUT (-1000)
#define RUN_STALLED (-1001)

/*
 * Run git and wait for it.  Returns its exit status, -N when it was
 * killed by signal N, or RUN_TIMED_OUT or RUN_STALLED, and clears args
 * and env, so that cp is ready for the next command.  When a fatal
 * signal reaches us meanwhile (also as git exits: ^C reaches the whole
 * process group), git gets the same signal, is waited for, and we die
 * of it (signals.h): the caller never sees an interrupted run.
 */
int run_git(struct child_process *cp);

/*
 * Run the nr gits of cps at the same time and wait for them all: what
 * nr calls of run_git() would do one after the other, rcs[i] being the
 * status of cps[i], but in the time of the slowest (8 at a time at
 * most).  For commands that need nothing of each other and whose every
 * result is used.  A fatal signal reaches them all.
 *
 * This is how gits of several modules run side by side: a module whose
 * git may run beside others gives it in two steps, a *_cmd() that
 * prepares cp and a *_result() or *_parse() that reads what it said
 * (fetch.h, resolve.h, merge.h); the caller lists the commands and
 * runs them here, rather than handing a module gits not its own.
 */
void run_git_all(struct child_process **cps, int *rcs, size_t nr);

/*
 * Run gits as git's run_processes_parallel() does, at most jobs at a
 * time: next() prepares cp for the next one and returns 1, or 0 when
 * there is none for now (it is asked again as each git ends: the run
 * ends when it has none and no git runs, so that the caller can keep a
 * window of work in flight); done() gets the status of each as it ends (task: its
 * number, 0, 1, ... in the order next() gave them), in the order they
 * end, and may itself run gits (run_git()) while the others go on.
 * Every git is waited for; a fatal signal reaches every git that runs.
 */
void run_git_parallel(size_t jobs,
		      int (*next)(struct child_process *cp, void *data),
		      void (*done)(size_t task, int rc, void *data), void *data);

/* run_git_all() for commands that must all succeed: see run_git_or_die(). */
void run_git_all_or_die(struct child_process **cps, size_t nr);

/*
 * run_git() for a command that must succeed: else die_with_git(), with
 * what git said on cp->err or, when that is NULL, on a buffer of our own.
 */
void run_git_or_die(struct child_process *cp);

/*
 * What git said on stderr (err, may be NULL), in one line added to out,
 * each line escaped (quote_shown()): its progress and empty lines left
 * out, its first message of "fatal: " or "error: " less that word, with
 * the lines that go on from it joined by spaces ("unable to connect to
 * host:" and the reason on the next line), after the lines said before
 * it, each joined by "; " (an ssh's own, the server's "remote: ").  The
 * messages after that first error, which say that it failed, are left
 * out.  Nothing is added when git said nothing.
 */
void run_said(struct strbuf *out, const struct strbuf *err);

/*
 * Stop because a git command (what, "git merge-tree") failed: say what
 * it said on stderr (err) in one line (run_said()), or that it failed
 * and how, and exit 128 as git would.
 */
NORETURN void die_with_git(const char *what, int status,
			   const struct strbuf *err);

/*
 * Why a git (what, "git merge-tree") failed, in one line into why: what
 * it said (err, may be NULL; run_said()) after "<what>: ", or how it
 * failed.  Returns -1, for a caller's return.
 */
int run_reason(struct strbuf *why, const char *what, int status,
	       const struct strbuf *err);

/* Describe a status of run_git() for a message: "exit code 3", "signal 9". */
const char *run_describe(int status);

#endif
