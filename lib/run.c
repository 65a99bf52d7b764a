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
#include <unistd.h>

#include "run.h"
#include "signals.h"

extern char **environ;

/* environ with env's entries in place of the variables they name. */
static void build_env(struct strvec *out, const char **env)
{
	char **e;
	size_t i;

	for (e = environ; *e; e++) {
		const char *eq = strchr(*e, '=');
		size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
		int replaced = 0;

		for (i = 0; env && env[i]; i++)
			if (!strncmp(env[i], *e, n) && env[i][n] == '=')
				replaced = 1;
		if (!replaced)
			strvec_push(out, *e);
	}
	for (i = 0; env && env[i]; i++)
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

/* in: the file to read stdin from, NULL to inherit ours */
static pid_t spawn(const char **argv, const char **envp, const char *in,
		   int out, int err)
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

/*
 * Read what is there: 1 when it read something, 0 at end of file (or
 * on an error), -1 when there was nothing to read yet.
 */
static int drain(int fd, struct strbuf *sb)
{
	ssize_t n;

	strbuf_grow(sb, 65536);
	n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? -1 : 0;
	if (!n)
		return 0;
	strbuf_setlen(sb, sb->len + (size_t)n);
	return 1;
}

/*
 * The child has exited, so all it wrote is in the pipe: read that and
 * close it, without waiting for an end of file that a process it left
 * behind (a merge driver's "sleep &", an ssh ControlPersist master, a
 * credential helper's daemon) may hold back for minutes.
 */
static void drain_and_close(int fd, struct strbuf *sb)
{
	int flags = fcntl(fd, F_GETFL), rc;

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		die_errno("fcntl");
	while ((rc = drain(fd, sb)) > 0 || (rc < 0 && errno == EINTR))
		;
	close(fd);
}

/* A git started, and what is to be read of it. */
struct running {
	pid_t pid;
	int fd[2];			/* its stdout and stderr, or -1 */
	struct strbuf *sink[2];		/* where they go */
	int status;
	int exited;
	struct running *next;		/* in started, for run_git_start() */
};

/* The gits of run_git_start() not yet finished or abandoned. */
static struct running *started;

static void reap(struct running *r, int sig)
{
	kill(r->pid, sig);
	while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
		;
	r->exited = 1;
}

/* At exit, and so at die(): no git of ours outlives us. */
static void reap_started(void)
{
	for (; started; started = started->next)
		reap(started, SIGTERM);
}

/* Kill them all with sig, wait for them, and die of it. */
static NORETURN void die_of_signal(struct running *r, size_t nr, int sig)
{
	size_t i;

	for (; started; started = started->next)
		reap(started, sig);
	for (i = 0; i < nr; i++)
		if (!r[i].exited)
			kill(r[i].pid, sig);
	for (i = 0; i < nr; i++)
		while (!r[i].exited && waitpid(r[i].pid, NULL, 0) < 0 &&
		       errno == EINTR)
			;
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

/* Start cp, with git's stderr captured into err when that is not NULL. */
static void start(struct running *r, struct child_process *cp,
		  struct strbuf *err)
{
	struct strvec argv = STRVEC_INIT, envp = STRVEC_INIT;
	int out_fd[2] = { -1, -1 }, err_fd[2] = { -1, -1 }, devnull = -1;

	strvec_push(&argv, "git");
	strvec_pushv(&argv, cp->args.v, cp->args.nr);
	build_env(&envp, cp->env.v);
	r->pid = spawn(argv.v, envp.v, cp->stdin_inherit ? NULL :
		       cp->in ? cp->in : "/dev/null",
		       child_fd(cp->out, cp->no_stdout, out_fd, &devnull),
		       child_fd(err, cp->no_stderr, err_fd, &devnull));

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
	r->fd[0] = out_fd[0];
	r->fd[1] = err_fd[0];
	r->sink[0] = cp->out;
	r->sink[1] = err;
	r->status = 0;
	r->exited = 0;
}

/*
 * Read what they write until they have all exited: 1; or, when timeout
 * (milliseconds) is not negative, until that long has passed without
 * any news: 0.  SIGCHLD wakes the poll through the signals' pipe, so
 * that a child which writes nothing is seen to exit too.
 */
static int wait_all(struct running *r, size_t nr, int timeout)
{
	struct pollfd *pfd = xmalloc((2 * nr + 1) * sizeof(*pfd));
	size_t *which = xmalloc((2 * nr + 1) * sizeof(*which));
	int all = 1;

	for (;;) {
		size_t i, n = 0, k, left = 0;
		int sig, s, ready;

		for (i = 0; i < nr; i++) {
			pid_t w;

			if (r[i].exited)
				continue;
			w = waitpid(r[i].pid, &r[i].status, WNOHANG);
			if (w < 0 && errno != EINTR)
				die_errno("waitpid");
			if (w != r[i].pid) {
				left++;
				continue;
			}
			r[i].exited = 1;
			for (s = 0; s < 2; s++)
				if (r[i].fd[s] >= 0)
					drain_and_close(r[i].fd[s], r[i].sink[s]);
		}
		if (!left)
			break;

		pfd[n].fd = signals_fd();
		pfd[n].events = POLLIN;
		which[n++] = 0;
		for (i = 0; i < nr; i++)
			for (s = 0; s < 2; s++)
				if (!r[i].exited && r[i].fd[s] >= 0) {
					pfd[n].fd = r[i].fd[s];
					pfd[n].events = POLLIN;
					which[n++] = 2 * i + (size_t)s;
				}
		ready = poll(pfd, n, timeout);
		if (ready < 0) {
			if (errno != EINTR)
				die_errno("poll");
			continue;
		}
		if ((sig = signals_take()))
			die_of_signal(r, nr, sig);
		if (!ready) {
			all = 0;
			break;
		}
		for (k = 1; k < n; k++) {
			struct running *c = &r[which[k] / 2];

			s = (int)(which[k] % 2);
			if (pfd[k].revents && !drain(c->fd[s], c->sink[s])) {
				close(c->fd[s]);
				c->fd[s] = -1;
			}
		}
	}
	free(pfd);
	free(which);
	return all;
}

/* run_git()'s return of a child that has exited */
static int status_of(const struct running *r)
{
	if (WIFSIGNALED(r->status))
		return -WTERMSIG(r->status);
	return WEXITSTATUS(r->status);
}

/* run_git(), with git's stderr captured into err when that is not NULL */
static int run(struct child_process *cp, struct strbuf *err)
{
	struct running r;

	start(&r, cp, err);
	wait_all(&r, 1, -1);
	return status_of(&r);
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
			start(&r[i], cps[at + i], cps[at + i]->err);
		wait_all(r, n, -1);
		for (i = 0; i < n; i++)
			rcs[at + i] = status_of(&r[i]);
	}
}

struct run_async {
	struct running r;
};

/* Put a, just started, among the gits killed at exit. */
static void reap_at_exit(struct run_async *a)
{
	static int registered;

	if (!registered++)
		at_cleanup(reap_started);
	a->r.next = started;
	started = &a->r;
}

struct run_async *run_git_start(struct child_process *cp)
{
	struct run_async *a = xmalloc(sizeof(*a));

	start(&a->r, cp, cp->err);
	reap_at_exit(a);
	return a;
}

struct run_async *run_fork(void (*fn)(void *), void *data,
			   struct strbuf *out, struct strbuf *err)
{
	struct run_async *a = xmalloc(sizeof(*a));
	int fd[2][2];

	make_pipe(fd[0]);
	make_pipe(fd[1]);
	fflush(stdout);		/* or the child would write it again */
	fflush(stderr);
	a->r.pid = fork();
	if (a->r.pid < 0)
		die_errno("cannot fork");
	if (!a->r.pid) {
		if (dup2(fd[0][1], 1) < 0 || dup2(fd[1][1], 2) < 0)
			_exit(128);
		close(fd[0][0]);
		close(fd[0][1]);
		close(fd[1][0]);
		close(fd[1][1]);
		started = NULL;		/* the parent's, not ours to kill */
		signals_forked();
		fn(data);
		exit(fflush(stdout) || ferror(stdout) ? 128 : 0);
	}
	close(fd[0][1]);
	close(fd[1][1]);
	a->r.fd[0] = fd[0][0];
	a->r.fd[1] = fd[1][0];
	a->r.sink[0] = out;
	a->r.sink[1] = err;
	a->r.status = 0;
	a->r.exited = 0;
	reap_at_exit(a);
	return a;
}

int run_git_wait(struct run_async *a, int timeout)
{
	return a->r.exited || wait_all(&a->r, 1, timeout);
}

/* Forget a, which run_git_start() started: it is waited for. */
static void unregister(struct run_async *a)
{
	struct running **r;

	for (r = &started; *r; r = &(*r)->next)
		if (*r == &a->r) {
			*r = a->r.next;
			return;
		}
	BUG("a git waited for twice");
}

int run_git_finish(struct run_async *a)
{
	int rc;

	wait_all(&a->r, 1, -1);
	unregister(a);
	rc = status_of(&a->r);
	free(a);
	return rc;
}

void run_git_abandon(struct run_async *a)
{
	int s;

	if (!a)
		return;
	unregister(a);
	reap(&a->r, SIGTERM);
	for (s = 0; s < 2; s++)
		if (a->r.fd[s] >= 0)
			close(a->r.fd[s]);
	free(a);
}

/* Pass on what git said and stop as it would. */
void die_with_git(const char *what, int status, const struct strbuf *err)
{
	if (err->len) {
		fwrite(err->buf, 1, err->len, stderr);
		if (err->buf[err->len - 1] != '\n')
			fputc('\n', stderr);
		exit(128);
	}
	die("%s failed (%s)", what, run_describe(status));
}

int run_git(struct child_process *cp)
{
	return run(cp, cp->err);
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

	if (status < 0)
		snprintf(buf, sizeof(buf), "signal %d", -status);
	else
		snprintf(buf, sizeof(buf), "exit code %d", status);
	return buf;
}
