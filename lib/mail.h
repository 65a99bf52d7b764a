/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MAIL_H
#define MAIL_H

#include <stddef.h>

#include "strbuf.h"

/*
 * Reading mail with git's own plumbing, which every git >= 2.38 ships,
 * instead of decoding it by hand:
 *
 *  - `git mailsplit -b --mboxrd` cuts the input into messages, in a
 *    directory inside the quarantine (quarantine.h): an mbox (a message
 *    starts at a From_ line "From <sender> <date>", and ">From " lines
 *    lose one '>'), a Maildir (a directory), or, without a From_ line,
 *    one message;
 *  - `git mailinfo` decodes each message, whatever the user's mailinfo
 *    settings: -k keeps the subject as written ("[GIT PULL] ..."),
 *    -u with i18n.commitEncoding=UTF-8 converts headers and body from
 *    their charset (--encoding=UTF-8 converts neither, in git 2.38 to
 *    2.39 at least),
 *    --no-scissors and --no-inbody-headers keep the body whole, and
 *    --quoted-cr=strip drops the CR of CRLF lines in a base64 or
 *    quoted-printable body.  Quoted-printable, base64, RFC 2047 words
 *    and multipart are undone; format=flowed is not.  The gits run in
 *    parallel (run.h's run_git_all()).
 *
 * Nothing read from the mail reaches git as an argument.
 */

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
	/* NULL, or why the message could not be read (then no text) */
	const char *error;
};

struct mail_list {
	struct mail *mail;
	size_t nr;
	/* private: git mailsplit's, from mail_split_cmd() to mail_read_split() */
	struct strbuf dir_, out_, err_;
};

#define MAIL_LIST_INIT { NULL, 0, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT }

struct child_process;

/*
 * Read the messages of file (stdin when file is NULL or "-"; git
 * mailsplit reads it itself) into *list, in two steps, so that the
 * caller runs other gits beside git's:
 *
 *  - mail_split_cmd() makes the directory for the messages and sets cp
 *    up to run git mailsplit into it, which the caller runs (beside
 *    others: it needs nothing of them);
 *  - mail_read_split() takes its exit code rc, runs git mailinfo of
 *    each message and the caller's nr_also gits also beside them
 *    (their exit codes into also_rcs), and fills *list.  It dies when
 *    git mailsplit failed (an unreadable file); a message git mailinfo
 *    cannot read has its error set and the others are read.  An empty
 *    input is one empty message.
 */
void mail_split_cmd(const char *file, struct mail_list *list,
		    struct child_process *cp);
void mail_read_split(struct mail_list *list, int rc,
		     struct child_process **also, int *also_rcs, size_t nr_also);

/* Both steps, with nothing beside. */
void mail_read(const char *file, struct mail_list *list);

void mail_list_release(struct mail_list *list);

#endif
