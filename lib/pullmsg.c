// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "pullmsg.h"

static struct str str_of(const struct strbuf *sb)
{
	struct str s;

	s.s = sb->buf;
	s.len = sb->len;
	return s;
}

void pullmsg_read(const char *file, struct pullmsg_list *res)
{
	size_t i;

	memset(res, 0, sizeof(*res));
	mail_read(file, &res->mail_);
	res->nr = res->mail_.nr;
	res->mbox = res->mail_.mailbox;
	res->msg = xmalloc((res->nr + 1) * sizeof(*res->msg));
	for (i = 0; i < res->nr; i++) {
		const struct mail *mail = &res->mail_.mail[i];
		struct pullmsg *m = &res->msg[i];

		memset(m, 0, sizeof(*m));
		m->number = mail->number;
		m->subject = str_of(&mail->subject);
		m->from = str_of(&mail->from);
		m->date = str_of(&mail->date);
		m->error = mail->error;
		if (!m->error)
			m->error = pullreq_find(mail->text.buf, mail->text.len,
						&m->req);
	}
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
