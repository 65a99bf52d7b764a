// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test driver for lib/pullreq.c, lib/stat.c and the mail path
 * (lib/mail.c, lib/pullmsg.c), like git's t/helper/test-tool: each
 * subcommand runs one function and prints its result in a stable line
 * format for t/pullmsg.bats.
 *
 *	test-pullreq find <text
 *		pullreq_find() over the text as it is: the request's lines
 *		as below, or "error <what is missing>"
 *	test-pullreq mail [<file>]
 *		pullmsg_next() over the file or stdin, per request:
 *		"message <n>" (and "request <i>
 *		of <n>" when it holds several), then "<field> <value>" lines
 *		(subject, from, date; then error and "telltale" when it
 *		looks like a request, or base, url, ref, tip, tag-message,
 *		description, shortlog, "author <count> <name>" with its
 *		"  subject" lines, one "row" per stat row with its "  path"
 *		and "  from", total, totals-missing, totals-only, rows-uneven, cut,
 *		"summary" lines, patch, "damage <what>" lines, then
 *		"extra <k>" and the authors and stat of each extra block);
 *		a field's bytes are C-escaped
 *		(\n, \t, \\, \ooo), empty fields are left out
 *	test-pullreq text [<file>]
 *		mail_next(): per message "message <n>" and its decoded
 *		text, as it is
 *	test-pullreq url [--allow-local] <url>
 *		"ok <transport>", or "refused: <why>" and exit 1
 *	test-pullreq ref <ref>
 *		"ok", or "refused: <why>" and exit 1
 *	test-pullreq match <printed name> <path> [<from>]
 *		match_rows() of a row so named against the file: "exact",
 *		"abbreviated", or "no" and exit 1
 *	test-pullreq match --stdin
 *		the same for each <name> NUL <path> NUL <from> NUL on
 *		stdin (<from> empty when not a rename), a line each; exit
 *		1 when a row is "no" (check_rows asks for every row of a
 *		request at once: one process, not one a row)
 *	test-pullreq stat-name [--no-quotepath] <path> [<from>]
 *		the name git diff --stat prints for the file
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/fetchgate.h"
#include "../../lib/mail.h"
#include "../../lib/match.h"
#include "../../lib/pullmsg.h"
#include "../../lib/signals.h"

static void usage(void)
{
	fputs("usage: test-pullreq find <text\n"
	      "   or: test-pullreq mail [<file>]\n"
	      "   or: test-pullreq text [<file>]\n"
	      "   or: test-pullreq url [--allow-local] <url>\n"
	      "   or: test-pullreq ref <ref>\n"
	      "   or: test-pullreq match <name> <path> [<from>]\n"
	      "   or: test-pullreq match --stdin\n"
	      "   or: test-pullreq stat-name [--no-quotepath] <path> [<from>]\n",
	      stderr);
	exit(129);
}

static void put_escaped(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\\')
			fputs("\\\\", stdout);
		else if (ch == '\n')
			fputs("\\n", stdout);
		else if (ch == '\t')
			fputs("\\t", stdout);
		else if (ch < 0x20 || ch == 0x7f)
			printf("\\%03o", ch);
		else
			putchar(ch);
	}
}

/* "<key> <value>\n", or nothing when the value is empty. */
static void field(const char *key, struct str v)
{
	if (!v.len)
		return;
	printf("%s ", key);
	put_escaped(v.s, v.len);
	putchar('\n');
}

static void paths(struct str path, struct str from)
{
	field("  path", path);
	field("  from", from);
}

static void print_shortlog(const struct pullreq_author *a, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		printf("author %ld ", a[i].count);
		put_escaped(a[i].name.s, a[i].name.len);
		putchar('\n');
		for (j = 0; j < a[i].nr_subjects; j++)
			field("  subject", a[i].subject[j]);
	}
}

