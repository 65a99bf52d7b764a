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

static pid_t spawn(const char **argv, const char **envp, int out, int err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	pid_t pid;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
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

static void die_of_signal(pid_t pid, int sig)
{
	kill(pid, sig);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
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

/* run_git(), with git's stderr captured into err when that is not NULL */
static int run(struct child_process *cp, struct strbuf *err)
{
	struct strvec argv = STRVEC_INIT, envp = STRVEC_INIT;
	int out_fd[2] = { -1, -1 }, err_fd[2] = { -1, -1 }, devnull = -1;
	struct strbuf *sink[2] = { cp->out, err };
	int fds[2] = { -1, -1 };
	int status = 0, exited = 0, sig, i;
	pid_t pid;

	strvec_push(&argv, "git");
	strvec_pushv(&argv, cp->args.v, cp->args.nr);
	build_env(&envp, cp->env.v);
	pid = spawn(argv.v, envp.v,
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
	fds[0] = out_fd[0];
	fds[1] = err_fd[0];

	for (;;) {
		struct pollfd pfd[3];
		int which[3];
		nfds_t n = 0, k;

		if (!exited) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w == pid)
				exited = 1;
			else if (w < 0 && errno != EINTR)
				die_errno("waitpid");
		}
		if (exited) {
			for (i = 0; i < 2; i++)
				if (fds[i] >= 0)
					drain_and_close(fds[i], sink[i]);
			break;
		}

		pfd[n].fd = signals_fd();
		pfd[n].events = POLLIN;
		which[n++] = -1;
		for (i = 0; i < 2; i++)
			if (fds[i] >= 0) {
				pfd[n].fd = fds[i];
				pfd[n].events = POLLIN;
				which[n++] = i;
			}
		if (poll(pfd, n, -1) < 0) {
			if (errno != EINTR)
				die_errno("poll");
			continue;
		}
		if ((sig = signals_take()))
			die_of_signal(pid, sig);
		for (k = 1; k < n; k++) {
			i = which[k];
			if (pfd[k].revents && !drain(fds[i], sink[i])) {
				close(fds[i]);
				fds[i] = -1;
			}
		}
	}
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	return WEXITSTATUS(status);
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

void run_git_or_die(struct child_process *cp)
{
	struct strbuf own = STRBUF_INIT, what = STRBUF_INIT;
	struct strbuf *err = cp->err ? cp->err : &own;
	int rc;

	strbuf_addf(&what, "git %s", cp->args.nr ? cp->args.v[0] : "");
	rc = run(cp, err);
	if (rc)
		die_with_git(what.buf, rc, err);
	strbuf_release(&own);
	strbuf_release(&what);
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
