// SPDX-License-Identifier: GPL-2.0-only
#define _XOPEN_SOURCE 700		/* realpath() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "relay.h"
#include "strbuf.h"
#include "usage.h"

static char *program;

void relay_set_program(const char *argv0)
{
	char *abs = strchr(argv0, '/') ? realpath(argv0, NULL) : NULL;

	/* a bare name is found on the PATH git fetch searches, as we were */
	free(program);
	program = abs ? abs : xstrdup(argv0);
}

const char *relay_program(void)
{
	return program ? program : "git-clean-diffstat";
}

/* Tell the tool; what is lost when its pipe is full is a RELAY_RECEIVED. */
static void tell(int fd, char what)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0)
		return;
	if (what == RELAY_RECEIVED)
		flags |= O_NONBLOCK;
	else
		flags &= ~O_NONBLOCK;
	fcntl(fd, F_SETFL, flags);
	while (write(fd, &what, 1) < 0 && errno == EINTR)
		;
}

/* The address a[i] in text, for a message. */
static const char *addr_name(const struct addrinfo *ai)
{
	static char name[1025];		/* NI_MAXHOST */

	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, name, sizeof(name), NULL,
			0, NI_NUMERICHOST))
		snprintf(name, sizeof(name), "(unknown)");
	return name;
}

/* Connect to host:port as git's connect.c does, and word its errors so. */
static int connect_to(const char *host, const char *port)
{
	struct addrinfo hints, *ai0, *ai;
	struct strbuf err = STRBUF_INIT;
	int sock = -1, rc, cnt = 0, on = 1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
	rc = getaddrinfo(host, port, &hints, &ai0);
	if (rc)
		die("unable to look up %s (port %s) (%s)", host, port,
		    gai_strerror(rc));
	for (ai = ai0; ai; ai = ai->ai_next, cnt++) {
		sock = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (sock >= 0 && connect(sock, ai->ai_addr, ai->ai_addrlen) >= 0)
			break;
		strbuf_addf(&err, "%s[%d: %s]: errno=%s\n", host, cnt,
			    addr_name(ai), strerror(errno));
		if (sock >= 0)
			close(sock);
		sock = -1;
	}
	freeaddrinfo(ai0);
	if (sock < 0)
		die("unable to connect to %s:\n%.*s", host, (int)err.len - 1,
		    err.buf);
	setsockopt(sock, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	strbuf_release(&err);
	return sock;
}

int relay_main(int argc, char **argv)
{
	const char *env = getenv(RELAY_ENV);
	char *end = NULL;
	long tool = env ? strtol(env, &end, 10) : -1;
	int sock, to_server = 1;
	static char buf[65536];

	if (argc != 3 || end == env || *end || tool < 3 || tool > INT_MAX)
		die("%s: a relay needs <host> <port> and a file descriptor",
		    argv[0]);
	signal(SIGPIPE, SIG_IGN);
	sock = connect_to(argv[1], argv[2]);
	tell((int)tool, RELAY_OPENED);
	for (;;) {
		/* git's stdin, the server, and our stdout closed by git */
		struct pollfd pfd[3] = { { 0, POLLIN, 0 }, { sock, POLLIN, 0 },
					 { 1, 0, 0 } };
		ssize_t n;

		pfd[0].fd = to_server ? 0 : -1;
		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents) {
			n = read(0, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0 || write_in_full(sock, buf, (size_t)n)) {
				/* git has said all it has to say */
				shutdown(sock, SHUT_WR);
				to_server = 0;
			}
		}
		if (pfd[1].revents) {
			n = read(sock, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;		/* the server is done */
			tell((int)tool, RELAY_RECEIVED);
			if (write_in_full(1, buf, (size_t)n))
				break;		/* git is gone */
		}
		if (pfd[2].revents & (POLLERR | POLLHUP))
			break;			/* git is gone */
	}
	tell((int)tool, RELAY_CLOSED);
	close(sock);
	return 0;
}
