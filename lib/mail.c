// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mail.h"
#include "signals.h"
#include "quarantine.h"
#include "run.h"
#include "str.h"

/*
 * The most of a line held at once: a longer line is read and written
 * in pieces of this size (and, beginning with "From ", is no From_
 * line, where git mailsplit would look at its end), so that memory
 * does not grow with the input.
 */
#define PIECE 65536

/* "too large (more than <bound> bytes)", a message's error */
static char too_large[64];

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
	struct str rest = str_at(info->buf, info->len);
	struct strbuf author = STRBUF_INIT, email = STRBUF_INIT;

	while (rest.len) {
		struct str l = str_next_line(&rest);
		const char *e = l.s + l.len, *colon = memchr(l.s, ':', l.len);
		struct strbuf *to = NULL;

		if (colon && colon + 1 < e && colon[1] == ' ') {
			struct str key = str_at(l.s, (size_t)(colon - l.s));

			if (str_equals(key, "Author"))
				to = &author;
			else if (str_equals(key, "Email"))
				to = &email;
			else if (str_equals(key, "Subject"))
				to = &m->subject;
			else if (str_equals(key, "Date"))
				to = &m->date;
		}
		if (to)
			strbuf_add(to, colon + 2, (size_t)(e - colon - 2));
	}
	strbuf_add(&m->from, author.buf, author.len);
	if (author.len && email.len)
		strbuf_addch(&m->from, ' ');
	if (email.len)
		strbuf_addf(&m->from, "<%s>", email.buf);
	strbuf_release(&author);
	strbuf_release(&email);
}

size_t mail_max_size(void)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, why = STRBUF_INIT;
	char *end;
	long long n;
	int rc;

	strvec_pushl(&cp.args, "config", "--type=int", "--get",
		     "clean-diffstat.maxMessageSize", NULL);
	cp.out = &out;
	cp.err = &err;
	rc = run_git(&cp);
	if (rc == 1 && !out.len)
		n = MAIL_DEFAULT_MAX_SIZE;	/* unset after all */
	else if (rc) {
		run_reason(&why, "cannot read clean-diffstat.maxMessageSize",
			   rc, &err);
		die("%s", why.buf);
	} else {
		errno = 0;
		n = strtoll(out.buf, &end, 10);
		if (errno || end == out.buf || (*end && *end != '\n') || n <= 0)
			die("bad clean-diffstat.maxMessageSize: '%.*s' (a size "
			    "in bytes, such as 64m, is wanted)",
			    (int)strcspn(out.buf, "\n"), out.buf);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return (size_t)n;
}

/* Fill in->buf anew: the number of bytes read, 0 at the end. */
static size_t read_more(struct mail_input *in)
{
	ssize_t n;

	n = signals_read(in->fd, in->buf, PIECE);
	if (n < 0)
		die_errno("cannot read the mail");
	in->pos = 0;
	in->end = (size_t)n;
	return in->end;
}

/*
 * Append to sb the rest of a line, its '\n' included, or PIECE bytes
 * of it at most (more when that would cut a CRLF in two).  Returns 0
 * at the end of the input, nothing appended.
 */
static int read_piece(struct mail_input *in, struct strbuf *sb)
{
	size_t start = sb->len;

	for (;;) {
		size_t got = sb->len - start, n;
		const char *p, *nl;

		if (in->pos == in->end && !read_more(in))
			break;
		p = in->buf + in->pos;
		n = in->end - in->pos;
		nl = memchr(p, '\n', n);
		if (nl)
			n = (size_t)(nl - p) + 1;
		if (got + n > PIECE)
			n = got < PIECE ? PIECE - got : 1;
		strbuf_add(sb, p, n);
		in->pos += n;
		if (sb->buf[sb->len - 1] == '\n')
			break;
		if (sb->len - start >= PIECE && sb->buf[sb->len - 1] != '\r')
			break;
	}
	return sb->len > start;
}

