// SPDX-License-Identifier: GPL-2.0-only
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "quote.h"
#include "relay.h"
#include "run.h"
#include "signals.h"

extern char **environ;

/*
 * environ with env's entries in place of the variables they name; an
 * entry "NAME" without '=' takes NAME away, as in git's run-command.
 */
static void build_env(struct strvec *out, const char **env)
{
	char **e;
	size_t i;

	for (e = environ; *e; e++) {
		const char *eq = strchr(*e, '=');
		size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
		int replaced = 0;

		for (i = 0; env && env[i]; i++)
			if (!strncmp(env[i], *e, n) &&
			    (env[i][n] == '=' || !env[i][n]))
				replaced = 1;
		if (!replaced)
			strvec_push(out, *e);
	}
	for (i = 0; env && env[i]; i++)
		if (strchr(env[i], '='))
			strvec_push(out, env[i]);
}

static void make_pipe(int fd[2])
{
	if (pipe(fd) < 0)
		die_errno("cannot create a pipe");
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(fd[1], F_SETFD, FD_CLOEXEC) < 0)
		die_errno("fcntl");
}

/*
 * in: the file to read stdin from, NULL to inherit ours; watch: the
 * RUN_WATCH_FD to give, or -1
 */
static pid_t spawn(const char **argv, const char **envp, const char *in,
		   int out, int err, int watch)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	pid_t pid;
	int rc;

	posix_spawn_file_actions_init(&fa);
	if (in)
		posix_spawn_file_actions_addopen(&fa, 0, in, O_RDONLY, 0);
	if (out >= 0)
		posix_spawn_file_actions_adddup2(&fa, out, 1);
	if (err >= 0)
		posix_spawn_file_actions_adddup2(&fa, err, 2);
	if (watch >= 0)
		posix_spawn_file_actions_adddup2(&fa, watch, RUN_WATCH_FD);

	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGQUIT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGCHLD);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr,
				 POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

	rc = posix_spawnp(&pid, argv[0], &fa, &attr, (char *const *)argv,
			  (char *const *)envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		errno = rc;
		die_errno("cannot run %s", argv[0]);
	}
	return pid;
}

/* A git started, and what is to be read of it. */
struct running {
	long deadline, idle_ms, idle_until;	/* 0: none; monotonic ms */
	struct running *next;		/* in live, while it runs */
	struct strbuf *sink[2];		/* where its stdout and stderr go */
	size_t max[2];			/* keep only their last bytes (0: all) */
	pid_t pid;
	int watch_fd;			/* its relays' pipe (watch), or -1 */
	int connections, opened;	/* open now; any opened yet */
	int status;
	int exited;
	int fd[2];			/* its stdout and stderr, or -1 */
};

/*
 * Every git of ours that runs, from every caller (run_git_parallel()'s
 * gits and those its callback runs meanwhile): a fatal signal reaches
 * them all.
 */
static struct running *live;

static void forget(struct running *r)
{
	struct running **p;

	r->exited = 1;
	for (p = &live; *p; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			return;
		}
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Keep the last max / 2 bytes of sb, from a line's start, once it
 * holds more than max: what a stranger's server says is bounded.
 */
static void keep_tail(struct strbuf *sb, size_t max)
{
	const char *nl;
	size_t from;

	if (!max || sb->len <= max)
		return;
	from = sb->len - max / 2;
	nl = memchr(sb->buf + from, '\n', sb->len - from);
	from = nl ? (size_t)(nl + 1 - sb->buf) : sb->len;
	memmove(sb->buf, sb->buf + from, sb->len - from);
	strbuf_setlen(sb, sb->len - from);
}

/*
 * Read what is there: 1 when it read something, 0 at end of file (or
 * on an error), -1 when there was nothing to read yet.
 */
static int drain(struct running *r, int s)
{
	struct strbuf *sb = r->sink[s];
	ssize_t n;

	strbuf_grow(sb, 8192);
	n = read(r->fd[s], sb->buf + sb->len, sb->alloc - sb->len - 1);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? -1 : 0;
	if (!n)
		return 0;
	strbuf_setlen(sb, sb->len + (size_t)n);
	keep_tail(sb, r->max[s]);
	if (r->idle_ms && r->watch_fd < 0)
		r->idle_until = now_ms() + r->idle_ms;
	return 1;
}

/*
 * Read what r's relays say (relay.h), drain()'s way: the stall counts
 * from what came while a connection is open, or before the first one,
 * and is off between connections and after them (git then works on
 * what it received).
 */
static int drain_watch(struct running *r)
{
	char buf[512];
	ssize_t n = read(r->watch_fd, buf, sizeof(buf)), i;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? -1 : 0;
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		if (buf[i] == RELAY_OPENED)
			r->connections++, r->opened = 1;
		else if (buf[i] == RELAY_CLOSED && r->connections)
			r->connections--;
	}
	if (r->idle_ms)
		r->idle_until = r->connections || !r->opened ?
			now_ms() + r->idle_ms : 0;
	return 1;
}