static void print_stat(const struct pullreq_block *b)
{
	static const char *const kinds[] = {
		"create", "delete", "rename", "copy", "rewrite", "mode-change"
	};
	size_t i;

	for (i = 0; i < b->nr_rows; i++) {
		const struct stat_row *row = &b->row[i];

		if (row->kind == STAT_ROW_TEXT)
			printf("row %ld ", row->changes);
		else if (row->kind == STAT_ROW_UNMERGED)
			fputs("row unmerged ", stdout);
		else if (row->old_size < 0)
			fputs("row bin ", stdout);
		else
			printf("row bin %ld %ld ", row->old_size, row->new_size);
		put_escaped(row->name.s, row->name.len);
		putchar('\n');
		paths(row->path, row->from);
	}
	printf("total %ld %ld %ld\n", b->files, b->insertions, b->deletions);
	if (b->totals_missing)
		puts("totals-missing");
	if (b->totals_only)
		puts("totals-only");
	if (b->rows_uneven)
		puts("rows-uneven");
	if (b->rows_cut)
		puts("cut");
	for (i = 0; i < b->nr_summary; i++) {
		const struct stat_summary *s = &b->summary[i];

		printf("summary %s", kinds[s->kind]);
		if (s->kind == STAT_SUMMARY_CREATE && s->new_mode)
			printf(" %06o", s->new_mode);
		if (s->kind == STAT_SUMMARY_DELETE && s->old_mode)
			printf(" %06o", s->old_mode);
		if (s->kind == STAT_SUMMARY_MODE_CHANGE)
			printf(" %06o %06o", s->old_mode, s->new_mode);
		if (s->similarity >= 0)
			printf(" %d%%", s->similarity);
		if (s->name.len)
			putchar(' ');
		put_escaped(s->name.s, s->name.len);
		putchar('\n');
		paths(s->path, s->from);
	}
}

static void print_request(const struct pullreq *r)
{
	static const char *const damage[] = {
		"spaces", "quoted", "wrapped", "header"
	};
	size_t i;

	field("base", r->base);
	field("base-subject", r->base_subject);
	field("url", r->url);
	field("ref", r->ref);
	field("tip", r->tip);
	field("tip-subject", r->tip_subject);
	field("tag-message", r->tag_message);
	field("description", r->description);
	field("shortlog", r->block.shortlog);
	print_shortlog(r->block.author, r->block.nr_authors);
	print_stat(&r->block);
	if (r->has_patch)
		puts("patch");
	for (i = 0; i < sizeof(damage) / sizeof(*damage); i++)
		if (r->damage & (1u << i))
			printf("damage %s\n", damage[i]);
	for (i = 0; i < r->nr_extra_blocks; i++) {
		printf("extra %zu\n", i + 1);
		print_shortlog(r->extra[i].author, r->extra[i].nr_authors);
		print_stat(&r->extra[i]);
	}
}

static int cmd_find(void)
{
	struct pullreq req;
	const char *err;
	char *buf = NULL;
	size_t len = 0, alloc = 0;

	for (;;) {
		size_t got;

		if (len == alloc) {
			char *grown;

			alloc = alloc ? 2 * alloc : 65536;
			grown = realloc(buf, alloc);
			if (!grown) {
				fputs("fatal: out of memory\n", stderr);
				return 128;
			}
			buf = grown;
		}
		got = fread(buf + len, 1, alloc - len, stdin);
		if (!got)
			break;
		len += got;
	}
	if (ferror(stdin)) {
		fputs("fatal: cannot read the text\n", stderr);
		return 128;
	}
	err = pullreq_find(buf, len, &req);
	if (err)
		printf("error %s\n", err);
	else
		print_request(&req);
	pullreq_release(&req);
	free(buf);
	return 0;
}

static int cmd_mail(const char *file)
{
	struct pullmsg_list list = PULLMSG_LIST_INIT;
	struct mail_input in;
	size_t i;

	mail_open(&in, file, MAIL_DEFAULT_MAX_SIZE);
	while (pullmsg_next(&in, &list)) {
		for (i = 0; i < list.nr; i++) {
			const struct pullmsg *m = &list.msg[i];

			printf("message %zu\n", m->number);
			if (m->nr_requests > 1)
				printf("request %zu of %zu\n", m->request,
				       m->nr_requests);
			field("subject", m->subject);
			field("from", m->from);
			field("date", m->date);
			if (m->error)
				printf("error %s\n", m->error);
			else
				print_request(&m->req);
			if (m->error && m->telltale)
				puts("telltale");
		}
	}
	pullmsg_release(&list);
	mail_close(&in);
	return 0;
}

static int cmd_text(const char *file)
{
	struct mail m = MAIL_INIT;
	struct mail_input in;

	mail_open(&in, file, MAIL_DEFAULT_MAX_SIZE);
	while (mail_next(&in, &m)) {
		printf("message %zu\n", m.number);
		if (m.error)
			printf("error %s\n", m.error);
		fwrite(m.text.buf, 1, m.text.len, stdout);
		mail_release(&m);
	}
	mail_close(&in);
	return 0;
}