/* git mailsplit's is_from_line(): "From <sender> <date>" */
static int is_from_line(const struct strbuf *sb)
{
	const char *line = sb->buf, *colon;

	if (sb->len < 20 || memcmp("From ", line, 5))
		return 0;
	/* a piece of a longer line, or the whole line */
	if (sb->len >= PIECE && sb->buf[sb->len - 1] != '\n')
		return 0;
	colon = line + sb->len - 2;
	line += 5;
	for (;;) {
		if (colon < line)
			return 0;
		if (*--colon == ':')
			break;
	}
	if (colon - 4 < sb->buf || !isdigit((unsigned char)colon[-4]) ||
	    !isdigit((unsigned char)colon[-2]) ||
	    !isdigit((unsigned char)colon[-1]) ||
	    !isdigit((unsigned char)colon[1]) ||
	    !isdigit((unsigned char)colon[2]))
		return 0;
	/* year */
	return strtol(colon + 3, NULL, 10) > 90;
}

/* git mailsplit's is_gtfrom(): a line of mboxrd's, ">From ", ">>From "... */
static int is_gtfrom(const struct strbuf *sb)
{
	size_t ngt;

	if (sb->len < 6)
		return 0;
	ngt = strspn(sb->buf, ">");
	return ngt && sb->len - ngt >= 5 && !memcmp(sb->buf + ngt, "From ", 5);
}

/*
 * Write to path the message that begins with in->line, up to the next
 * From_ line (then in->line), or the end of the input; a message
 * larger than the bound is too large (not written in full).
 */
static void split_one(struct mail_input *in, const char *path,
		      struct mail *m)
{
	struct strbuf *sb = &in->line, out = STRBUF_INIT;
	size_t size = 0;
	int at_start = 1;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		die_errno("cannot create '%s'", path);
	for (;;) {
		int eol = sb->len && sb->buf[sb->len - 1] == '\n';
		size_t skip = at_start && is_gtfrom(sb);

		if (eol && sb->len > 1 && sb->buf[sb->len - 2] == '\r') {
			strbuf_setlen(sb, sb->len - 2);
			strbuf_addch(sb, '\n');
		}
		size += sb->len - skip;
		if (size > in->max_size && in->bare)
			die("the message is %s", too_large);
		if (size > in->max_size) {
			m->too_large = 1;
			m->error = too_large;
		}
		if (!m->too_large)
			strbuf_add(&out, sb->buf + skip, sb->len - skip);
		/* a write a line was a tenth of the tool's own CPU */
		if (out.len >= PIECE) {
			if (write_in_full(fd, out.buf, out.len))
				die_errno("cannot write '%s'", path);
			strbuf_reset(&out);
		}
		at_start = eol;
		strbuf_reset(sb);
		if (!read_piece(in, sb)) {
			in->done = 1;
			break;
		}
		if (at_start && !in->bare && is_from_line(sb))
			break;	/* the next message's */
	}
	if (write_in_full(fd, out.buf, out.len))
		die_errno("cannot write '%s'", path);
	strbuf_release(&out);
	if (close(fd) < 0)
		die_errno("cannot write '%s'", path);
}

/* A Maildir, cut by git mailsplit into in->dir/split. */
static void split_maildir(struct mail_input *in, const char *dir)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *end;
	int rc;

	strbuf_addf(&out, "%s/split", in->dir.buf);
	if (mkdir(out.buf, 0700) < 0)
		die_errno("cannot create '%s'", out.buf);
	strvec_pushl(&cp.args, "mailsplit", "-b", "--mboxrd", NULL);
	strvec_pushf(&cp.args, "-o%s", out.buf);
	strbuf_reset(&out);
	strvec_pushl(&cp.args, "--", dir, NULL);
	cp.out = &out;
	cp.err = &err;
	rc = run_git(&cp);
	if (rc) {
		/* its "error: " lines, one or two, as one fatal line */
		struct strbuf why = STRBUF_INIT;

		run_reason(&why, "cannot read the mail", rc, &err);
		die("%s", why.buf);
	}
	in->maildir_nr = (size_t)strtoul(out.buf, &end, 10);
	if (end == out.buf || (*end && *end != '\n'))
		die("cannot read what git mailsplit says: '%s'", out.buf);
	strbuf_release(&out);
	strbuf_release(&err);
}

