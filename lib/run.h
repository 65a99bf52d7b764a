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
 * our variables of the same name in git's environment.  Standard input
 * is /dev/null, or the file named by in, or with stdin_inherit ours (as
 * git's run-command has .no_stdin, the other way round: a git that reads
 * the user's terminal, where ^C reaches it and us alike).  Each of stdout and stderr is captured into a strbuf
 * (out, err), thrown away (no_stdout, no_stderr), or else ours.  The
 * captured streams are read together with poll(), so that neither pipe
 * can fill up and deadlock the two processes.
 */
struct child_process {
	struct strvec args;
	struct strvec env;
	struct strbuf *out;
	struct strbuf *err;
	unsigned no_stdout : 1;
	unsigned no_stderr : 1;
	unsigned stdin_inherit : 1;
	const char *in;
};

#define CHILD_PROCESS_INIT { STRVEC_INIT, STRVEC_INIT, NULL, NULL, 0, 0, 0, NULL }

/*
 * Run git and wait for it.  Returns its exit status, or -N when it was
 * killed by signal N, and clears args and env, so that cp is ready for
 * the next command.  When a fatal signal reaches us meanwhile, git gets
 * the same signal, is waited for, and we die of it (signals.h): the
 * caller never sees an interrupted run.
 */
int run_git(struct child_process *cp);

/*
 * Run the nr gits of cps at the same time and wait for them all: what
 * nr calls of run_git() would do one after the other, rcs[i] being the
 * status of cps[i], but in the time of the slowest (8 at a time at
 * most).  For commands that need nothing of each other, and a machine
 * with cores to spare.  A fatal signal reaches them all.
 */
void run_git_all(struct child_process **cps, int *rcs, size_t nr);

/* run_git_all() for commands that must all succeed: see run_git_or_die(). */
void run_git_all_or_die(struct child_process **cps, size_t nr);

/*
 * A git whose result may not be needed, started now to use a core that
 * would wait: run_git_start() starts cp, run_git_finish() waits for it
 * and returns what run_git() would have, run_git_abandon() kills it
 * (SIGTERM) and forgets it.  Its output is read only by
 * run_git_finish(): one that fills a pipe waits until then.  A fatal
 * signal, or exit() and so die(), kills it too.
 */
struct run_async;
struct run_async *run_git_start(struct child_process *cp);
int run_git_finish(struct run_async *a);
void run_git_abandon(struct run_async *a);

/*
 * Has a exited?  Wait up to timeout milliseconds (0: not at all) for
 * it to: 1 when it has, and run_git_finish() then returns at once.
 */
int run_git_wait(struct run_async *a, int timeout);

/*
 * Work of ours whose result may not be needed, beside a git that
 * runs: fork, and have the child call fn(data) and exit 0 (or 128
 * when its stdout cannot be written), its stdout going to out and its
 * stderr to err, as a git's would.  It is then finished or abandoned
 * as run_git_start()'s gits are; it kills no git of ours at its exit,
 * only its own, and removes nothing that is ours (quarantine.h).
 */
struct run_async *run_fork(void (*fn)(void *), void *data,
			   struct strbuf *out, struct strbuf *err);

/*
 * run_git() for a command that must succeed: else die_with_git(), with
 * what git said on cp->err or, when that is NULL, on a buffer of our own.
 */
void run_git_or_die(struct child_process *cp);

/*
 * Stop because a git command (what, "git merge-tree") failed: pass on
 * what it said on stderr (err), or say that it failed and how, and exit
 * 128 as git would.
 */
NORETURN void die_with_git(const char *what, int status,
			   const struct strbuf *err);

/* Describe a status of run_git() for a message: "exit code 3", "signal 9". */
const char *run_describe(int status);

#endif
