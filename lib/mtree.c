// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "mtree.h"

struct cursor {
	const char *p, *end;
};

/* Take the next NUL-terminated field; 0 when there is no NUL left. */
static int next_field(struct cursor *c, struct str *out)
{
	const char *nul = memchr(c->p, '\0', (size_t)(c->end - c->p));

	if (!nul)
		return 0;
	out->s = c->p;
	out->len = (size_t)(nul - c->p);
	c->p = nul + 1;
	return 1;
}

/* Parse a decimal number of at most max; -1 when it is not one. */
static long parse_decimal(struct str f, long max)
{
	long n = 0;
	size_t i;

	if (!f.len || f.len > 9)
		return -1;
	for (i = 0; i < f.len; i++) {
		if (f.s[i] < '0' || f.s[i] > '9')
			return -1;
		n = n * 10 + (f.s[i] - '0');
	}
	return n <= max ? n : -1;
}

/* "<mode> <oid> <stage>\t<path>" */
static int parse_entry(struct str f, struct mtree_entry *e)
{
	const char *p = f.s, *end = f.s + f.len;
	unsigned mode = 0;
	int digits = 0;

	for (; p < end && *p >= '0' && *p <= '7'; p++, digits++)
		mode = mode * 8 + (unsigned)(*p - '0');
	if (digits != 6 || p == end || *p++ != ' ')
		return -1;
	e->mode = mode;
	e->oid.s = p;
	while (p < end && *p != ' ')
		p++;
	e->oid.len = (size_t)(p - e->oid.s);
	if (!is_oid(e->oid.s, e->oid.len) || end - p < 3 || p[0] != ' ' ||
	    p[1] < '1' || p[1] > '3' || p[2] != '\t')
		return -1;
	e->stage = p[1] - '0';
	e->path.s = p + 3;
	e->path.len = (size_t)(end - e->path.s);
	return e->path.len ? 0 : -1;
}

static int parse_messages(struct cursor *c, struct mtree_result *res,
			  const char **err)
{
	size_t alloc = 0;

	while (c->p < c->end) {
		struct mtree_message *m;
		struct str f;
		long n, i;

		if (!memchr(c->p, '\0', (size_t)(c->end - c->p))) {
			/*
			 * Text without any NUL: git 2.38's whole messages
			 * section, or the advice on submodules that git 2.39
			 * prints after the records.
			 */
			res->freeform.s = c->p;
			res->freeform.len = (size_t)(c->end - c->p);
			c->p = c->end;
			break;
		}

		if (grow_array((void **)&res->messages, res->nr_messages, &alloc,
			       sizeof(*res->messages))) {
			*err = "out of memory";
			return -1;
		}
		m = &res->messages[res->nr_messages];
		memset(m, 0, sizeof(*m));
		if (!next_field(c, &f) ||
		    (n = parse_decimal(f, (long)(c->end - c->p))) < 0) {
			*err = "bad path count in a message record";
			return -1;
		}
		res->nr_messages++;
		if (n) {
			m->paths = calloc((size_t)n, sizeof(*m->paths));
			if (!m->paths) {
				*err = "out of memory";
				return -1;
			}
		}
		for (i = 0; i < n; i++, m->nr_paths++)
			if (!next_field(c, &m->paths[i])) {
				*err = "truncated path list in a message record";
				return -1;
			}
		if (!next_field(c, &m->type) || !next_field(c, &m->text)) {
			*err = "truncated message record";
			return -1;
		}
	}
	return 0;
}

/* merge-tree's own output, from its tree id at start to end */
static int parse_result(const char *start, const char *end,
			struct mtree_result *res, const char **err)
{
	struct cursor c;
	struct str f;
	size_t alloc = 0;

