/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PULLMSG_H
#define PULLMSG_H

#include <stddef.h>

#include "mail.h"
#include "pullreq.h"
#include "str.h"

/*
 * The pull requests a receiver gets: each message of the input read and
 * decoded by git's plumbing (mail.h), its request found by pullreq.h.
 * What a request says to fetch passes fetchgate.h before anything runs.
 */

struct pullmsg {
	size_t number;			/* 1, 2, ...: its place in the input */
	struct str subject;		/* decoded, UTF-8; empty when the */
	struct str from;		/* message has none */
	struct str date;
	/*
	 * NULL when the message holds a pull request, in req; otherwise
	 * a static sentence saying what is missing, such as "no 'The
	 * following changes since commit' line" (req is then empty).
	 */
	const char *error;
	/*
	 * With an error: whether the message has a line of a request
	 * (pullreq_telltale()): one that looks like a request but
	 * cannot be read, to be reported, not skipped.
	 */
	int telltale;
	/* its place among the requests of the message: 1 of 1, ... */
	size_t request, nr_requests;
	struct pullreq req;
};

/* One entry a request: a message with two requests has two, numbered alike. */
struct pullmsg_list {
	struct pullmsg *msg;
	size_t nr;
	struct mail_list mail_;		/* private: what the strings point into */
	size_t alloc_;			/* private: the room in msg */
};

#define PULLMSG_LIST_INIT { NULL, 0, MAIL_LIST_INIT, 0 }

/*
 * Read the messages of file (stdin when NULL or "-") and find the pull
 * request of each, in mail.h's two steps: pullmsg_split_cmd() sets cp
 * up to run git mailsplit, which the caller runs (beside others);
 * pullmsg_read_split() takes its exit code rc, reads the messages
 * (with the caller's nr_also gits beside git mailinfo, their exit
 * codes into also_rcs) and finds their requests (pullreq_find()).
 * Dies when the input cannot be read.
 */
void pullmsg_split_cmd(const char *file, struct pullmsg_list *res,
		       struct child_process *cp);
void pullmsg_read_split(struct pullmsg_list *res, int rc,
			struct child_process **also, int *also_rcs,
			size_t nr_also);

/* Both steps, with nothing beside. */
void pullmsg_read(const char *file, struct pullmsg_list *res);

/* Free what pullmsg_read_split() allocated; *res is then empty again. */
void pullmsg_release(struct pullmsg_list *res);

#endif