/* Prints the verdict on the row <name> for the file; 1 when "no". */
static int match_one(const char *name, const char *path, const char *from)
{
	struct numstat_file f = { 1, 0, NULL, 0, NULL, 0 };
	struct numstat ns = { &f, 1 };
	struct stat_row row;
	struct pullreq req;
	struct match mt;
	int found;

	memset(&row, 0, sizeof(row));
	row.kind = STAT_ROW_TEXT;
	row.name = str_cstr(name);
	row.abbreviated = str_starts_with(row.name, "...");
	memset(&req, 0, sizeof(req));
	req.block.row = &row;
	req.block.nr_rows = 1;
	f.path = path;
	f.path_len = strlen(path);
	if (*from) {
		f.from = from;
		f.from_len = strlen(from);
	}
	match_rows(&req, &ns, &mt);
	found = mt.file_of[0] == 0;
	match_release(&mt);
	puts(!found ? "no" : row.abbreviated ? "abbreviated" : "exact");
	return !found;
}

/* Reads one NUL-terminated field into *buf; 0 at the end of stdin. */
static int read_field(char **buf, size_t *alloc)
{
	ssize_t len = getdelim(buf, alloc, '\0', stdin);

	if (len < 0)
		return 0;
	if (len > 0 && (*buf)[len - 1] == '\0')
		return 1;
	fputs("fatal: a field on stdin not ended by NUL\n", stderr);
	exit(128);
}

static int cmd_match_stdin(void)
{
	char *field[3] = { NULL, NULL, NULL };
	size_t alloc[3] = { 0, 0, 0 };
	int i, rc = 0;

	while (read_field(&field[0], &alloc[0])) {
		for (i = 1; i < 3; i++)
			if (!read_field(&field[i], &alloc[i])) {
				fputs("fatal: a row on stdin without its path and source\n",
				      stderr);
				exit(128);
			}
		rc |= match_one(field[0], field[1], field[2]);
	}
	for (i = 0; i < 3; i++)
		free(field[i]);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	signals_init();
	if (!strcmp(argv[1], "find") && argc == 2)
		return cmd_find();
	if (!strcmp(argv[1], "mail") && argc <= 3)
		return cmd_mail(argv[2]);
	if (!strcmp(argv[1], "text") && argc <= 3)
		return cmd_text(argv[2]);
	if (!strcmp(argv[1], "url") && (argc == 3 ||
	    (argc == 4 && !strcmp(argv[2], "--allow-local")))) {
		static const char *const names[] = {
			"https", "http", "git", "ssh", "scp", "file", "local"
		};
		enum fetchgate_transport kind;
		const char *url = argv[argc - 1], *err;

		if (fetchgate_check_url(url, strlen(url), argc == 4, &kind, &err)) {
			printf("refused: %s\n", err);
			return 1;
		}
		printf("ok %s\n", names[kind]);
		return 0;
	}
	if (!strcmp(argv[1], "ref") && argc == 3) {
		const char *err;

		if (fetchgate_check_ref(argv[2], strlen(argv[2]), &err)) {
			printf("refused: %s\n", err);
			return 1;
		}
		puts("ok");
		return 0;
	}
	if (!strcmp(argv[1], "match") && argc == 3 && !strcmp(argv[2], "--stdin"))
		return cmd_match_stdin();
	if (!strcmp(argv[1], "match") && (argc == 4 || argc == 5))
		return match_one(argv[2], argv[3], argc == 5 ? argv[4] : "");
	if (!strcmp(argv[1], "stat-name") && argc >= 3) {
		int quotepath = strcmp(argv[2], "--no-quotepath");
		int at = quotepath ? 2 : 3;
		const char *from;
		char *name;
		size_t len;

		if (argc - at < 1 || argc - at > 2)
			usage();
		from = argc - at == 2 ? argv[at + 1] : "";
		name = stat_name(argv[at], strlen(argv[at]), from, strlen(from),
				 quotepath, &len);
		if (!name) {
			fputs("fatal: out of memory\n", stderr);
			return 128;
		}
		fwrite(name, 1, len, stdout);
		putchar('\n');
		free(name);
		return 0;
	}
	usage();
	return 129;
}
