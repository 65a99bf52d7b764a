// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "signals.h"

static const int caught[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE,
				 SIGCHLD };
static volatile sig_atomic_t pending;
static int self_pipe[2] = { -1, -1 };
static void (*cleanup_fn[4])(void);
static int nr_cleanup;

static void handler(int sig)
{
	int saved_errno = errno;
	ssize_t n;

	if (sig != SIGCHLD && !pending)
		pending = sig;
	n = write(self_pipe[1], "", 1);	/* fails only when a wake-up waits */
	(void)n;
	errno = saved_errno;
}

static void set_flags(int fd, int fd_flag, int fl_flag)
{
	if (fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | fd_flag) < 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | fl_flag) < 0)
		die_errno("fcntl");
}

static void make_self_pipe(void)
{
	if (pipe(self_pipe) < 0)
		die_errno("cannot create a pipe");
	set_flags(self_pipe[0], FD_CLOEXEC, O_NONBLOCK);
	set_flags(self_pipe[1], FD_CLOEXEC, O_NONBLOCK);
}

/* At exit: a fatal signal not yet acted on is died of. */
static void die_of_pending(void)
{
	if (pending)
		signals_die(pending);
}

void signals_init(void)
{
	struct sigaction sa;
	size_t i;

	make_self_pipe();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(caught) / sizeof(*caught); i++)
		sigaddset(&sa.sa_mask, caught[i]);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof(caught) / sizeof(*caught); i++)
		if (sigaction(caught[i], &sa, NULL) < 0)
			die_errno("sigaction");
	if (atexit(die_of_pending))
		die("atexit failed");
}

int signals_fd(void)
{
	return self_pipe[0];
}

int signals_take(void)
{
	char buf[64];

	while (read(self_pipe[0], buf, sizeof(buf)) > 0)
		; /* drain */
	return pending;
}

int signals_pending(void)
{
	return pending;
}

ssize_t signals_read(int fd, void *buf, size_t len)
{
	struct pollfd pfd[2] = { { fd, POLLIN, 0 }, { self_pipe[0], POLLIN, 0 } };
	ssize_t n;

	for (;;) {
		/*
		 * A signal that came with the input (^C, then the end of
		 * the file) wins: looked at after every poll, before
		 * anything is read.
		 */
		int sig = signals_take();

		if (sig)
			signals_die(sig);
		if (pfd[0].revents) {
			n = read(fd, buf, len);
			if (n >= 0 || (errno != EINTR && errno != EAGAIN))
				return n;
		}
		if (poll(pfd, 2, -1) < 0) {
			if (errno != EINTR)
				return -1;
			pfd[0].revents = 0;
		}
	}
}

void signals_die(int sig)
{
	struct sigaction sa;
	sigset_t set;
	int i;

	for (i = nr_cleanup - 1; i >= 0; i--)
		cleanup_fn[i]();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

void at_cleanup(void (*fn)(void))
{
	if (nr_cleanup == (int)(sizeof(cleanup_fn) / sizeof(*cleanup_fn)))
		BUG("too many cleanup functions");
	cleanup_fn[nr_cleanup++] = fn;
	if (atexit(fn))
		die("atexit failed");
}

/* Stop because standard output could not be written (what), as git. */
static NORETURN void die_of_stdout(const char *what)
{
	int saved_errno = errno;

	/* the reader went away: die of SIGPIPE quietly, as git does */
	if (saved_errno == EPIPE || signals_take() == SIGPIPE)
		signals_die(SIGPIPE);
	if (!saved_errno)
		die("%s", what);
	errno = saved_errno;
	die_errno("%s", what);
}

void flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout))
		die_of_stdout("write failure on standard output");
}

void exit_flushing_stdout(int status)
{
	struct stat st;

	if (fstat(fileno(stdout), &st))	/* closed by the caller: as git */
		exit(status);
	flush_stdout();
	errno = 0;
	if (ferror(stdout))		/* an earlier write failed: errno is gone */
		die_of_stdout("unknown write failure on standard output");
	if (fclose(stdout))
		die_of_stdout("close failed on standard output");
	exit(status);
}

