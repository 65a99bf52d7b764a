// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "pullmsg.h"

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
		m->subject = str_at(mail->subject.buf, mail->subject.len);
		m->from = str_at(mail->from.buf, mail->from.len);
		m->date = str_at(mail->date.buf, mail->date.len);
		m->error = mail->error;
		m->too_large = mail->too_large;
		m->telltale = mail->too_large;
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

int pullmsg_next(struct mail_input *in, struct pullmsg_list *res)
{
	pullmsg_release(res);
	if (!mail_next(in, &res->mail_))
		return 0;
	read_message(&res->mail_, res);
	return 1;
}

void pullmsg_release(struct pullmsg_list *res)
{
	size_t i;

	for (i = 0; i < res->nr; i++)
		pullreq_release(&res->msg[i].req);
	free(res->msg);
	mail_release(&res->mail_);
	res->msg = NULL;
	res->nr = res->alloc_ = 0;
}
