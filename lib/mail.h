/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MAIL_H
#define MAIL_H

#include <stddef.h>

#include "strbuf.h"

/*
 * Reading mail one message at a time, with git's own plumbing to decode
 * each:
 *
 *  - the input (a file, or stdin) is cut into messages here, by git
 *    mailsplit's rule (`git mailsplit -b --mboxrd`): a message starts
 *    at a From_ line ("From <sender> <date>", git's is_from_line()), a
 *    ">From " line loses one '>', a CRLF line end becomes LF; an input
 *    whose first line (after blank ones) is not a From_ line is one
 *    message.  A directory is a Maildir: git mailsplit cuts it, in the
 *    quarantine (quarantine.h).  Each message is written to a file in
 *    the quarantine as it is read, so that memory holds one line at a
 *    time, and a message larger than the bound is not kept: it is "too
 *    large" (an input of one message is not read past the bound: that
 *    is fatal);
 *  - `git mailinfo` decodes each message, whatever the user's mailinfo
 *    settings: -k keeps the subject as written ("[GIT PULL] ..."),
 *    -u with i18n.commitEncoding=UTF-8 converts headers and body from
 *    their charset (--encoding=UTF-8 converts neither, in git 2.38 to
 *    2.39 at least; when it fails on a charset iconv does not know,
 *    -n takes the text as it is),
 *    --no-scissors and --no-inbody-headers keep the body whole, and
 *    --quoted-cr=strip drops the CR of CRLF lines in a base64 or
 *    quoted-printable body.  Quoted-printable, base64, RFC 2047 words,
 *    multipart and format=flowed are undone.  Where git mailinfo takes
 *    a nested multipart's first boundary for text (it comes right after
 *    that multipart's headers), the message is decoded again with an
 *    empty preamble before it (mail.c's mend_boundary()).
 *
 * Nothing read from the mail reaches git as an argument.
 */

/* The bound of a message when clean-diffstat.maxMessageSize is unset. */
#define MAIL_DEFAULT_MAX_SIZE ((size_t)64 << 20)

struct mail {
	size_t number;			/* 1, 2, ...: its place in the input */
	struct strbuf subject;		/* as mailinfo says them, UTF-8; */
	struct strbuf from;		/* "Name <address>"; empty when */
	struct strbuf date;		/* the message has none */
	/*
	 * The decoded body, UTF-8, LF line ends: what mailinfo wrote as
	 * the message, then what it took for a patch (it cuts the body
	 * at a "diff --git" or "---" line; the whole is wanted here).
	 */
	struct strbuf text;
	/*
	 * NULL, or why the message could not be read (then no text):
	 * "git mailinfo cannot read it", or with too_large set "too
	 * large (more than <bound> bytes)" (then its headers are those
	 * of its beginning, as far as git mailinfo can read them).
	 */
	const char *error;
	int too_large;
};

#define MAIL_INIT { 0, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
		    NULL, 0 }

/* The input being read; its fields are private. */
struct mail_input {
	size_t max_size;
	size_t number;			/* of the last message read */
	int fd;
	int bare;			/* one message, no From_ line */
	int done;			/* no message left */
	size_t maildir_nr;		/* a Maildir: how many messages */
	char *buf;			/* what was read and is not used yet */
	size_t pos, end;
	struct strbuf line;		/* the next message's first line */
	struct strbuf dir;		/* in the quarantine: its files */
};

/*
 * The bound of a message, clean-diffstat.maxMessageSize, as git config
 * --type=int reads it (with git's k, m and g suffixes).  Dies of a bad
 * value.  Asked only when git rev-parse's trace saw the setting (struct
 * pull's max_message_size): else the bound is MAIL_DEFAULT_MAX_SIZE.
 */
size_t mail_max_size(void);

/*
 * Start reading file (stdin when NULL or "-"), messages larger than
 * max_size bytes being too large.  Dies when it cannot be read (it is
 * not there, or it is an empty file).
 */
void mail_open(struct mail_input *in, const char *file, size_t max_size);

/*
 * Read and decode the next message into m (initialized with MAIL_INIT,
 * or released): returns 1, or 0 when there is none left.  A message git
 * mailinfo cannot read, or too large, has its error set.  An empty
 * input is one empty message.  Dies when the input cannot be read, and
 * when an input of one message is larger than the bound.
 */
int mail_next(struct mail_input *in, struct mail *m);

/*
 * Whether a message follows the last one mail_next() gave, known
 * without reading it (its From_ line has been read).
 */
int mail_pending(const struct mail_input *in);

void mail_close(struct mail_input *in);
void mail_release(struct mail *m);

#endif
