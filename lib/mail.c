// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mail.h"
#include "quarantine.h"
#include "run.h"

/* The whole file at path appended to sb. */
static void read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		die_errno("cannot open '%s'", path);
	do {
		strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n > 0)
			strbuf_setlen(sb, sb->len + (size_t)n);
	} while (n > 0 || (n < 0 && errno == EINTR));
	if (n < 0)
		die_errno("cannot read '%s'", path);
	close(fd);
}

/* git mailinfo's "Author: ...", "Email: ...", "Subject: ...", "Date: ..." */
static void parse_info(struct mail *m, const struct strbuf *info)
{
	const char *p = info->buf, *end = info->buf + info->len;
	struct strbuf author = STRBUF_INIT, email = STRBUF_INIT;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *colon;
		struct strbuf *to = NULL;

		colon = memchr(p, ':', (size_t)(e - p));
		if (colon && colon + 1 < e && colon[1] == ' ') {
			size_t n = (size_t)(colon - p);

			if (n == 6 && !memcmp(p, "Author", 6))
				to = &author;
			else if (n == 5 && !memcmp(p, "Email", 5))
				to = &email;
			else if (n == 7 && !memcmp(p, "Subject", 7))
				to = &m->subject;
			else if (n == 4 && !memcmp(p, "Date", 4))
				to = &m->date;
		}
		if (to)
			strbuf_add(to, colon + 2, (size_t)(e - colon - 2));
		p = nl ? nl + 1 : end;
	}
	strbuf_add(&m->from, author.buf, author.len);
	if (author.len && email.len)
		strbuf_addch(&m->from, ' ');
	if (email.len)
		strbuf_addf(&m->from, "<%s>", email.buf);
	strbuf_release(&author);
	strbuf_release(&email);
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0700) < 0)
		die_errno("cannot create '%s'", path);
}

void mail_split_cmd(const char *file, struct mail_list *list,
		    struct child_process *cp)
{
	struct strbuf path = STRBUF_INIT;

	if (file && !strcmp(file, "-"))
		file = NULL;
	memset(list, 0, sizeof(*list));
	strbuf_init(&list->dir_);
	strbuf_init(&list->out_);
	strbuf_init(&list->err_);
	quarantine_create();
	strbuf_addf(&list->dir_, "%s/mail.XXXXXX", quarantine_path());
	if (!mkdtemp(list->dir_.buf))
		die_errno("cannot create a directory in '%s'", quarantine_path());
	strbuf_addf(&path, "%s/split", list->dir_.buf);
	make_dir(path.buf);

	strvec_pushl(&cp->args, "mailsplit", "-b", "--mboxrd", NULL);
	strvec_pushf(&cp->args, "-o%s", path.buf);
	if (file)
		strvec_pushl(&cp->args, "--", file, NULL);
	else
		cp->stdin_inherit = 1;
	cp->out = &list->out_;
	cp->err = &list->err_;
	strbuf_release(&path);
}

/* How many messages git mailsplit says it wrote (it exited rc). */
static size_t split_count(struct mail_list *list, int rc)
{
	size_t nr;
	char *end;

	if (rc) {
		/* its "error: " lines, one or two, as one fatal line */
		struct strbuf why = STRBUF_INIT;

		run_reason(&why, "cannot read the mail", rc, &list->err_);
		die("%s", why.buf);
	}
	nr = (size_t)strtoul(list->out_.buf, &end, 10);
	if (end == list->out_.buf || (*end && *end != '\n'))
		die("cannot read what git mailsplit says: '%s'", list->out_.buf);
	return nr;
}

/* git mailinfo of one message, and what it says */
struct job {
	struct child_process cp;
	struct strbuf in, info, err;
};

void mail_read_split(struct mail_list *list, int rc,
		     struct child_process **also, int *also_rcs, size_t nr_also)
{
	const char *dir = list->dir_.buf;
	struct strbuf path = STRBUF_INIT;
	struct child_process **cps;
	struct job *job;
	int *rcs;
	size_t i, nr = split_count(list, rc);

	list->mail = xmalloc((nr + 1) * sizeof(*list->mail));
	list->nr = nr ? nr : 1;		/* an empty input: one empty message */
	job = xmalloc((nr + 1) * sizeof(*job));
	cps = xmalloc((nr + nr_also + 1) * sizeof(struct child_process *));
	rcs = xmalloc((nr + nr_also + 1) * sizeof(*rcs));
	for (i = 0; i < list->nr; i++) {
		struct mail m = { i + 1, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				  STRBUF_INIT, NULL };

		list->mail[i] = m;
	}
	for (i = 0; i < nr; i++) {
		struct job j = { CHILD_PROCESS_INIT, STRBUF_INIT, STRBUF_INIT,
				 STRBUF_INIT };

		job[i] = j;
		strbuf_addf(&job[i].in, "%s/split/%04zu", dir, i + 1);
		strvec_pushl(&job[i].cp.args, "-c", "i18n.commitEncoding=UTF-8",
			     "mailinfo", "-k", "-u", "--no-scissors",
			     "--no-inbody-headers", "--quoted-cr=strip", NULL);
		strvec_pushf(&job[i].cp.args, "%s/msg%04zu", dir, i + 1);
		strvec_pushf(&job[i].cp.args, "%s/patch%04zu", dir, i + 1);
		job[i].cp.in = job[i].in.buf;
		job[i].cp.out = &job[i].info;
		job[i].cp.err = &job[i].err;
		cps[i] = &job[i].cp;
	}
	for (i = 0; i < nr_also; i++)
		cps[nr + i] = also[i];
	run_git_all(cps, rcs, nr + nr_also);
	for (i = 0; i < nr_also; i++)
		also_rcs[i] = rcs[nr + i];
	for (i = 0; i < nr; i++) {
		struct mail *m = &list->mail[i];

		if (rcs[i]) {
			m->error = "git mailinfo cannot read it";
		} else {
			parse_info(m, &job[i].info);
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/msg%04zu", dir, i + 1);
			read_file(&m->text, path.buf);
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/patch%04zu", dir, i + 1);
			read_file(&m->text, path.buf);
		}
		strbuf_release(&job[i].in);
		strbuf_release(&job[i].info);
		strbuf_release(&job[i].err);
	}
	free(job);
	free(cps);
	free(rcs);
	strbuf_release(&path);
	strbuf_release(&list->dir_);
	strbuf_release(&list->out_);
	strbuf_release(&list->err_);
}

void mail_read(const char *file, struct mail_list *list)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	mail_split_cmd(file, list, &cp);
	mail_read_split(list, run_git(&cp), NULL, NULL, 0);
}

void mail_list_release(struct mail_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		strbuf_release(&list->mail[i].subject);
		strbuf_release(&list->mail[i].from);
		strbuf_release(&list->mail[i].date);
		strbuf_release(&list->mail[i].text);
	}
	free(list->mail);
	memset(list, 0, sizeof(*list));
}
