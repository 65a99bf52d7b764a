/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RELAY_H
#define RELAY_H

/*
 * The connection of a git:// fetch, through us, so that its stall is
 * counted from what it receives (fetch.h): git fetch runs us as its
 * proxy (GIT_PROXY_COMMAND, "git-clean-diffstat <host> <port>") with
 * RELAY_ENV=<fd> in the environment.  relay_main() connects to
 * host:port as git itself would (its errors worded as git's), copies
 * what git writes on our stdin to the server and what the server sends
 * to our stdout, and tells the tool on <fd>, as it happens:
 *
 *	RELAY_OPENED	the connection is made
 *	RELAY_RECEIVED	bytes came from the server (one for a read, or
 *			none when the tool has not read the last yet)
 *	RELAY_CLOSED	the connection is over
 *
 * The tool's end of <fd> is a pipe of run.c (child_process.watch).
 */
#define RELAY_ENV "CLEAN_DIFFSTAT_RELAY"
#define RELAY_OPENED '+'
#define RELAY_RECEIVED '.'
#define RELAY_CLOSED '-'

/* The command git fetch is to run as its proxy: us. */
void relay_set_program(const char *argv0);
const char *relay_program(void);

/* The relay, when RELAY_ENV is set: its exit code (argv: us, host, port). */
int relay_main(int argc, char **argv);

#endif