static void close_pipes(struct running *r)
{
	int s;

	for (s = 0; s < 2; s++)
		if (r->fd[s] >= 0) {
			close(r->fd[s]);
			r->fd[s] = -1;
		}
	if (r->watch_fd >= 0) {
		close(r->watch_fd);
		r->watch_fd = -1;
	}
}

/*
 * The child has exited, so all it wrote is in the pipes: read that and
 * close them, without waiting for an end of file that a process it left
 * behind (a merge driver's "sleep &", an ssh ControlPersist master, a
 * credential helper's daemon) may hold back for minutes.
 */
static void drain_and_close(struct running *r)
{
	int s;

	for (s = 0; s < 2; s++) {
		int flags;

		if (r->fd[s] < 0)
			continue;
		flags = fcntl(r->fd[s], F_GETFL);
		if (flags < 0 || fcntl(r->fd[s], F_SETFL, flags | O_NONBLOCK) < 0)
			die_errno("fcntl");
		while (drain(r, s) > 0)
			;
	}
	close_pipes(r);
}

/* Kill every git that runs with sig, wait for them, and die of it. */
static NORETURN void die_of_signal(int sig)
{
	struct running *r;

	for (r = live; r; r = r->next)
		kill(r->pid, sig);
	for (r = live; r; r = r->next) {
		close_pipes(r);
		while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	live = NULL;
	signals_die(sig);
}

/* A stream of the child: a pipe to capture, /dev/null, or ours (-1). */
static int child_fd(struct strbuf *sink, unsigned discard, int pipe_fd[2],
		    int *devnull)
{
	if (sink) {
		make_pipe(pipe_fd);
		return pipe_fd[1];
	}
	if (!discard)
		return -1;
	if (*devnull < 0 &&
	    (*devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		die_errno("cannot open /dev/null");
	return *devnull;
}

static void start(struct running *r, struct child_process *cp)
{
	struct strvec argv = STRVEC_INIT, envp = STRVEC_INIT;
	int out_fd[2] = { -1, -1 }, err_fd[2] = { -1, -1 }, devnull = -1;
	int watch_fd[2] = { -1, -1 };

	if (cp->watch) {
		make_pipe(watch_fd);
		/* above RUN_WATCH_FD, which dup2() is then sure to make */
		if (watch_fd[1] <= RUN_WATCH_FD) {
			int high = fcntl(watch_fd[1], F_DUPFD_CLOEXEC,
					 RUN_WATCH_FD + 1);

			if (high < 0)
				die_errno("fcntl");
			close(watch_fd[1]);
			watch_fd[1] = high;
		}
	}
	strvec_push(&argv, "git");
	strvec_pushv(&argv, cp->args.v, cp->args.nr);
	build_env(&envp, cp->env.v);
	r->pid = spawn(argv.v, envp.v, cp->stdin_inherit ? NULL :
		       cp->in ? cp->in : "/dev/null",
		       child_fd(cp->out, cp->no_stdout, out_fd, &devnull),
		       child_fd(cp->err, cp->no_stderr, err_fd, &devnull),
		       watch_fd[1]);

	strvec_clear(&argv);
	strvec_clear(&envp);
	strvec_clear(&cp->args);
	strvec_clear(&cp->env);
	if (devnull >= 0)
		close(devnull);
	if (out_fd[1] >= 0)
		close(out_fd[1]);
	if (err_fd[1] >= 0)
		close(err_fd[1]);
	if (watch_fd[1] >= 0)
		close(watch_fd[1]);
	r->watch_fd = watch_fd[0];
	r->connections = r->opened = 0;
	r->fd[0] = out_fd[0];
	r->fd[1] = err_fd[0];
	r->sink[0] = cp->out;
	r->sink[1] = cp->err;
	r->max[0] = 0;
	r->max[1] = cp->err_max;
	r->deadline = cp->timeout_ms ? now_ms() + cp->timeout_ms : 0;
	r->idle_ms = cp->idle_ms;
	r->idle_until = cp->idle_ms ? now_ms() + cp->idle_ms : 0;
	r->status = 0;
	r->exited = 0;
	r->next = live;
	live = r;
}

/* Has r exited?  Then read and close its pipes, and reap it: 1. */
static int reaped(struct running *r)
{
	siginfo_t info;

	info.si_pid = 0;
	if (waitid(P_PID, (id_t)r->pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
		if (errno == EINTR)
			return 0;
		die_errno("waitid");
	}
	if (!info.si_pid)
		return 0;
	drain_and_close(r);
	while (waitpid(r->pid, &r->status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	forget(r);
	return 1;
}

/*
 * Has a relay of r said something that is not read yet (while we were
 * away, in a caller's callback)?  Then it is read now.
 */
static int watch_pending(struct running *r)
{
	struct pollfd pfd;

	if (r->watch_fd < 0)
		return 0;
	pfd.fd = r->watch_fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLIN))
		return 0;
	if (!drain_watch(r)) {
		close(r->watch_fd);
		r->watch_fd = -1;
	}
	return !r->idle_until || r->idle_until > now_ms();
}

/*
 * A git past its time: killed (SIGTERM: git's own handlers then stop
 * what it started), waited for, and given the status that says why.
 */
static void stop_late(struct running *r, long now)
{
	int why;

	if (r->deadline && now >= r->deadline)
		why = RUN_TIMED_OUT;
	else if (r->idle_until && now >= r->idle_until && !watch_pending(r))
		why = RUN_STALLED;
	else
		return;
	kill(r->pid, SIGTERM);
	close_pipes(r);
	while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
		;
	forget(r);
	r->status = why;
}

/* The milliseconds poll() may wait before one of r's limits: -1, none. */
static int poll_timeout(const struct running *r, size_t nr,
			const char *in_use, long now)
{
	long t = -1;
	size_t i;

	for (i = 0; i < nr; i++) {
		long at[2] = { r[i].deadline, r[i].idle_until };
		int k;

		if ((in_use && !in_use[i]) || r[i].exited)
			continue;
		for (k = 0; k < 2; k++)
			if (at[k] && (t < 0 || at[k] - now < t))
				t = at[k] > now ? at[k] - now : 0;
	}
	return t > 60000 ? 60000 : (int)t;
}

/*
 * Read what they write until they have all exited or been stopped at
 * their limits (any: until one of them has), or a fatal signal came:
 * then every git gets it and we die of it, also when it came as the
 * last of them exited (^C reaches the whole process group).  SIGCHLD
 * wakes the poll through the signals' pipe, so that a child which
 * writes nothing is seen to exit.
 */
static void wait_for(struct running *r, size_t nr, const char *in_use,
		     int any)
{
	struct pollfd *pfd = xmalloc((3 * nr + 1) * sizeof(*pfd));
	size_t *which = xmalloc((3 * nr + 1) * sizeof(*which));
	int sig;

	for (;;) {
		size_t i, n = 0, k, left = 0;
		long now = now_ms();
		size_t ended = 0;
		int s, ready;

		/*
		 * The signals' pipe drained first, the children looked at
		 * after: a SIGCHLD that comes between leaves its byte for
		 * the poll below, which cannot then sleep through it.
		 */
		sig = signals_take();
		for (i = 0; i < nr; i++) {
			if (in_use && !in_use[i])
				continue;
			if (r[i].exited) {
				ended++;
				continue;
			}
			if (!reaped(&r[i]))
				stop_late(&r[i], now);
			left += !r[i].exited;
			ended += r[i].exited;
		}
		if (sig || (sig = signals_pending()))
			die_of_signal(sig);
		if (!left || (any && ended))
			break;

		pfd[n].fd = signals_fd();
		pfd[n].events = POLLIN;
		which[n++] = 0;
		for (i = 0; i < nr; i++)
			for (s = 0; s < 3; s++) {
				int fd = s < 2 ? r[i].fd[s] : r[i].watch_fd;

				if ((!in_use || in_use[i]) && !r[i].exited &&
				    fd >= 0) {
					pfd[n].fd = fd;
					pfd[n].events = POLLIN;
					which[n++] = 3 * i + (size_t)s;
				}
			}
		ready = poll(pfd, n, poll_timeout(r, nr, in_use, now));
		if (ready < 0 && errno != EINTR)
			die_errno("poll");
		for (k = 1; ready > 0 && k < n; k++) {
			struct running *c = &r[which[k] / 3];

			s = (int)(which[k] % 3);
			if (!pfd[k].revents)
				continue;
			if (s == 2 && !drain_watch(c)) {
				close(c->watch_fd);
				c->watch_fd = -1;
			} else if (s < 2 && !drain(c, s)) {
				close(c->fd[s]);
				c->fd[s] = -1;
			}
		}
	}
	free(pfd);
	free(which);
}

/* run_git()'s return of a child that has exited */
static int status_of(const struct running *r)
{
	if (r->status == RUN_TIMED_OUT || r->status == RUN_STALLED)
		return r->status;
	if (WIFSIGNALED(r->status))
		return -WTERMSIG(r->status);
	return WEXITSTATUS(r->status);
}

/* At most this many gits at a time: a history may have many merge bases. */
#define MAX_RUNNING 8

void run_git_all(struct child_process **cps, int *rcs, size_t nr)
{
	struct running r[MAX_RUNNING];
	size_t i, at, n;

	for (at = 0; at < nr; at += n) {
		n = nr - at < MAX_RUNNING ? nr - at : MAX_RUNNING;
		for (i = 0; i < n; i++)
			start(&r[i], cps[at + i]);
		wait_for(r, n, NULL, 0);
		for (i = 0; i < n; i++)
			rcs[at + i] = status_of(&r[i]);
	}
}

void run_git_parallel(size_t jobs,
		      int (*next)(struct child_process *cp, void *data),
		      void (*done)(size_t task, int rc, void *data), void *data)
{
	struct running *r = xmalloc(jobs * sizeof(*r));
	size_t *task = xmalloc(jobs * sizeof(*task));
	char *busy = xmalloc(jobs);	/* started, done() not yet called */
	size_t i, started = 0, nr_busy = 0;

	memset(busy, 0, jobs);
	for (;;) {
		for (i = 0; i < jobs; i++) {
			struct child_process cp = CHILD_PROCESS_INIT;

			if (busy[i])
				continue;
			if (!next(&cp, data))
				break;
			start(&r[i], &cp);
			task[i] = started++;
			busy[i] = 1;
			nr_busy++;
		}
		if (!nr_busy)
			break;
		wait_for(r, jobs, busy, 1);
		for (i = 0; i < jobs; i++)
			if (busy[i] && r[i].exited) {
				busy[i] = 0;
				nr_busy--;
				done(task[i], status_of(&r[i]), data);
			}
	}
	free(r);
	free(task);
	free(busy);
}

int run_git(struct child_process *cp)
{
	int rc;

	run_git_all(&cp, &rc, 1);
	return rc;
}

/* A line of git's stderr that is only its progress (git fetch --progress). */
static int is_progress(const char *s, size_t len)
{
	static const char done[] = ", done.";

	if (len >= 8 && !memcmp(s, "remote: ", 8)) {
		s += 8;
		len -= 8;
	}
	return (len >= sizeof(done) - 1 &&
		!memcmp(s + len - (sizeof(done) - 1), done, sizeof(done) - 1)) ||
	       (len >= 6 && !memcmp(s, "Total ", 6));
}

/* The length of the "fatal: " or "error: " s starts with, else 0. */
static size_t error_prefix(const char *s, size_t len)
{
	return len >= 7 && (!memcmp(s, "fatal: ", 7) ||
			    !memcmp(s, "error: ", 7)) ? 7 : 0;
}

/* Does the line s start a message of its own ("remote: ...")? */
static int starts_message(const char *s, size_t len)
{
	static const char *const prefixes[] = {
		"fatal: ", "error: ", "warning: ", "hint: ", "remote: "
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
		if (len >= strlen(prefixes[i]) &&
		    !memcmp(s, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

void run_said(struct strbuf *out, const struct strbuf *err)
{
	const char *p = err ? err->buf : "", *end = p + (err ? err->len : 0);
	int in_error = 0;		/* in the first error's lines */

	while (p < end) {
		const char *eol = p;
		size_t len, skip;

		while (eol < end && *eol != '\n' && *eol != '\r')
			eol++;
		len = (size_t)(eol - p);
		skip = error_prefix(p, len);
		if ((eol < end && *eol == '\r') || !len || is_progress(p, len)) {
			;			/* progress, updated or done */
		} else if (in_error && starts_message(p, len)) {
			break;			/* what follows from the error */
		} else {
			if (out->len)
				strbuf_addstr(out, in_error ? " " : "; ");
			quote_shown(out, p + skip, len - skip);
			in_error |= skip != 0;
		}
		p = eol + 1;
	}
}

/* Pass on what git said, in one line, and stop as it would. */
void die_with_git(const char *what, int status, const struct strbuf *err)
{
	struct strbuf said = STRBUF_INIT;

	run_said(&said, err);
	if (said.len)
		die("%s", said.buf);
	die("%s failed (%s)", what, run_describe(status));
}

int run_reason(struct strbuf *why, const char *what, int status,
	       const struct strbuf *err)
{
	struct strbuf said = STRBUF_INIT;

	run_said(&said, err);
	if (said.len)
		strbuf_addf(why, "%s: %s", what, said.buf);
	else
		strbuf_addf(why, "%s failed (%s)", what, run_describe(status));
	strbuf_release(&said);
	return -1;
}

/* "git <subcommand>" of args, past git's own options, for a message */
static void name_of(struct strvec *what, const struct strvec *args)
{
	size_t i = 0;

	while (i < args->nr && args->v[i][0] == '-')
		i += strcmp(args->v[i], "-c") ? 1 : 2;
	strvec_pushf(what, "git %s", i < args->nr ? args->v[i] : "");
}

void run_git_all_or_die(struct child_process **cps, size_t nr)
{
	struct strbuf *own = xmalloc(nr * sizeof(*own));
	struct strvec what = STRVEC_INIT;
	unsigned char *borrowed = xmalloc(nr);
	int *rcs = xmalloc(nr * sizeof(*rcs));
	size_t i;

	for (i = 0; i < nr; i++) {
		strbuf_init(&own[i]);
		name_of(&what, &cps[i]->args);
		borrowed[i] = !cps[i]->err;
		if (borrowed[i])
			cps[i]->err = &own[i];
	}
	run_git_all(cps, rcs, nr);
	for (i = 0; i < nr; i++) {
		if (rcs[i])
			die_with_git(what.v[i], rcs[i], cps[i]->err);
		if (borrowed[i])
			cps[i]->err = NULL;
		strbuf_release(&own[i]);
	}
	strvec_clear(&what);
	free(own);
	free(borrowed);
	free(rcs);
}

void run_git_or_die(struct child_process *cp)
{
	run_git_all_or_die(&cp, 1);
}

const char *run_describe(int status)
{
	static char buf[64];

	if (status == RUN_TIMED_OUT)
		return "timed out";
	if (status == RUN_STALLED)
		return "stalled";
	if (status < 0)
		snprintf(buf, sizeof(buf), "signal %d", -status);
	else
		snprintf(buf, sizeof(buf), "exit code %d", status);
	return buf;
}
