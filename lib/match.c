// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "usage.h"

int match_same_numbers(const struct stat_row *r, const struct numstat_file *f)
{
	if (r->kind == STAT_ROW_BINARY)
		return f->added < 0;
	if (r->kind == STAT_ROW_TEXT)
		return f->added >= 0 && r->changes == f->added + f->deleted;
	return 0;
}

/* What the numbers of a file or a row sort by: binary -1, text N. */
static long class_of_file(const struct numstat_file *f)
{
	return f->added < 0 ? -1 : f->added + f->deleted;
}

/* A name a file is printed with, forwards or backwards. */
struct entry {
	const char *s;
	size_t len;
	long class;			/* or 0 in an index of every class */
	size_t file;
};

/* Names sorted, and the least free file of any range of them. */
struct index {
	struct entry *e;
	size_t nr, size;
	size_t *tree;			/* a segment tree of file numbers */
};

#define NONE ((size_t)-1)

static int cmp_key(const struct entry *a, long class, const char *s, size_t len)
{
	size_t n = a->len < len ? a->len : len;
	int c;

	if (a->class != class)
		return a->class < class ? -1 : 1;
	c = memcmp(a->s, s, n);
	if (c)
		return c;
	return a->len < len ? -1 : a->len > len;
}

static int cmp_entry(const void *va, const void *vb)
{
	const struct entry *a = va, *b = vb;
	int c = cmp_key(a, b->class, b->s, b->len);

	return c ? c : (a->file > b->file) - (a->file < b->file);
}

static size_t tree_min(const struct index *x, size_t node, size_t lo,
		       size_t hi, size_t from, size_t to, size_t *at)
{
	size_t mid, l, r, la = 0, ra = 0;

	if (to <= lo || hi <= from || x->tree[node] == NONE)
		return NONE;
	if (hi - lo == 1) {
		*at = lo;
		return x->tree[node];
	}
	mid = lo + (hi - lo) / 2;
	l = tree_min(x, 2 * node, lo, mid, from, to, &la);
	r = tree_min(x, 2 * node + 1, mid, hi, from, to, &ra);
	if (l == NONE || (r != NONE && r < l)) {
		*at = ra;
		return r;
	}
	*at = la;
	return l;
}

/* Node i of the tree: the lesser of its children's minima. */
static void tree_pull(struct index *x, size_t i)
{
	size_t a = x->tree[2 * i], b = x->tree[2 * i + 1];

	x->tree[i] = a == NONE || (b != NONE && b < a) ? b : a;
}

/* Free no more: the leaf at pos, and the minima above it. */
static void tree_clear(struct index *x, size_t pos)
{
	size_t i = x->size + pos;

	x->tree[i] = NONE;
	for (i /= 2; i; i /= 2)
		tree_pull(x, i);
}

static void index_build(struct index *x)
{
	size_t i;

	qsort(x->e, x->nr, sizeof(*x->e), cmp_entry);
	for (x->size = 1; x->size < x->nr; x->size *= 2)
		;
	x->tree = xmalloc(2 * x->size * sizeof(*x->tree));
	for (i = 0; i < x->size; i++)
		x->tree[x->size + i] = i < x->nr ? x->e[i].file : NONE;
	for (i = x->size - 1; i >= 1; i--)
		tree_pull(x, i);
}

/*
 * The first entry not less than the key, or strictly greater (above);
 * with prefix, the entries that start with the key count as equal to it.
 */
