#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conflicts.h"
#include "quote.h"

struct label {				/* a path and one kind of conflict */
	struct mtree_str path, kind;
	size_t order;			/* position among the records */
};

struct item {				/* a conflicted path */
	struct mtree_str path;
	unsigned stages;		/* bit n: stage n is in the index */
	int gitlink;			/* one of them is a submodule */
};

static int cmp_str(struct mtree_str a, struct mtree_str b)
{
	int c = memcmp(a.s, b.s, a.len < b.len ? a.len : b.len);

	return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int cmp_label(const void *va, const void *vb)
{
	const struct label *a = va, *b = vb;
	int c = cmp_str(a->path, b->path);

	return c ? c : (a->order > b->order) - (a->order < b->order);
}

static int cmp_item(const void *va, const void *vb)
{
	const struct item *a = va, *b = vb;

	return cmp_str(a->path, b->path);
}

/*
 * The conflicted paths, sorted, each once: those with higher stages,
 * and the first path of every conflict record, since some conflicts (a
 * directory rename split, say) leave no stage behind.
 */
static struct item *conflicted_paths(const struct mtree_result *res,
				     size_t *nr)
{
	struct item *item = xmalloc((res->nr_entries + res->nr_messages + 1) *
				    sizeof(*item));
	size_t i, n = 0, k = 0;

	for (i = 0; i < res->nr_entries; i++) {
		item[n].path = res->entries[i].path;
		item[n].stages = 1u << res->entries[i].stage;
		item[n++].gitlink = res->entries[i].mode == 0160000;
	}
	for (i = 0; i < res->nr_messages; i++)
		if (mtree_is_conflict(&res->messages[i]) &&
		    res->messages[i].nr_paths) {
			item[n].path = res->messages[i].paths[0];
			item[n].stages = 0;
			item[n++].gitlink = 0;
		}
	if (n)
		qsort(item, n, sizeof(*item), cmp_item);
	for (i = 0; i < n; i++) {
		if (k && !cmp_str(item[k - 1].path, item[i].path)) {
			item[k - 1].stages |= item[i].stages;
			item[k - 1].gitlink |= item[i].gitlink;
		} else {
			item[k++] = item[i];
		}
	}
	*nr = k;
	return item;
}

static const struct item *find_item(const struct item *item, size_t nr,
				    struct mtree_str path)
{
	struct item key = { { NULL, 0 }, 0, 0 };

	key.path = path;
	return nr ? bsearch(&key, item, nr, sizeof(*item), cmp_item) : NULL;
}

/* Every (path, kind) pair the conflict records name, sorted by path. */
static struct label *collect(const struct mtree_result *res,
			     const struct item *item, size_t nr_items,
			     size_t *nr)
{
	struct label *l = NULL;
	size_t i, j, n = 0, alloc = 0;

	for (i = 0; i < res->nr_messages; i++) {
		const struct mtree_message *m = &res->messages[i];
		const struct item *it;
		struct mtree_str kind;

		if (!mtree_is_conflict(m) || !m->nr_paths)
			continue;
		it = find_item(item, nr_items, m->paths[0]);
		kind = mtree_conflict_label(m, it ? it->stages : 0,
					    it && it->gitlink);
		if (!kind.len)
			continue;
		for (j = 0; j < m->nr_paths; j++) {
			ALLOC_GROW(l, n, alloc);
			l[n].path = m->paths[j];
			l[n].kind = kind;
			l[n].order = n;
			n++;
		}
	}
	if (n)
		qsort(l, n, sizeof(*l), cmp_label);
	*nr = n;
	return l;
}

/* The first label of path, or NULL. */
static const struct label *find(const struct label *l, size_t nr,
				struct mtree_str path)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_str(l[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && !cmp_str(l[lo].path, path) ? &l[lo] : NULL;
}

/* Without records (git 2.38), tell the kind from the stages present. */
static const char *kind_from_stages(unsigned stages)
{
	switch (stages) {
	case 1u << 1 | 1u << 2 | 1u << 3:
		return "content";
	case 1u << 2 | 1u << 3:
		return "add/add";
	case 1u << 1 | 1u << 2:
	case 1u << 1 | 1u << 3:
		return "modify/delete";
	default:
		return "conflict";
	}
}

static void add_path(struct strbuf *line, const struct item *item,
		     const struct label *l, size_t nr, int quote_high)
{
	struct mtree_str path = item->path;
	const struct label *p = find(l, nr, path), *q;

	strbuf_addstr(line, "  ");
	quote_c_style(line, path.s, path.len, quote_high);
	strbuf_addstr(line, " (");
	if (!p)
		strbuf_addstr(line, kind_from_stages(item->stages));
	for (q = p; q && q < l + nr && !cmp_str(q->path, path); q++) {
		const struct label *seen;

		for (seen = p; seen < q; seen++)
			if (!cmp_str(seen->kind, q->kind))
				break;
		if (seen < q)
			continue;
		if (q != p)
			strbuf_addstr(line, ", ");
		strbuf_add(line, q->kind.s, q->kind.len);
	}
	strbuf_addstr(line, ")\n");
}

void conflict_lines(struct strbuf *sb, const struct mtree_result *res)
{
	int quote_high = quote_path_config();
	size_t nr_items, nr, i;
	struct item *item = conflicted_paths(res, &nr_items);
	struct label *l = collect(res, item, nr_items, &nr);

	for (i = 0; i < nr_items; i++)
		add_path(sb, &item[i], l, nr, quote_high);
	free(item);
	free(l);
}

void report_conflicts(const struct pull *p, const struct mtree_result *res)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "warning: merging '%s' into '%s' conflicts; the "
		    "counts of conflicted files include conflict markers:\n",
		    p->head.name, p->upstream.name);
	conflict_lines(&sb, res);
	fputs(sb.buf, stderr);
	fflush(stderr);
	strbuf_release(&sb);
}
