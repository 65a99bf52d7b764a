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
	 * cannot be read, to be reported, not skipped; a message too
	 * large to be read (too_large) is reported too.
	 */
	int telltale;
	int too_large;
	/* its place among the requests of the message: 1 of 1, ... */
	size_t request, nr_requests;
	struct pullreq req;
};

/*
 * The requests of one message, one entry a request: a message with two
 * requests has two, numbered alike; a message with none has one, with
 * its error.
 */
struct pullmsg_list {
	struct pullmsg *msg;
	size_t nr;
	struct mail mail_;		/* private: what the strings point into */
	size_t alloc_;			/* private: the room in msg */
};

#define PULLMSG_LIST_INIT { NULL, 0, MAIL_INIT, 0 }

/*
 * Read the next message of in (mail.h's mail_open()) and find its
 * requests (pullreq_find()) into *res, empty or released: returns 1, or
 * 0 when no message is left.  Dies when the input cannot be read.
 */
int pullmsg_next(struct mail_input *in, struct pullmsg_list *res);

/* Free what pullmsg_next() allocated; *res is then empty again. */
void pullmsg_release(struct pullmsg_list *res);

#endif