static size_t bound(const struct index *x, long class, const char *s,
		    size_t len, int above, int prefix)
{
	size_t lo = 0, hi = x->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct entry e = x->e[mid];
		int c;

		if (prefix && e.len > len)
			e.len = len;
		c = cmp_key(&e, class, s, len);
		if (c < 0 || (above && !c))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The least free file among entries [from, to), or NONE. */
static size_t least_free(struct index *x, size_t from, size_t to,
			 const char *used)
{
	size_t at, j;

	while (from < to && (j = tree_min(x, 1, 0, x->size, from, to, &at)) != NONE) {
		if (!used[j])
			return j;
		tree_clear(x, at);
	}
	return NONE;
}

static char *reversed(const char *s, size_t len)
{
	char *r = xmalloc(len + 1);
	size_t i;

	for (i = 0; i < len; i++)
		r[i] = s[len - 1 - i];
	r[len] = '\0';
	return r;
}

static size_t trimmed(const char *s, size_t len)
{
	while (len && s[len - 1] == ' ')
		len--;
	return len;
}

/*
 * index[0], [1]: whole names, of every class and by class; [2], [3]:
 * the same reversed, for tails.
 */
struct indexes {
	struct index x[4];
	char **owned;
	size_t nr_owned;
};

static void add_entry(struct index *x, const char *s, size_t len, long class,
		      size_t file)
{
	x->e[x->nr++] = (struct entry){ s, len, class, file };
}

static void indexes_build(struct indexes *ix, const struct numstat *ns)
{
	size_t j, k;
	int q;

	memset(ix, 0, sizeof(*ix));
	ix->owned = xmalloc((4 * ns->nr + 1) * sizeof(*ix->owned));
	for (k = 0; k < 4; k++)
		ix->x[k].e = xmalloc((2 * ns->nr + 1) * sizeof(*ix->x[k].e));
	for (j = 0; j < ns->nr; j++) {
		const struct numstat_file *f = &ns->file[j];
		char *name[2];
		size_t len[2];

		for (q = 0; q < 2; q++) {
			char *rev;

			name[q] = stat_name(f->path, f->path_len,
						    f->from, f->from ? f->from_len : 0,
						    !q, &len[q]);
			if (!name[q])
				die("out of memory");
			len[q] = trimmed(name[q], len[q]);
			ix->owned[ix->nr_owned++] = name[q];
			if (q && len[1] == len[0] && !memcmp(name[0], name[1], len[0]))
				break;	/* no byte that core.quotePath quotes */
			rev = reversed(name[q], len[q]);
			ix->owned[ix->nr_owned++] = rev;
			add_entry(&ix->x[0], name[q], len[q], 0, j);
			add_entry(&ix->x[1], name[q], len[q], class_of_file(f), j);
			add_entry(&ix->x[2], rev, len[q], 0, j);
			add_entry(&ix->x[3], rev, len[q], class_of_file(f), j);
		}
	}
	for (k = 0; k < 4; k++)
		index_build(&ix->x[k]);
}

static void indexes_release(struct indexes *ix)
{
	size_t k;

	for (k = 0; k < 4; k++) {
		free(ix->x[k].e);
		free(ix->x[k].tree);
	}
	for (k = 0; k < ix->nr_owned; k++)
		free(ix->owned[k]);
	free(ix->owned);
}

/* The free file row r stands for, by whole name or tail, or NONE. */
static size_t find_file(struct indexes *ix, const struct stat_row *r,
			int same_numbers, const char *used)
{
	long class = r->kind == STAT_ROW_BINARY ? -1 : r->changes;
	size_t len = trimmed(r->name.s, r->name.len), lo, hi, j, k;
	struct index *x;
	char *tail;

	if (same_numbers && r->kind == STAT_ROW_UNMERGED)
		return NONE;
	if (!same_numbers)
		class = 0;
	x = &ix->x[same_numbers ? 1 : 0];
	lo = bound(x, class, r->name.s, len, 0, 0);
	hi = bound(x, class, r->name.s, len, 1, 0);
	j = least_free(x, lo, hi, used);
	/*
	 * git cut the name at a column, then at a '/' after it: the tail
	 * ends a longer name, and starts at a '/' or has none.
	 */
	if (!r->abbreviated || len < 3 ||
	    (len > 3 && r->name.s[3] != '/' &&
	     memchr(r->name.s + 3, '/', len - 3)))
		return j;
	tail = reversed(r->name.s + 3, len - 3);
	x = &ix->x[same_numbers ? 3 : 2];
	lo = bound(x, class, tail, len - 3, 1, 0);
	hi = bound(x, class, tail, len - 3, 1, 1);
	k = least_free(x, lo, hi, used);
	free(tail);
	return k < j ? k : j;
}

void match_rows(const struct pullreq *req, const struct numstat *ns,
		struct match *mt)
{
	const struct pullreq_block *b = &req->block;
	struct indexes ix;
	size_t i, j;
	int pass;

	mt->file_of = xmalloc((b->nr_rows + 1) * sizeof(*mt->file_of));
	mt->used = xmalloc(ns->nr + 1);
	memset(mt->used, 0, ns->nr + 1);
	for (i = 0; i < b->nr_rows; i++)
		mt->file_of[i] = -1;
	indexes_build(&ix, ns);
	for (pass = 0; pass < 4; pass++)
		for (i = 0; i < b->nr_rows; i++) {
			const struct stat_row *r = &b->row[i];

			if (mt->file_of[i] >= 0 || r->abbreviated != pass / 2)
				continue;
			j = find_file(&ix, r, pass % 2 == 0, mt->used);
			if (j == NONE)
				continue;
			mt->file_of[i] = (long)j;
			mt->used[j] = 1;
		}
	indexes_release(&ix);
	mt->differences = 0;
	for (i = 0; i < b->nr_rows; i++)
		if (mt->file_of[i] < 0 ||
		    !match_same_numbers(&b->row[i], &ns->file[mt->file_of[i]]))
			mt->differences++;
	for (j = 0; j < ns->nr; j++)
		if (!mt->used[j] && !b->rows_cut && !b->totals_only)
			mt->differences++;
}

void match_release(struct match *mt)
{
	free(mt->file_of);
	free(mt->used);
}