	memset(res, 0, sizeof(*res));
	c.p = start;
	c.end = end;
	if (!next_field(&c, &res->tree) || !is_oid(res->tree.s, res->tree.len)) {
		*err = "no tree id at the start";
		goto fail;
	}
	while (c.p < c.end) {
		if (!next_field(&c, &f)) {
			*err = "conflicted file info not ended by NUL";
			goto fail;
		}
		if (!f.len) {
			if (parse_messages(&c, res, err))
				goto fail;
			break;
		}
		if (grow_array((void **)&res->entries, res->nr_entries, &alloc,
			       sizeof(*res->entries))) {
			*err = "out of memory";
			goto fail;
		}
		if (parse_entry(f, &res->entries[res->nr_entries])) {
			*err = "malformed conflicted file info entry";
			goto fail;
		}
		res->nr_entries++;
	}
	return 0;
fail:
	mtree_release(res);
	return -1;
}

int mtree_parse(const char *buf, size_t len, size_t id_len,
		struct mtree_result *res, const char **err)
{
	const char *p, *end, *nul, *first_err = NULL;
	const char *dummy;

	if (!err)
		err = &dummy;
	memset(res, 0, sizeof(*res));
	if (!buf || (id_len != 40 && id_len != 64)) {
		*err = "no tree id";
		return -1;
	}
	p = buf;
	end = buf + len;
	/*
	 * The tree id ends at the first NUL, after what merge drivers
	 * wrote; at a later one only if what they wrote had NULs in it.
	 */
	for (; (nul = memchr(p, '\0', (size_t)(end - p))); p = nul + 1) {
		const char *start;

		if ((size_t)(nul - buf) < id_len || !is_oid(nul - id_len, id_len))
			continue;
		start = nul - id_len;
		if (!parse_result(start, end, res, err)) {
			res->prelude.s = buf;
			res->prelude.len = (size_t)(start - buf);
			return 0;
		}
		if (!first_err)
			first_err = *err;
	}
	*err = first_err ? first_err : "no tree id";
	return -1;
}

void mtree_release(struct mtree_result *res)
{
	size_t i;

	for (i = 0; i < res->nr_messages; i++)
		free(res->messages[i].paths);
	free(res->messages);
	free(res->entries);
	memset(res, 0, sizeof(*res));
}

int mtree_is_conflict(const struct mtree_message *msg)
{
	return str_starts_with(msg->type, "CONFLICT");
}

/* The words in "CONFLICT (words)..." or "CONFLICT(words)...". */
static struct str paren_word(struct str s)
{
	struct str w = { NULL, 0 };
	const char *p, *end = s.s + s.len, *close;

	if (!str_starts_with(s, "CONFLICT"))
		return w;
	p = s.s + strlen("CONFLICT");
	if (p < end && *p == ' ')
		p++;
	if (p == end || *p != '(')
		return w;
	close = memchr(p, ')', (size_t)(end - p));
	if (!close || close == p + 1)
		return w;
	w.s = p + 1;
	w.len = (size_t)(close - w.s);
	return w;
}

struct str mtree_conflict_label(const struct mtree_message *msg,
				unsigned stages, int gitlink)
{
	/* where git's English message says other words than the type */
	static const struct {
		const char *type, *label;
	} english[] = {
		{ "CONFLICT (distinct modes)", "distinct types" },
		{ "CONFLICT (directory rename suggested)", "file location" },
		{ "CONFLICT (file in way of directory rename)",
		  "implicit dir rename" },
		{ "CONFLICT(directory rename collision)", "implicit dir rename" },
		{ "CONFLICT(directory rename unclear split)",
		  "directory rename split" },
	};
	size_t i;

	if (str_equals(msg->type, "CONFLICT (contents)"))
		return str_cstr(gitlink ? "submodule" :
			   stages == (1u << 2 | 1u << 3) ? "add/add" : "content");
	for (i = 0; i < sizeof(english) / sizeof(*english); i++)
		if (str_equals(msg->type, english[i].type))
			return str_cstr(english[i].label);
	return paren_word(msg->type);
}
