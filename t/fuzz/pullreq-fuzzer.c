/*
 * libFuzzer target for lib/pullmsg.c: parse the input as a mail (a
 * plain body, a message or an mbox) and read every byte of every string
 * of the result, so that ASan catches one that points at freed or
 * foreign memory; check what the header promises (a message has an
 * error or a request, a request has rows that add up); then put what
 * the parse found through the URL and ref checks and the name matcher,
 * and the input itself, cut at its first two NULs, through the matcher
 * and pullmsg_stat_name() (the pointer walks of pprint_rename()).
 */
#include "fuzz.h"
#include "../../lib/pullmsg.h"

static void walk(struct pullmsg_str s)
{
	fuzz_read(s.s, s.len);
}

static void names(struct pullmsg_str name, struct pullmsg_str path,
		  struct pullmsg_str from)
{
	walk(name);
	walk(path);
	walk(from);
	if (path.len)
		fuzz_sink ^= (unsigned char)pullmsg_name_matches(name.s, name.len,
			path.s, path.len, from.s, from.len);
}

static void check_request(const struct pullmsg_request *r)
{
	size_t i, files = 0;

	walk(r->base);
	walk(r->base_subject);
	walk(r->url);
	walk(r->ref);
	walk(r->tip);
	walk(r->tip_subject);
	walk(r->tag_message);
	walk(r->description);
	walk(r->shortlog);
	if (r->base.len < 7 || r->tip.len < 7 || !r->url.len || !r->nr_rows)
		abort();
	fuzz_sink ^= (unsigned char)pullmsg_check_url(r->url.s, r->url.len, 0,
						 NULL, NULL);
	if (r->ref.len)
		fuzz_sink ^= (unsigned char)pullmsg_check_ref(r->ref.s, r->ref.len,
							 NULL);
	for (i = 0; i < r->nr_rows; i++) {
		const struct pullmsg_row *row = &r->row[i];

		if (!row->name.len ||
		    (row->abbreviated && (row->path.len || row->from.len)))
			abort();
		if (row->kind != PULLMSG_ROW_UNMERGED)
			files++;
		names(row->name, row->path, row->from);
	}
	if (r->rows_cut ? files >= (size_t)r->files : files != (size_t)r->files)
		abort();
	for (i = 0; i < r->nr_summary; i++)
		names(r->summary[i].name, r->summary[i].path,
		      r->summary[i].from);
}

/* The input cut at its first two NULs: a name, a path, a source. */
static void matcher(const char *buf, size_t len)
{
	const char *nul1 = memchr(buf, '\0', len), *nul2;
	size_t n1, n2, n3, out;
	char *name;

	if (!nul1)
		return;
	n1 = (size_t)(nul1 - buf);
	nul2 = memchr(nul1 + 1, '\0', len - n1 - 1);
	n2 = nul2 ? (size_t)(nul2 - nul1 - 1) : len - n1 - 1;
	n3 = nul2 ? len - n1 - n2 - 2 : 0;
	fuzz_sink ^= (unsigned char)pullmsg_name_matches(buf, n1, nul1 + 1, n2,
						    nul2 ? nul2 + 1 : NULL, n3);
	name = pullmsg_stat_name(nul1 + 1, n2, nul2 ? nul2 + 1 : NULL, n3,
				 (int)(n1 % 2), &out);
	if (name) {
		if (strlen(name) != out)
			abort();
		free(name);
	}
	fuzz_sink ^= (unsigned char)pullmsg_check_url(buf, n1, 1, NULL, NULL);
	fuzz_sink ^= (unsigned char)pullmsg_check_ref(buf, n1, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pullmsg_list list = PULLMSG_LIST_INIT;
	const char *err = NULL;
	char *buf = fuzz_copy(data, size);
	size_t i;

	if (!buf)
		return 0;
	if (pullmsg_parse(buf, size, &list, &err)) {
		if (!err || list.msg || list.nr)
			abort();
		free(buf);
		return 0;
	}
	matcher(buf, size);
	free(buf);		/* the result must not point into it */
	if (!list.nr)
		abort();
	for (i = 0; i < list.nr; i++) {
		const struct pullmsg *m = &list.msg[i];

		if (m->number != i + 1)
			abort();
		walk(m->subject);
		walk(m->from);
		walk(m->message_id);
		walk(m->date);
		if (m->error) {
			if (m->req.nr_rows || m->req.row || m->req.base.len)
				abort();
		} else {
			check_request(&m->req);
		}
	}
	pullmsg_release(&list);
	return 0;
}
