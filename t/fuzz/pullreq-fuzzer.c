// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for lib/pullreq.c and lib/stat.c: find the pull
 * request in the input as a decoded text, and read every byte of every
 * string of the result, so that ASan catches one that points at freed
 * or foreign memory; check what the header promises (an error or a
 * request, a request has rows that add up unless it says they do not,
 * or says it has its totals alone);
 * then put what it found through the URL and ref checks
 * (lib/fetchgate.c), match its rows (lib/match.c) against files named
 * as their paths say, and put the input itself, cut at its first two
 * NULs, through stat_name() (the pointer walks of pprint_rename()).
 */
#include "fuzz.h"
#include "../../lib/fetchgate.h"
#include "../../lib/match.h"
#include "../../lib/pullreq.h"

static void walk(struct str s)
{
	fuzz_read(s.s, s.len);
}

static void names(struct str name, struct str path,
		  struct str from)
{
	walk(name);
	walk(path);
	walk(from);
}

/* The rows matched against files at their paths, as a diff names them. */
static void match_paths(const struct pullreq *r)
{
	const struct pullreq_block *b = &r->block;
	struct numstat ns;
	struct match mt;
	size_t i;

	ns.file = calloc(b->nr_rows + 1, sizeof(*ns.file));
	if (!ns.file)
		return;
	for (i = 0; i < b->nr_rows; i++) {
		ns.file[i].added = b->row[i].changes;
		ns.file[i].path = b->row[i].path.s;
		ns.file[i].path_len = b->row[i].path.len;
		ns.file[i].from = b->row[i].from.s;
		ns.file[i].from_len = b->row[i].from.len;
	}
	ns.nr = b->nr_rows;
	match_rows(r, &ns, &mt);
	fuzz_sink ^= (unsigned char)mt.differences;
	match_release(&mt);
	free(ns.file);
}

static void check_request(const struct pullreq *r)
{
	const struct pullreq_block *b = &r->block;
	size_t i, files = 0;

	walk(r->base);
	walk(r->base_subject);
	walk(r->url);
	walk(r->ref);
	walk(r->tip);
	walk(r->tip_subject);
	walk(r->tag_message);
	walk(r->description);
	walk(b->shortlog);
	/* rows, or the totals line alone; no base only where no "since"
	   line was, which is damage */
	if ((r->base.len && r->base.len < 7) ||
	    (!r->base.len && !(r->damage & PULLREQ_HEADER)) ||
	    r->tip.len < 7 || !r->url.len || !b->nr_rows != !!b->totals_only)
		abort();
	fuzz_sink ^= (unsigned char)fetchgate_check_url(r->url.s, r->url.len, 0,
						 NULL, NULL);
	if (r->ref.len)
		fuzz_sink ^= (unsigned char)fetchgate_check_ref(r->ref.s, r->ref.len,
							 NULL);
	for (i = 0; i < b->nr_rows; i++) {
		const struct stat_row *row = &b->row[i];

		if (!row->name.len ||
		    (row->abbreviated && (row->path.len || row->from.len)))
			abort();
		if (row->kind != STAT_ROW_UNMERGED)
			files++;
		names(row->name, row->path, row->from);
	}
	match_paths(r);
	if (!b->rows_uneven && !b->totals_missing && !b->totals_only &&
	    (b->rows_cut ? files >= (size_t)b->files :
			   files != (size_t)b->files))
		abort();
	if (b->totals_missing && files != (size_t)b->files)
		abort();
	for (i = 0; i < b->nr_authors; i++) {
		size_t j;

		walk(b->author[i].name);
		for (j = 0; j < b->author[i].nr_subjects; j++)
			walk(b->author[i].subject[j]);
	}
	for (i = 0; i < r->nr_extra_blocks; i++) {
		size_t j;

		walk(r->extra[i].shortlog);
		for (j = 0; j < r->extra[i].nr_rows; j++)
			names(r->extra[i].row[j].name, r->extra[i].row[j].path,
			      r->extra[i].row[j].from);
	}
	for (i = 0; i < b->nr_summary; i++)
		names(b->summary[i].name, b->summary[i].path,
		      b->summary[i].from);
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
	name = stat_name(nul1 + 1, n2, nul2 ? nul2 + 1 : NULL, n3, (int)(n1 % 2),
			 &out);
	if (name) {
		if (strlen(name) != out)
			abort();
		free(name);
	}
	fuzz_sink ^= (unsigned char)fetchgate_check_url(buf, n1, 1, NULL, NULL);
	fuzz_sink ^= (unsigned char)fetchgate_check_ref(buf, n1, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pullreq req;
	const char *err;
	char *buf = fuzz_copy(data, size);

	if (!buf)
		return 0;
	err = pullreq_find(buf, size, &req);
	if (err) {
		/* the header alone, or nothing */
		if (req.block.nr_rows || req.block.row || req.extra ||
		    req.description.len || (req.url.len && !req.tip.len))
			abort();
	} else {
		check_request(&req);
	}
	pullreq_release(&req);
	matcher(buf, size);
	free(buf);
	return 0;
}