void mail_open(struct mail_input *in, const char *file, size_t max_size)
{
	struct stat st;
	int c;

	*in = (struct mail_input){ .max_size = max_size, .line = STRBUF_INIT,
				   .dir = STRBUF_INIT };
	snprintf(too_large, sizeof(too_large),
		 "too large (more than %zu bytes)", max_size);
	quarantine_create();
	strbuf_addf(&in->dir, "%s/mail.XXXXXX", quarantine_path());
	if (!mkdtemp(in->dir.buf))
		die_errno("cannot create a directory in '%s'", quarantine_path());
	if (file && !strcmp(file, "-"))
		file = NULL;
	if (file && stat(file, &st) < 0)
		die("cannot read the mail: cannot stat %s: %s", file,
		    strerror(errno));
	if (file && S_ISDIR(st.st_mode)) {
		split_maildir(in, file);
		in->fd = -1;
		return;
	}
	in->fd = file ? open(file, O_RDONLY | O_CLOEXEC) : 0;
	if (in->fd < 0)
		die("cannot read the mail: cannot open mbox %s: %s", file,
		    strerror(errno));
	in->buf = xmalloc(PIECE);
	/* as git mailsplit: blank lines first are no message's */
	do {
		if (in->pos == in->end && !read_more(in)) {
			if (file)
				die("cannot read the mail: empty mbox: '%s'",
				    file);
			in->done = 1;
			return;
		}
		c = (unsigned char)in->buf[in->pos++];
	} while (isspace(c));
	in->pos--;
	read_piece(in, &in->line);
	in->bare = !is_from_line(&in->line);
}

/*
 * A line of text that is a boundary ("--<boundary>") with a part's
 * header after it: where git mailinfo (2.38 to 2.55 at least) took the
 * first boundary of a nested multipart for text, because it came right
 * after that multipart's headers, as in Outlook's multipart/alternative
 * relayed by Mailman in a multipart/mixed.  The part after it is then
 * not decoded.  That line, or an empty string.
 */
static struct str undecoded_boundary(const struct strbuf *text)
{
	struct str rest = str_at(text->buf, text->len), l;

	while (rest.len) {
		l = str_next_line(&rest);
		if (l.len > 2 && str_starts_with(l, "--") && rest.len &&
		    str_find_ci(str_at(rest.s, rest.len < 8 ? rest.len : 8),
				"content-") == rest.s)
			return l;
	}
	return str_at(NULL, 0);
}

/*
 * The message at path with an empty line before the first line that is
 * boundary b, when that line comes right after a header (and the empty
 * line that ends it), written to the file mended: the empty line is
 * then a preamble, which MIME says to ignore, and git mailinfo finds
 * the boundary after it.  0, or -1 when the message has no such line.
 */
