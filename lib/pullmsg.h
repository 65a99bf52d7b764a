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
	struct pullreq req;
};

struct pullmsg_list {
	struct pullmsg *msg;
	size_t nr;
	int mbox;			/* a mailbox: an mbox or a Maildir */
	struct mail_list mail_;		/* private: what the strings point into */
};

#define PULLMSG_LIST_INIT { NULL, 0, 0, MAIL_LIST_INIT }

/*
 * Read the messages of file (stdin when NULL or "-") and find the pull
 * request of each (mail_read(), pullreq_find()).  Dies when the input
 * cannot be read.
 */
void pullmsg_read(const char *file, struct pullmsg_list *res);

/* Free what pullmsg_read() allocated; *res is then empty again. */
void pullmsg_release(struct pullmsg_list *res);

#endif
