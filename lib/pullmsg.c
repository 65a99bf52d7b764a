// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "pullmsg.h"
#include "run.h"

static struct str str_of(const struct strbuf *sb)
{
	struct str s;

	s.s = sb->buf;
	s.len = sb->len;
	return s;
}

/* The requests of one message, each an entry of res from res->nr on. */
static void read_message(const struct mail *mail, struct pullmsg_list *res)
{
	const char *text = mail->text.buf;
	size_t len = mail->text.len, first = res->nr, next, i;

	do {
		struct pullmsg *m;

		ALLOC_GROW(res->msg, res->nr, res->alloc_);
		m = &res->msg[res->nr++];
		memset(m, 0, sizeof(*m));
		m->number = mail->number;
		m->subject = str_of(&mail->subject);
		m->from = str_of(&mail->from);
		m->date = str_of(&mail->date);
		m->error = mail->error;
		if (m->error)
			break;
		m->error = pullreq_find(text, len, &m->req);
		next = m->req.next;
		if (m->error)
			m->telltale = pullreq_telltale(text, next ? next : len);
		text += next;
		len -= next;
	} while (next);
	for (i = first; i < res->nr; i++) {
		res->msg[i].request = i - first + 1;
		res->msg[i].nr_requests = res->nr - first;
	}
}

void pullmsg_split_cmd(const char *file, struct pullmsg_list *res,
		       struct child_process *cp)
{
	memset(res, 0, sizeof(*res));
	mail_split_cmd(file, &res->mail_, cp);
}

void pullmsg_read_split(struct pullmsg_list *res, int rc,
			struct child_process **also, int *also_rcs,
			size_t nr_also)
{
	size_t i;

	mail_read_split(&res->mail_, rc, also, also_rcs, nr_also);
	for (i = 0; i < res->mail_.nr; i++)
		read_message(&res->mail_.mail[i], res);
	if (!res->msg)
		res->msg = xmalloc(sizeof(*res->msg));
}

void pullmsg_read(const char *file, struct pullmsg_list *res)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	pullmsg_split_cmd(file, res, &cp);
	pullmsg_read_split(res, run_git(&cp), NULL, NULL, 0);
}

void pullmsg_release(struct pullmsg_list *res)
{
	size_t i;

	for (i = 0; i < res->nr; i++)
		pullreq_release(&res->msg[i].req);
	free(res->msg);
	mail_list_release(&res->mail_);
	memset(res, 0, sizeof(*res));
}