static int mend_boundary(const char *path, struct str b, const char *mended)
{
	struct strbuf sb = STRBUF_INIT;
	struct str rest, l = { NULL, 0 }, prev = l, before = l;
	int fd, found = 0;

	read_file(&sb, path);
	rest = str_at(sb.buf, sb.len);
	while (rest.len && !found) {
		before = prev;
		prev = l;
		l = str_next_line(&rest);
		found = l.len == b.len && !memcmp(l.s, b.s, b.len);
	}
	found = found && prev.s && !prev.len && before.len;
	if (found) {
		fd = open(mended, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			die_errno("cannot create '%s'", mended);
		if (write_in_full(fd, sb.buf, (size_t)(l.s - sb.buf)) ||
		    write_in_full(fd, "\n", 1) ||
		    write_in_full(fd, l.s, sb.len - (size_t)(l.s - sb.buf)) ||
		    close(fd) < 0)
			die_errno("cannot write '%s'", mended);
	}
	strbuf_release(&sb);
	return found ? 0 : -1;
}

/* A multipart nests at most this deep in git mailinfo (MAX_BOUNDARIES). */
#define MAX_NESTING 5

/*
 * git mailinfo of the message at path, into m: its headers, and unless
 * it is too large (then path holds its beginning), its text.  When it
 * took a nested multipart's boundary for text, once more with that
 * mended (mend_boundary()).
 */
static void decode(struct mail_input *in, const char *path, struct mail *m)
{
	struct strbuf info = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf msg = STRBUF_INIT, patch = STRBUF_INIT;
	struct strbuf mended = STRBUF_INIT;
	const char *recode = "-u";
	int tries = 0, rc;

	strbuf_addf(&msg, "%s/msg", in->dir.buf);
	strbuf_addf(&patch, "%s/patch", in->dir.buf);
	strbuf_addf(&mended, "%s/mended", in->dir.buf);
	for (;;) {
		struct child_process cp = CHILD_PROCESS_INIT;
		struct str b;

		strvec_pushl(&cp.args, "-c", "i18n.commitEncoding=UTF-8",
			     "mailinfo", "-k", recode, "--no-scissors",
			     "--no-inbody-headers", "--quoted-cr=strip",
			     msg.buf, patch.buf, NULL);
		cp.in = path;
		cp.out = &info;
		cp.err = &err;
		rc = run_git(&cp);
		if (rc && !strcmp(recode, "-u")) {
			/*
			 * A charset iconv does not know (such as "y",
			 * typed at git send-email's question): once more,
			 * the text as it is
			 */
			recode = "-n";
			strbuf_reset(&info);
			strbuf_reset(&err);
			continue;
		}
		if (rc) {
			if (!m->too_large)
				m->error = "git mailinfo cannot read it";
			break;
		}
		if (m->too_large) {
			parse_info(m, &info);
			break;
		}
		read_file(&m->text, msg.buf);
		read_file(&m->text, patch.buf);
		b = undecoded_boundary(&m->text);
		if (!b.len || ++tries == MAX_NESTING ||
		    mend_boundary(path, b, mended.buf)) {
			parse_info(m, &info);
			break;
		}
		path = mended.buf;
		strbuf_reset(&m->text);
		strbuf_reset(&info);
		strbuf_reset(&err);
	}
	strbuf_release(&info);
	strbuf_release(&err);
	strbuf_release(&msg);
	strbuf_release(&patch);
	strbuf_release(&mended);
}

int mail_next(struct mail_input *in, struct mail *m)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;

	if (in->fd < 0 && in->number >= in->maildir_nr)
		in->done = 1;
	if (in->done && in->number)
		return 0;
	m->number = ++in->number;
	if (in->done)
		return 1;	/* an empty input: one empty message */
	if (in->fd < 0) {
		strbuf_addf(&path, "%s/split/%04zu", in->dir.buf, m->number);
		if (stat(path.buf, &st) < 0)
			die_errno("cannot stat '%s'", path.buf);
		if ((size_t)st.st_size > in->max_size) {
			m->too_large = 1;
			m->error = too_large;
		} else {
			decode(in, path.buf, m);
		}
	} else {
		strbuf_addf(&path, "%s/message", in->dir.buf);
		split_one(in, path.buf, m);
		decode(in, path.buf, m);
	}
	strbuf_release(&path);
	return 1;
}

int mail_pending(const struct mail_input *in)
{
	return in->fd < 0 ? in->number < in->maildir_nr : !in->done;
}

void mail_close(struct mail_input *in)
{
	if (in->fd > 0)
		close(in->fd);
	free(in->buf);
	strbuf_release(&in->line);
	strbuf_release(&in->dir);
	memset(in, 0, sizeof(*in));
}

void mail_release(struct mail *m)
{
	strbuf_release(&m->subject);
	strbuf_release(&m->from);
	strbuf_release(&m->date);
	strbuf_release(&m->text);
	*m = (struct mail)MAIL_INIT;
}
