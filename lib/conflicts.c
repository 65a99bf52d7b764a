// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conflicts.h"
#include "quote.h"
#include "resolve.h"

struct label {				/* a path and one kind of conflict */
	struct str path, kind;
	size_t order;			/* position among the records */
};

struct item {				/* a conflicted path */
	struct str path;
	unsigned stages;		/* bit n: stage n is in the index */
	int gitlink;			/* one of them is a submodule */
	unsigned symlink : 1;		/* stage 2 or 3 is a symlink */
	unsigned records : 1;		/* a conflict record names it */
	unsigned contents : 1;		/* one of type "CONFLICT (contents)" */
	unsigned binary : 1;		/* one of type "CONFLICT (binary)" */
	unsigned markers : 1;		/* its merged file holds conflict markers */
};

static int cmp_str(struct str a, struct str b)
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

static int type_is(const struct mtree_message *m, const char *type)
{
	return m->type.len == strlen(type) &&
	       !memcmp(m->type.s, type, m->type.len);
}

/*
 * Does the merged file of this path hold conflict markers?  Only when a
 * content merge of text failed: the record types are untranslated, so
 * they tell it whatever the user's language; without records (git 2.38
 * may give them as one block of text) both sides' stages tell it.  A
 * binary file, a symlink and a submodule keep one side's version.
 */
static int has_markers(const struct item *it)
{
	const unsigned both = 1u << 2 | 1u << 3;

	if (it->symlink || it->gitlink)
		return 0;
	if (it->records)
		return it->contents && !it->binary;
	return (it->stages & both) == both;
}

/*
 * The conflicted paths, sorted, each once: those with higher stages,
 * and the first path of every conflict record, since some conflicts (a
 * directory rename split, say) leave no stage behind.
 */
static struct item *conflicted_paths(const struct mtree_result *res,
				     size_t *nr)
{
	size_t size = (res->nr_entries + res->nr_messages + 1) * sizeof(struct item);
	struct item *item = memset(xmalloc(size), 0, size);
	size_t i, n = 0, k = 0;

	for (i = 0; i < res->nr_entries; i++) {
		const struct mtree_entry *e = &res->entries[i];

		item[n].path = e->path;
		item[n].stages = 1u << e->stage;
		item[n].symlink = e->stage > 1 && e->mode == 0120000;
		item[n++].gitlink = e->mode == 0160000;
	}
	for (i = 0; i < res->nr_messages; i++) {
		const struct mtree_message *m = &res->messages[i];

		if (!mtree_is_conflict(m) || !m->nr_paths)
			continue;
		item[n].path = m->paths[0];
		item[n].records = 1;
		item[n].contents = type_is(m, "CONFLICT (contents)");
		item[n++].binary = type_is(m, "CONFLICT (binary)");
	}
	if (n)
		qsort(item, n, sizeof(*item), cmp_item);
	for (i = 0; i < n; i++) {
		if (k && !cmp_str(item[k - 1].path, item[i].path)) {
			struct item *it = &item[k - 1];

			it->stages |= item[i].stages;
			it->gitlink |= item[i].gitlink;
			it->symlink |= item[i].symlink;
			it->records |= item[i].records;
			it->contents |= item[i].contents;
			it->binary |= item[i].binary;
		} else {
			item[k++] = item[i];
		}
	}
	for (i = 0; i < k; i++)
		item[i].markers = has_markers(&item[i]);
	*nr = k;
	return item;
}

static const struct item *find_item(const struct item *item, size_t nr,
				    struct str path)
{
	struct item key;

	memset(&key, 0, sizeof(key));
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
		struct str kind;

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
static const struct label *find_label(const struct label *l, size_t nr,
				      struct str path)
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
		     const struct label *l, size_t nr, int note_markers,
		     int quote_high)
{
	struct str path = item->path;
	const struct label *p = find_label(l, nr, path), *q;

	strbuf_addstr(line, "  ");
	quote_c_style(line, path.s, path.len, quote_high);
	strbuf_addstr(line, " (");
	if (!p)
		strbuf_addstr(line, item->symlink ? "symlink" :
			      kind_from_stages(item->stages));
	for (q = p; q && q < l + nr && !cmp_str(q->path, path); q++) {
		const struct label *seen;

		for (seen = p; seen < q; seen++)
			if (!cmp_str(seen->kind, q->kind))
				break;
		if (seen < q)
			continue;
		if (q != p)
			strbuf_addstr(line, ", ");
		/* git says "content" for symlinks, which get no markers */
		if (item->symlink && q->kind.len == 7 &&
		    !memcmp(q->kind.s, "content", 7))
			strbuf_addstr(line, "symlink");
		else
			strbuf_add(line, q->kind.s, q->kind.len);
	}
	if (note_markers && item->markers)
		strbuf_addstr(line, ", with conflict markers");
	strbuf_addstr(line, ")\n");
}

enum markers conflict_lines(struct strbuf *sb, const struct pull *p,
			    const struct mtree_result *res)
{
	int quote_high = p->quote_path;
	size_t nr_items, nr, i, nr_markers = 0;
	struct item *item = conflicted_paths(res, &nr_items);
	struct label *l = collect(res, item, nr_items, &nr);
	enum markers markers;

	for (i = 0; i < nr_items; i++)
		nr_markers += item[i].markers;
	markers = !nr_markers ? MARKERS_NONE :
		  nr_markers == nr_items ? MARKERS_ALL : MARKERS_SOME;
	for (i = 0; i < nr_items; i++)
		add_path(sb, &item[i], l, nr, markers == MARKERS_SOME,
			 quote_high);
	free(item);
	free(l);
	return markers;
}

void report_conflicts(const struct pull *p, const struct mtree_result *res)
{
	static const char *const about_markers[] = {
		"",
		"; the counts of files listed with conflict markers include them",
		"; the counts of conflicted files include conflict markers",
	};
	struct strbuf sb = STRBUF_INIT, lines = STRBUF_INIT;
	enum markers markers = conflict_lines(&lines, p, res);

	strbuf_addf(&sb, "warning: merging '%s' into '%s' conflicts%s:\n",
		    p->head.name, p->upstream.name, about_markers[markers]);
	strbuf_add(&sb, lines.buf, lines.len);
	fputs(sb.buf, stderr);
	fflush(stderr);
	strbuf_release(&sb);
	strbuf_release(&lines);
}
