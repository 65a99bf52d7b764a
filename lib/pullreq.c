// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "pullreq.h"

static const char SINCE[] = "The following changes since commit ";
static const char SINCE_ID[] = "changes since commit ";
static const char SINCE_ONE[] = "change since commit ";	/* one commit */
static const char AVAILABLE[] = "are available in the git repository at:";
static const char UPTO[] = "for you to fetch changes up to ";
static const char UPTO_ONE[] = "for you to fetch up to ";	/* templates */
static const char UPTO_AS[] = "for you to fetch as commit ";
static const char DESCRIPTION[] = "(from the branch description for ";
static const char empty[] = "";

/* Memory the request owns: the paths unquoted out of its names. */
static int own(struct pullreq *req, char *block)
{
	if (!block)
		return 0;
	if (grow_array((void **)&req->owned_, req->nr_owned_,
		       &req->alloc_owned_, sizeof(*req->owned_))) {
		free(block);
		return -1;
	}
	req->owned_[req->nr_owned_++] = block;
	return 0;
}

/*
 * The nr strings of part joined by a space each, in memory the request
 * owns (an empty first part: a space before the rest): 0, or -1.
 */
static int own_joined(struct pullreq *req, const struct str *part, size_t nr,
		      struct str *out)
{
	size_t i, len = nr - 1;
	char *s;

	for (i = 0; i < nr; i++)
		len += part[i].len;
	s = malloc(len);
	if (!s || own(req, s))
		return -1;
	*out = str_at(s, len);
	for (i = 0; i < nr; i++) {
		if (i)
			*s++ = ' ';
		memcpy(s, part[i].s, part[i].len);
		s += part[i].len;
	}
	return 0;
}

/* What trimming takes off: git's spaces, and what is left of a line end. */
static const char WSP[] = " \t\r\n";

/* ------------------------------------------------------------------ */
/* What mail does to spaces and quoting.                               */

/*
 * A Unicode space at s (n bytes, UTF-8): its length, or 0.  U+00A0,
 * U+2000 to U+200A, U+202F, U+205F and U+3000: what mail clients and
 * editors put for a space.
 */
static size_t uspace(const char *s, size_t n)
{
	static const struct code_range spaces[] = {
		{ 0xa0, 0xa0 }, { 0x2000, 0x200a }, { 0x202f, 0x202f },
		{ 0x205f, 0x205f }, { 0x3000, 0x3000 }
	};
	unsigned cp;
	size_t k = n ? utf8_char(s, n, &cp) : 0;

	if (!k || !code_in_ranges(cp, spaces, sizeof(spaces) / sizeof(*spaces)))
		return 0;
	return k;
}

/* A space of either kind at s: its length, or 0. */
static size_t any_space(const char *s, size_t n)
{
	return n && is_space_or_tab(s[0]) ? 1 : uspace(s, n);
}

/*
 * The quoting of a request: the '>' marks and then the indent of the
 * line its anchor is on (an indent counts spaces of either kind).
 */
struct prefix {
	size_t depth, indent;
};

/* The prefix of line l if phrase at at is all that follows it. */
static struct prefix prefix_of(struct str l, const char *at)
{
	struct prefix pf = { 0, 0 };
	const char *p = l.s, *end = at;
	size_t k;

	while (p < end) {
		if (*p == '>') {
			pf.depth++;
			pf.indent = 0;
			p++;
		} else if ((k = any_space(p, (size_t)(end - p)))) {
			pf.indent++;
			p += k;
		} else {
			pf.depth = pf.indent = 0;	/* prose before it */
			break;
		}
	}
	return pf;
}

/*
 * Line l without the prefix: its '>' marks up to the request's depth
 * (a line quoted less deep loses those it has: a client may have
 * joined quote marks), then the indent.
 */
static struct str unquote(struct str l, const struct prefix *pf)
{
	const char *p = l.s, *end = l.s + l.len;
	size_t need = pf->depth, indent = pf->indent, k;

	while (need) {
		const char *q = p;

		while ((k = any_space(q, (size_t)(end - q))))
			q += k;
		if (q == end)
			return str_at(NULL, 0);	/* ">" alone: a blank line */
		if (*q != '>') {
			if (need == pf->depth)
				return l;	/* not quoted: not the request's */
			break;
		}
		p = q + 1;
		need--;
	}
	while (indent-- && (k = any_space(p, (size_t)(end - p))))
		p += k;
	return str_at(p, (size_t)(end - p));
}

/*
 * Copy line l to out, each Unicode space that is in the indent, in a
 * run of spaces or at the end made a space: what git wrote there.
 * Returns the bytes written; *spaces is set when one was.
 */
static size_t copy_spaces(struct str l, char *out, int *spaces)
{
	size_t i = 0, o = 0, k;
	int lead = 1;

	while (i < l.len) {
		if ((k = uspace(l.s + i, l.len - i))) {
			size_t after = i + k;

			if (lead || (o && out[o - 1] == ' ') || after == l.len ||
			    any_space(l.s + after, l.len - after)) {
				out[o++] = ' ';
				*spaces = 1;
			} else {
				memcpy(out + o, l.s + i, k);
				o += k;
			}
			i = after;
			continue;
		}
		if (!is_space_or_tab(l.s[i]))
			lead = 0;
		out[o++] = l.s[i++];
	}
	return o;
}

/* ------------------------------------------------------------------ */
/* The pull request in a text.                                         */

/* A word: text without a space or a tab in it. */
static int is_word(struct str t)
{
	return t.len && !memchr(t.s, ' ', t.len) && !memchr(t.s, '\t', t.len);
}

static int is_separator(struct str l)
{
	l = str_trim(l, WSP);
	return l.len == 64 && !str_trim(l, "-").len;
}

/*
 * The id after phrase at at in line l, when "<hex id>[:]" is all that
 * follows it; else an empty string.
 */
static struct str id_after(struct str l, const char *at, const char *phrase)
{
	const char *s = at + strlen(phrase);
	struct str id = str_trim(str_at(s, (size_t)(l.s + l.len - s)), WSP);

	if (id.len && id.s[id.len - 1] == ':')
		id.len--;
	id = str_rtrim(id, WSP);
	return is_hex_id(id.s, id.len) ? id : str_at(NULL, 0);
}

/*
 * Where phrase (it ends in a space) is in line l, or the phrase without
 * its space ending the line (a mail client wrapped the id after it
 * onto the next line); NULL.
 */
static const char *phrase_at(struct str l, const char *phrase)
{
	const char *at = str_find(l, phrase);
	size_t n = strlen(phrase) - 1;

	l = str_rtrim(l, WSP);
	if (!at && l.len >= n && !memcmp(l.s + l.len - n, phrase, n))
		at = l.s + l.len - n;
	return at;
}

/* Where the first of phrases (NULL-ended) is in line l; *phrase is it. */
static const char *first_at(struct str l, const char *const *phrases,
			    const char **phrase)
{
	const char *at = NULL;

	for (*phrase = *phrases; *phrases; *phrase = *++phrases)
		if ((at = phrase_at(l, *phrase)))
			break;
	return at;
}

/*
 * Where the "since" phrase is in line l, "changes" or "change" (a
 * sender's template, for one commit); *phrase is the one.
 */
static const char *since_at(struct str l, const char **phrase)
{
	static const char *const since[] = { SINCE_ID, SINCE_ONE, NULL };

	return first_at(l, since, phrase);
}

/* Where the "up to" phrase is in line l, git's or a sender's template's. */
static const char *upto_at(struct str l, const char **phrase)
{
	static const char *const upto[] = { UPTO, UPTO_ONE, UPTO_AS, NULL };

	return first_at(l, upto, phrase);
}

/*
 * Lines of a text.  A line that was mended (mend_stat_lines()) lies in
 * memory of its own; src[i] is then the stretch of the text it came
 * from, which span() needs (NULL: every line is its source).
 */
struct lines {
	struct str *l, *src;
	size_t nr, alloc;
};

static int push_line(struct lines *L, struct str l)
{
	if (grow_array((void **)&L->l, L->nr, &L->alloc, sizeof(*L->l)))
		return -1;
	L->l[L->nr++] = l;
	return 0;
}

/* The lines of the text, each without its "\n" or "\r\n". */
static int split_lines(const char *text, size_t len, struct lines *out)
{
	struct str rest = str_at(text, len);

	memset(out, 0, sizeof(*out));
	while (rest.len) {
		struct str l = str_next_line(&rest);

		if (l.len && l.s[l.len - 1] == '\r')
			l.len--;
		if (push_line(out, l))
			return -1;
	}
	return 0;
}

/* Lines [a, b) as one string of the text, the blank lines around them off. */
static struct str span(const struct lines *L, size_t a, size_t b)
{
	const struct str *src = L->src ? L->src : L->l;

	while (a < b && str_is_blank(L->l[a]))
		a++;
	while (b > a && str_is_blank(L->l[b - 1]))
		b--;
	if (a >= b)
		return str_at(NULL, 0);
	return str_at(src[a].s, (size_t)(src[b - 1].s + src[b - 1].len - src[a].s));
}

/* The first non-blank line in [from, to) if it is indented: trimmed. */
static struct str indented_after(const struct lines *L, size_t from,
					 size_t to)
{
	while (from < to && str_is_blank(L->l[from]))
		from++;
	if (from < to && is_space_or_tab(L->l[from].s[0]) &&
	    !is_separator(L->l[from]))
		return str_trim(L->l[from], WSP);
	return str_at(NULL, 0);
}

/*
 * The lines of the request, in memory it owns: from line `from` to
 * `to` of raw, its prefix off and its spaces made git's.
 */
static int copy_request(const struct lines *raw, size_t from, size_t to,
			const struct prefix *pf, struct pullreq *req,
			struct lines *L)
{
	size_t i, size = 1;
	char *buf, *o;
	int spaces = 0;

	memset(L, 0, sizeof(*L));
	for (i = from; i < to; i++)
		size += raw->l[i].len + 1;
	buf = malloc(size);
	if (!buf || own(req, buf))
		return -1;
	o = buf;
	for (i = from; i < to; i++) {
		struct str l = unquote(raw->l[i], pf), copy;

		if (l.len != raw->l[i].len)
			req->damage |= PULLREQ_QUOTED;
		copy.s = o;
		copy.len = copy_spaces(l, o, &spaces);
		if (push_line(L, copy))
			return -1;
		o += copy.len;
		*o++ = '\n';
	}
	if (spaces)
		req->damage |= PULLREQ_SPACES;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The diffstats.                                                      */

/* The words a --summary line starts with, after its space. */
static const char *const summary_words[] = {
	"create mode ", "delete mode ", "rename ", "copy ", "rewrite ",
	"mode change ", NULL
};

static int summary_word(struct str l)
{
	size_t i;

	for (i = 0; summary_words[i]; i++)
		if (str_starts_with(l, summary_words[i]))
			return 1;
	return 0;
}

/*
 * Line l as a stat line of git's, with one space before it whatever
 * its indent: in *v (l itself, or a copy the request owns).  0, or -1
 * when out of memory.
 */
static int stat_view(struct pullreq *req, struct str l, struct str *v)
{
	struct str part[2] = { { "", 0 }, l };
	size_t i = 0;

	while (i < l.len && l.s[i] == ' ')
		i++;
	if (i) {
		*v = str_at(l.s + i - 1, l.len - i + 1);
		return 0;
	}
	*v = l;
	if (!l.len || is_space_or_tab(l.s[0]) ||
	    !(memchr(l.s, '|', l.len) || (l.s[0] >= '0' && l.s[0] <= '9') ||
	      str_starts_with(l, "...") || summary_word(l)))
		return 0;
	return own_joined(req, part, 2, v);
}

static int is_row(struct str v)
{
	struct stat_row row;

	return stat_parse_row(v, &row);
}

static int is_totals(struct str v)
{
	struct stat_totals t;

	return stat_parse_totals(v, &t);
}

static int is_bar(struct str l)
{
	return l.len && !str_trim(l, "+-").len;
}

/*
 * Summary lines a mail client appended to line l (the totals line, or
 * a summary line), two spaces before each: 1 and l cut before the
 * first, *rest from it on; 0 when none; -1 when out of memory.  Only
 * the first two spaces before a summary word are tried: linear time.
 */
static int split_joined(struct pullreq *req, struct str *l, struct str *rest)
{
	struct stat_summary sum;
	struct str v;
	size_t j;

	for (j = 1; j + 1 < l->len; j++)
		if (l->s[j - 1] == ' ' && l->s[j] == ' ' &&
		    summary_word(str_at(l->s + j + 1, l->len - j - 1)))
			break;
	if (j + 1 >= l->len)
		return 0;
	if (stat_view(req, str_at(l->s, j - 1), &v))
		return -1;
	if (!is_totals(v) && !stat_parse_summary(v, &sum))
		return 0;
	*rest = str_at(l->s + j, l->len - j);
	l->len = j - 1;
	return 1;
}

/*
 * A "create mode 100644" or "delete mode 100644" alone, trimmed in t:
 * a mail client wrapped its path onto the next line (git writes these
 * with a path always; a "mode change" after a rename has none).
 */
static int mode_alone(struct str t)
{
	size_t i, n = strlen("create mode ");

	if (!str_starts_with(t, "create mode ") &&
	    !str_starts_with(t, "delete mode "))
		return 0;
	for (i = n; i < t.len && t.s[i] >= '0' && t.s[i] <= '7'; i++)
		;
	return i == t.len && i > n;
}

/*
 * Line a, not a stat row, and line b only a +/- graph or the "| N +-"
 * part of a row: one row a mail client wrapped; or line a a summary
 * line's mode alone, and b its path.  Joined again in *joined: 1 when
 * joined, 0 when not, -1 when out of memory.  Line c follows b: a rest
 * of 64 dashes is a separator line unless a row follows it (git puts
 * none between two rows).
 */
static int join_wrapped(struct pullreq *req, struct str la, struct str lb,
			struct str lc, struct str *joined)
{
	struct str part[3] = { { "", 0 }, str_trim(la, WSP), str_trim(lb, WSP) };
	struct str va, vb, vc;

	if (mode_alone(part[1]) && part[2].len && !summary_word(part[2]))
		return own_joined(req, part, 3, joined) ? -1 : 1;
	if (!part[1].len || !part[2].len ||
	    (!is_bar(part[2]) && part[2].s[0] != '|'))
		return 0;
	if (stat_view(req, la, &va) || stat_view(req, lb, &vb) ||
	    stat_view(req, lc, &vc))
		return -1;
	if (is_row(va) && is_bar(part[2]) && (!is_separator(lb) || is_row(vc))) {
		/* the rest of a row's graph: a space only after the count */
		size_t at = 1 + part[1].len;
		char *s;

		if (own_joined(req, part, 3, joined))
			return -1;
		s = (char *)joined->s;
		if (s[at - 1] < '0' || s[at - 1] > '9') {
			memmove(s + at, s + at + 1, joined->len - at - 1);
			joined->len--;
		}
		return 1;
	}
	if (is_row(va) || is_row(vb) || is_totals(vb))
		return 0;
	if (own_joined(req, part, 3, joined))
		return -1;
	return is_row(*joined);
}

struct block {
	size_t first, rows_end, end;	/* first row, after the rows, after
					   the totals and summary */
	int has_totals;
	int patch;			/* a patch's, pasted after the request */
	struct stat_totals t;
};

struct blocks {
	struct block *b;
	size_t nr, alloc;
};

/* The diffstats in lines [from, to) of views v. */
static int find_blocks(const struct str *v, size_t from, size_t to,
		       struct blocks *out)
{
	size_t i = from;

	while (i < to) {
		struct block bl;
		struct stat_summary sum;
		size_t j = i;

		/* rows, or a totals line alone (git diff --shortstat's) */
		if (!is_row(v[i]) && !is_totals(v[i])) {
			i++;
			continue;
		}
		memset(&bl, 0, sizeof(bl));
		bl.first = i;
		while (j < to && is_row(v[j]))
			j++;
		if (j < to && stat_is_cut(v[j]))
			j++;
		bl.rows_end = j;
		if (j < to && stat_parse_totals(v[j], &bl.t)) {
			bl.has_totals = 1;
			j++;
		}
		while (j < to && stat_parse_summary(v[j], &sum))
			j++;
		bl.end = j;
		if (grow_array((void **)&out->b, out->nr, &out->alloc,
			       sizeof(*out->b)))
			return -1;
		out->b[out->nr++] = bl;
		i = j;
	}
	return 0;
}

/* git format-patch's first line: "From <id> Mon Sep 17 00:00:00 2001". */
static int is_patch_from(struct str l)
{
	static const char date[] = " Mon Sep 17 00:00:00 2001";
	size_t n = strlen(date);

	return str_starts_with(l, "From ") && l.len > 5 + n &&
	       !memcmp(l.s + l.len - n, date, n) &&
	       is_hex_id(l.s + 5, l.len - 5 - n);
}

/* A patch's subject: "[PATCH n/m] <subject>", "Subject: " before it or not. */
static int is_patch_subject(struct str l)
{
	const char *close;

	if (str_starts_with(l, "Subject: "))
		l = str_at(l.s + 9, l.len - 9);
	if (!l.len || l.s[0] != '[')
		return 0;
	close = memchr(l.s, ']', l.len);
	return close && str_find(str_at(l.s, (size_t)(close - l.s)), "PATCH");
}

/*
 * Is block b, whose lines since the block before it start at from, a
 * patch's diffstat (a patch pasted after the request)?  Its rows are
 * right after git format-patch's "---" line, or a patch's first line
 * or subject is among those lines, after the last separator line (a
 * tag message may name patches).
 */
static int is_patch_stat(const struct lines *L, size_t from,
			 const struct block *b)
{
	size_t i;
	int patch = 0;

	if (b->first > from &&
	    str_equals(str_trim(L->l[b->first - 1], WSP), "---"))
		return 1;
	for (i = from; i < b->first; i++)
		if (is_separator(L->l[i]))
			patch = 0;
		else if (is_patch_from(L->l[i]) || is_patch_subject(L->l[i]))
			patch = 1;
	return patch;
}

static int patch_follows(const struct lines *L, size_t i)
{
	while (i < L->nr && str_is_blank(L->l[i]))
		i++;
	return i < L->nr && str_starts_with(L->l[i], "diff --git ");
}

static void block_release(struct pullreq_block *b)
{
	size_t i;

	for (i = 0; i < b->nr_authors; i++)
		free(b->author[i].subject);
	free(b->author);
	free(b->row);
	free(b->summary);
}

void pullreq_release(struct pullreq *req)
{
	size_t i;

	block_release(&req->block);
	for (i = 0; i < req->nr_extra_blocks; i++)
		block_release(&req->extra[i]);
	free(req->extra);
	for (i = 0; i < req->nr_owned_; i++)
		free(req->owned_[i]);
	free(req->owned_);
	memset(req, 0, sizeof(*req));
}

/* "<author> (<count>):", as git shortlog writes it: 1, *name and *count. */
static int author_line(struct str l, struct str *name, long *count)
{
	struct str t = str_trim(l, WSP);
	size_t k;

	if (t.len < 5 || t.s[t.len - 1] != ':' || t.s[t.len - 2] != ')')
		return 0;
	k = t.len - 3;
	while (k && t.s[k] >= '0' && t.s[k] <= '9')
		k--;
	if (t.s[k] != '(' || k == t.len - 3 || k < 2 || t.s[k - 1] != ' ' ||
	    t.len - 3 - k > 9)
		return 0;
	*name = str_trim(str_at(t.s, k - 1), WSP);
	*count = strtol(t.s + k + 1, NULL, 10);
	return name->len > 0;
}

static size_t indent_of(struct str l)
{
	size_t i = 0;

	while (i < l.len && is_space_or_tab(l.s[i]))
		i++;
	return i;
}

/* The shortlog in lines [from, to): its authors and their subjects. */
static int parse_shortlog(struct pullreq *req, const struct lines *L,
			  size_t from, size_t to, struct pullreq_block *b)
{
	struct pullreq_author *au = NULL;
	size_t i, alloc = 0, alloc_subjects = 0, indent = 0;

	for (i = from; i < to; i++) {
		struct str name, l = L->l[i];
		long count;

		if (str_is_blank(l)) {
			au = NULL;
		} else if (author_line(l, &name, &count)) {
			if (grow_array((void **)&b->author, b->nr_authors,
				       &alloc, sizeof(*b->author)))
				return -1;
			au = &b->author[b->nr_authors++];
			memset(au, 0, sizeof(*au));
			au->name = name;
			au->count = count;
			alloc_subjects = 0;
		} else if (au && au->nr_subjects && indent_of(l) > indent) {
			struct str *last = &au->subject[au->nr_subjects - 1];
			struct str part[2] = { *last, str_trim(l, WSP) };

			if (own_joined(req, part, 2, last))	/* wrapped */
				return -1;
		} else if (au) {
			if (grow_array((void **)&au->subject, au->nr_subjects,
				       &alloc_subjects, sizeof(*au->subject)))
				return -1;
			if (!au->nr_subjects)
				indent = indent_of(l);
			au->subject[au->nr_subjects++] = str_trim(l, WSP);
		}
	}
	return 0;
}

/* The +/- of a text row's graph, counted: 1 when they make up its N. */
static int graph_counts(struct str v, long changes, long *ins, long *del)
{
	struct str t = str_rtrim(v, " \t");
	size_t i = str_rtrim(t, "+-").len;
	long plus = 0, minus = 0;

	for (; i < t.len; i++)
		if (t.s[i] == '+')
			plus++;
		else
			minus++;
	*ins += plus;
	*del += minus;
	return plus + minus == changes;
}

/* Fill b with the rows, totals and summary lines of bl. */
static int take_block(struct pullreq *req, const struct str *v,
		      const struct block *bl, struct pullreq_block *b)
{
	unsigned long long sum = 0;
	long ins = 0, del = 0;
	int exact = 1;
	size_t i, nfiles = 0;
	size_t nr_summary = bl->end - bl->rows_end - (size_t)bl->has_totals;

	b->row = calloc(bl->rows_end - bl->first + 1, sizeof(*b->row));
	if (nr_summary)
		b->summary = calloc(nr_summary, sizeof(*b->summary));
	if (!b->row || (nr_summary && !b->summary))
		return -1;
	for (i = bl->first; i < bl->rows_end; i++) {
		struct stat_row *row = &b->row[b->nr_rows];

		if (!stat_parse_row(v[i], row)) {
			b->rows_cut = 1;	/* the " ..." line */
			continue;
		}
		if (!row->abbreviated &&
		    own(req, stat_name_paths(row->name, &row->path, &row->from)))
			return -1;
		if (row->kind != STAT_ROW_UNMERGED)
			nfiles++;
		if (row->kind == STAT_ROW_TEXT) {
			sum += (unsigned long long)row->changes;
			exact &= graph_counts(v[i], row->changes, &ins, &del);
		}
		b->nr_rows++;
	}
	if (bl->has_totals) {
		b->files = bl->t.files;
		b->insertions = bl->t.insertions;
		b->deletions = bl->t.deletions;
		b->totals_only = bl->first == bl->rows_end;
		b->rows_uneven = b->totals_only ? 0 :
			b->rows_cut ? nfiles >= (size_t)b->files :
			nfiles != (size_t)b->files ||
			sum != (unsigned long long)b->insertions +
			       (unsigned long long)b->deletions;
	} else {
		b->totals_missing = 1;
		b->files = (long)nfiles;
		b->insertions = exact ? ins : -1;
		b->deletions = exact ? del : -1;
	}
	for (i = 0; i < nr_summary; i++) {
		struct stat_summary *s = &b->summary[b->nr_summary++];

		stat_parse_summary(v[bl->rows_end + (size_t)bl->has_totals + i], s);
		if (own(req, s->kind == STAT_SUMMARY_RENAME ||
			     s->kind == STAT_SUMMARY_COPY ?
			     stat_name_paths(s->name, &s->path, &s->from) :
			     stat_name_path(s->name, &s->path)))
			return -1;
	}
	return 0;
}

/* The sections between the "up to" lines and the diffstat. */
static void take_sections(const struct lines *L, size_t upto, size_t rows,
			  struct pullreq *req, size_t *shortlog)
{
	size_t i, first = 0, last = 0, desc = 0;
	int seps = 0;

	for (i = upto + 1; i < rows; i++) {
		if (!is_separator(L->l[i]))
			continue;
		if (!seps++)
			first = i;
		last = i;
	}
	if (!seps) {
		for (i = upto + 1; i < rows && str_is_blank(L->l[i]); i++)
			;
		/* the shortlog starts after the "up to" commit's subject */
		*shortlog = req->tip_subject.len ? i + 1 : i;
		req->block.shortlog = span(L, *shortlog, rows);
		return;
	}
	*shortlog = last + 1;
	req->block.shortlog = span(L, last + 1, rows);
	for (i = first + 1; i < last; i++)
		if (str_starts_with(L->l[i], DESCRIPTION) &&
		    (i == first + 1 || is_separator(L->l[i - 1]))) {
			desc = i;
			break;
		}
	/* a separator line before the description, unless it is first */
	req->tag_message = span(L, first + 1, desc ? desc - 1 : last);
	if (desc)
		req->description = span(L, desc + 1, last);
}

/*
 * The line of raw a request is found by: its "up to" line, else its
 * "since" line, else its repository line; *at where the words are.
 */
static size_t find_anchor(const struct lines *raw, const char **at)
{
	const char *phrase;
	size_t i;

	for (i = 0; i < raw->nr; i++)
		if ((*at = upto_at(raw->l[i], &phrase)))
			return i;
	for (i = 0; i < raw->nr; i++)
		if ((*at = since_at(raw->l[i], &phrase)))
			return i;
	for (i = 0; i < raw->nr; i++)
		if ((*at = str_find_ci(raw->l[i], AVAILABLE)))
			return i;
	*at = NULL;
	return raw->nr;
}

/*
 * The lines [*start, *end) of raw that hold the request anchored at
 * line anchor: from its "since" line to the next request's.
 */
static void request_lines(const struct lines *raw, size_t anchor,
			  int is_upto, size_t *start, size_t *end)
{
	const char *phrase;
	size_t i, next;

	for (i = anchor + 1; i-- > 0;)
		if (since_at(raw->l[i], &phrase))
			break;
	*start = i == (size_t)-1 ? 0 : i;
	*end = raw->nr;
	if (!is_upto)
		return;
	for (next = anchor + 1; next < raw->nr; next++)
		if (upto_at(raw->l[next], &phrase))
			break;
	if (next == raw->nr)
		return;
	for (i = next; i > anchor + 1; i--)
		if (since_at(raw->l[i - 1], &phrase))
			break;
	*end = i > anchor + 1 ? i - 1 : next;
}

/*
 * The id after the phrase at at in line *i of L, or alone on the next
 * line, where a mail client wrapped it (*i moves to that line, and the
 * damage is named); empty when there is none.
 */
static struct str header_id(struct pullreq *req, const struct lines *L,
			    size_t *i, const char *at, const char *phrase)
{
	struct str l = L->l[*i];
	const char *rest = at + strlen(phrase);

	/* the phrase, then spaces alone: the id wrapped all the same */
	if (str_find(l, phrase) &&
	    !str_is_blank(str_at(rest, (size_t)(l.s + l.len - rest))))
		return id_after(l, at, phrase);
	if (*i + 1 == L->nr)
		return str_at(NULL, 0);
	req->damage |= PULLREQ_HEADER;
	++*i;
	return id_after(L->l[*i], L->l[*i].s, "");
}

/*
 * The line before the URL: git's "are available in the Git repository
 * at:", after prose on its line or not, or another line of words that
 * ends in "repository at:", as a sender's own template words it ("from
 * the Git repository at:"); but not a line quoted deeper than the
 * request.  Damage is named where it is not git's line.
 */
static int repository_line(struct pullreq *req, struct str l)
{
	static const char end[] = "repository at:";
	struct str t = str_trim(l, WSP);
	size_t i, n = strlen(end), k = strlen(AVAILABLE);

	if (str_equals_ci(t, AVAILABLE))
		return 1;
	if (t.len < n || !str_equals_ci(str_at(t.s + t.len - n, n), end) ||
	    t.s[0] == '>')
		return 0;
	if (t.len <= k || !str_equals_ci(str_at(t.s + t.len - k, k), AVAILABLE))
		for (i = 0; i < t.len - n; i++)
			if (!isalpha((unsigned char)t.s[i]) && t.s[i] != ' ')
				return 0;
	req->damage |= PULLREQ_HEADER;
	return 1;
}

/*
 * Where the ref starts in repository line l, "<url> <ref>": after its
 * last space, of either kind (a URL holds none); *n is that space's
 * length.  0 when there is none.
 */
static size_t ref_start(struct str l, size_t *n)
{
	size_t k;

	for (k = l.len; k; k--) {
		*n = 1;
		if (is_space_or_tab(l.s[k - 1]))
			return k;
		for (*n = 2; *n <= 3 && *n <= k; ++*n)	/* UTF-8's */
			if (uspace(l.s + k - *n, *n) == *n)
				return k;
	}
	return 0;
}

/* The header lines of the request in L: since, repository, URL, up to. */
static const char *find_header(const struct lines *L, struct pullreq *req,
			       size_t *upto_line)
{
	const char *at = NULL, *since_phrase, *upto_phrase;
	size_t i, k, n, since, from, at_line;
	struct str url;

	for (i = 0; i < L->nr && !(at = since_at(L->l[i], &since_phrase)); i++)
		;
	if (i < L->nr) {
		if ((size_t)(at - L->l[i].s) != strlen(SINCE) - strlen(SINCE_ID) ||
		    !str_starts_with(L->l[i], SINCE))
			req->damage |= PULLREQ_HEADER;
		since = i;
		req->base = header_id(req, L, &since, at, since_phrase);
		if (!req->base.len)
			return "no commit id after 'The following changes since commit'";
		from = since + 1;
	} else {
		/*
		 * No "since" line: git send-email takes a first line "The
		 * following changes since commit <id>:" of a message it
		 * is given for a header, and drops it.  No base, then.
		 */
		req->damage |= PULLREQ_HEADER;
		from = 0;
	}
	for (i = from; i < L->nr && !repository_line(req, L->l[i]); i++)
		;
	if (i == L->nr)
		return from ? "no 'are available in the Git repository at:' line" :
		       "no 'The following changes since commit' line";
	at_line = i;
	req->base_subject = indented_after(L, from, at_line);
	for (i = at_line + 1; i < L->nr && str_is_blank(L->l[i]); i++)
		;
	if (i == L->nr || upto_at(L->l[i], &upto_phrase))
		return "no repository URL after 'are available in the Git repository at:'";
	url = str_trim(L->l[i], WSP);
	if ((k = ref_start(url, &n))) {	/* "<url> <ref>" */
		req->ref = str_at(url.s + k, url.len - k);
		url = str_rtrim(str_at(url.s, k - n), " \t");
		if (n > 1)
			req->damage |= PULLREQ_SPACES;
		/* "<url> <ref> <ref>": a sender wrote the ref twice */
		if ((k = ref_start(url, &n)) &&
		    str_same(str_at(url.s + k, url.len - k), req->ref)) {
			url = str_rtrim(str_at(url.s, k - n), " \t");
			req->damage |= PULLREQ_HEADER;
		}
	} else if (i + 1 < L->nr && is_word(str_trim(L->l[i + 1], WSP)) &&
		   !upto_at(L->l[i + 1], &upto_phrase)) {
		/* "<url>" and "<ref>" on the next line: a client wrapped it */
		req->ref = str_trim(L->l[i + 1], WSP);
		req->damage |= PULLREQ_HEADER;
	}
	req->url = url;
	for (; i < L->nr && !(at = upto_at(L->l[i], &upto_phrase)); i++)
		;
	if (i == L->nr)
		return "no 'for you to fetch changes up to' line";
	if (at != L->l[i].s || upto_phrase != UPTO)
		req->damage |= PULLREQ_HEADER;
	req->tip = header_id(req, L, &i, at, upto_phrase);
	if (!req->tip.len)
		return "no commit id after 'for you to fetch changes up to'";
	req->tip_subject = indented_after(L, i + 1, L->nr);
	*upto_line = i;
	return NULL;
}

/* The line and where in the text it came from, at the end of L and src. */
static int push_mended(struct lines *L, struct lines *src, struct str l,
		       struct str from)
{
	return push_line(L, l) || push_line(src, from);
}

/* What a line of a diffstat is, for drop_blank(). */
enum stat_line { STAT_NONE, STAT_ROW, STAT_END, STAT_SUMMARY };

static int stat_line_of(struct pullreq *req, struct str l, enum stat_line *k)
{
	struct stat_summary sum;
	struct str v;

	if (stat_view(req, l, &v))
		return -1;
	*k = is_row(v) ? STAT_ROW :
	     is_totals(v) || stat_is_cut(v) ? STAT_END :
	     stat_parse_summary(v, &sum) ? STAT_SUMMARY : STAT_NONE;
	return 0;
}

/*
 * Is blank line b, between lines a and c, one a mail client left inside
 * a diffstat (git writes none there): between two rows, before the
 * totals line, or between summary lines?  1, 0, or -1.
 */
static int drop_blank(struct pullreq *req, struct str a, struct str b,
		      struct str c)
{
	enum stat_line ka, kc;

	if (!str_is_blank(b) || stat_line_of(req, a, &ka) ||
	    stat_line_of(req, c, &kc))
		return str_is_blank(b) ? -1 : 0;
	return (ka == STAT_ROW && kc != STAT_NONE && kc != STAT_SUMMARY) ||
	       (ka != STAT_NONE && ka != STAT_ROW && kc == STAT_SUMMARY);
}

/*
 * Split and join again the stat lines mail clients joined or cut, in
 * lines [from, *to) of L, in one pass; *to moves with them; and take
 * out the blank lines they left inside a diffstat.
 */
static int mend_stat_lines(struct pullreq *req, struct lines *L, size_t from,
			   size_t *to)
{
	struct lines out = { NULL, NULL, 0, 0 }, src = { NULL, NULL, 0, 0 };
	const struct str *was = L->src ? L->src : L->l;
	size_t i, w;
	int r = 0;

	for (i = 0; i < from; i++)
		if (push_mended(&out, &src, L->l[i], was[i]))
			goto fail;
	for (; i < *to; i++) {
		struct str l = L->l[i], rest;

		/* the parts of a line lie in it: each is its own source */
		while ((r = split_joined(req, &l, &rest)) > 0) {
			req->damage |= PULLREQ_WRAPPED;
			if (push_mended(&out, &src, l, l))
				goto fail;
			l = rest;
		}
		if (r < 0 || push_mended(&out, &src, l, l))
			goto fail;
	}
	for (i = w = from; i < out.nr; i++) {
		struct str joined;

		r = i + 1 < out.nr ?
			join_wrapped(req, out.l[i], out.l[i + 1],
				     i + 2 < out.nr ? out.l[i + 2] : str_at(NULL, 0),
				     &joined) : 0;
		if (r < 0)
			goto fail;
		if (r) {
			/* in line i + 1's place, to join the next again:
			   a graph wrapped twice */
			req->damage |= PULLREQ_WRAPPED;
			out.l[i + 1] = joined;
			src.l[i + 1] = str_at(src.l[i].s, (size_t)(src.l[i + 1].s +
					 src.l[i + 1].len - src.l[i].s));
		} else {
			out.l[w] = out.l[i];
			src.l[w++] = src.l[i];
		}
	}
	out.nr = src.nr = w;
	for (i = w = from; i < out.nr; i++) {
		r = i > from && i + 1 < out.nr ?
			drop_blank(req, out.l[w - 1], out.l[i], out.l[i + 1]) : 0;
		if (r < 0)
			goto fail;
		if (r) {
			req->damage |= PULLREQ_WRAPPED;
			continue;
		}
		out.l[w] = out.l[i];
		src.l[w++] = src.l[i];
	}
	out.nr = src.nr = w;
	for (i = *to; i < L->nr; i++)
		if (push_mended(&out, &src, L->l[i], was[i]))
			goto fail;
	*to = w;
	free(L->l);
	free(L->src);
	L->l = out.l;
	L->src = src.l;
	L->nr = out.nr;
	L->alloc = out.alloc;
	return 0;
fail:
	free(out.l);
	free(src.l);
	return -1;
}

/* Does the block have rows, or is it a totals line alone? */
static int has_rows(const struct block *b)
{
	return b->first < b->rows_end;
}

/*
 * May block b be the request's diffstat in a pass that looks for rows
 * (or a totals line alone), passing over a patch's unless patches?
 */
static int candidate(const struct block *b, int patches, int rows)
{
	return (patches || !b->patch) && has_rows(b) == rows;
}

/*
 * The request's diffstat: an index, or -1.  Not a patch's, unless every
 * diffstat looks like one (a sender's own "---" before the request's).
 * A totals line alone is one only where no diffstat with rows is: it
 * may be a line of prose or of a signature.
 */
static long choose_block(const struct lines *L, const struct blocks *B,
			 size_t last_sep)
{
	const struct block *b = B->b;
	size_t k;
	int patches, rows;

	for (patches = 0; patches <= 1; patches++) {
		for (rows = 1; rows >= 0; rows--)
			for (k = 0; k < B->nr; k++)
				if (candidate(&b[k], patches, rows) &&
				    (b[k].first > last_sep ||
				     (b[k].has_totals &&
				      patch_follows(L, b[k].end))))
					return (long)k;
		for (rows = 1; rows >= 0; rows--)
			for (k = B->nr; k-- > 0;)
				if (candidate(&b[k], patches, rows) &&
				    b[k].has_totals)
					return (long)k;
	}
	return -1;
}

/* Is x the request's diffstat again, row for row (a sender's repeat)? */
static int repeats(const struct pullreq *req, const struct pullreq_block *x)
{
	const struct pullreq_block *b = &req->block;
	size_t i;

	if (x->files != b->files || x->insertions != b->insertions ||
	    x->deletions != b->deletions || x->nr_rows != b->nr_rows)
		return 0;
	for (i = 0; i < x->nr_rows; i++)
		if (x->row[i].changes != b->row[i].changes ||
		    !str_same(x->row[i].name, b->row[i].name))
			return 0;
	return 1;
}

/*
 * Blocks after the chosen one with a totals line: another's, kept
 * aside; one that is the request's again says nothing new and is not.
 */
static int take_extra(struct pullreq *req, const struct lines *L,
		      const struct str *v, const struct blocks *B, size_t chosen)
{
	size_t k, n = chosen < B->nr ? B->nr - chosen - 1 : 0;

	if (!n)
		return 0;
	req->extra = calloc(n, sizeof(*req->extra));
	if (!req->extra)
		return -1;
	for (k = chosen + 1; k < B->nr; k++) {
		struct pullreq_block *x = &req->extra[req->nr_extra_blocks];

		if (!B->b[k].has_totals || !has_rows(&B->b[k]) || B->b[k].patch)
			continue;
		req->nr_extra_blocks++;
		x->shortlog = span(L, B->b[k - 1].end, B->b[k].first);
		if (parse_shortlog(req, L, B->b[k - 1].end, B->b[k].first, x) ||
		    take_block(req, v, &B->b[k], x))
			return -1;
		if (repeats(req, x)) {
			block_release(x);
			memset(x, 0, sizeof(*x));
			req->nr_extra_blocks--;
		}
	}
	return 0;
}

static const char *find_diffstat(struct pullreq *req, struct lines *L,
				 size_t upto)
{
	struct blocks B = { NULL, 0, 0 };
	struct str *v = NULL;
	const char *err = "out of memory";
	size_t i, end = upto + 1, last_sep = 0, shortlog;
	long chosen;
	int failed;

	/*
	 * A patch after the diffstat ends the request; one in its
	 * description (a conflict's fix), before a separator line, does
	 * not.  A patch's context line of dashes starts with a space.
	 */
	for (i = end; i < L->nr; i++)
		if (L->l[i].len && L->l[i].s[0] == '-' && is_separator(L->l[i]))
			end = i;
	while (end < L->nr && !str_starts_with(L->l[end], "diff --git "))
		end++;
	if (mend_stat_lines(req, L, upto + 1, &end))
		return err;
	v = calloc(end + 1, sizeof(*v));
	if (!v)
		return err;
	for (i = upto + 1; i < end; i++) {
		if (stat_view(req, L->l[i], &v[i]))
			goto out;
		if (is_separator(L->l[i]))
			last_sep = i;
	}
	if (find_blocks(v, upto + 1, end, &B))
		goto out;
	for (i = 0; i < B.nr; i++)
		B.b[i].patch = is_patch_stat(L, i ? B.b[i - 1].end : upto + 1,
					     &B.b[i]);
	chosen = choose_block(L, &B, last_sep);
	if (chosen < 0 || (size_t)chosen >= B.nr) {
		err = "no diffstat (no ' N files changed' line)";
		goto out;
	}
	take_sections(L, upto, B.b[chosen].first, req, &shortlog);
	failed = parse_shortlog(req, L, shortlog, B.b[chosen].first,
				&req->block) ||
		 take_block(req, v, &B.b[chosen], &req->block);
	req->has_patch = patch_follows(L, B.b[chosen].end);
	for (i = (size_t)chosen + 1; i < B.nr; i++)
		req->has_patch |= B.b[i].patch;
	if (!failed && !take_extra(req, L, v, &B, (size_t)chosen))
		err = NULL;
out:
	free(B.b);
	free(v);
	return err;
}

/*
 * What an error after the header leaves: the header alone (the ids, the
 * URL and ref, and the damage of the request's text), what the buffers
 * the strings point into hold.
 */
static void keep_header(struct pullreq *req)
{
	struct pullreq header = {
		.base = req->base, .url = req->url, .ref = req->ref,
		.tip = req->tip, .damage = req->damage,
		.owned_ = req->owned_, .nr_owned_ = req->nr_owned_,
		.alloc_owned_ = req->alloc_owned_,
	};

	req->owned_ = NULL;
	req->nr_owned_ = req->alloc_owned_ = 0;
	pullreq_release(req);
	*req = header;
}

const char *pullreq_find(const char *text, size_t len, struct pullreq *req)
{
	struct lines raw, L = { NULL, NULL, 0, 0 };
	struct prefix pf = { 0, 0 };
	const char *err = "out of memory", *at, *phrase;
	size_t anchor, start, end, upto = 0, next = 0;
	int header = 0;

	memset(req, 0, sizeof(*req));
	if (split_lines(len ? text : empty, len, &raw))
		goto out;
	anchor = find_anchor(&raw, &at);
	if (anchor == raw.nr) {
		err = "no 'The following changes since commit' line";
		goto out;
	}
	request_lines(&raw, anchor, !!upto_at(raw.l[anchor], &phrase), &start, &end);
	if (end < raw.nr)
		next = (size_t)(raw.l[end].s - text);
	pf = prefix_of(raw.l[anchor], at);
	if (copy_request(&raw, start, end, &pf, req, &L))
		goto out;
	err = find_header(&L, req, &upto);
	if (!err) {
		header = 1;
		err = find_diffstat(req, &L, upto);
	}
out:
	free(raw.l);
	free(L.l);
	free(L.src);
	if (err && header)
		keep_header(req);
	else if (err)
		pullreq_release(req);
	req->next = next;
	return err;
}

int pullreq_telltale(const char *text, size_t len)
{
	struct str t = str_at(text, len);

	return str_find(t, SINCE_ID) || str_find(t, SINCE_ONE) ||
	       str_find(t, UPTO) || str_find(t, UPTO_ONE) ||
	       str_find(t, UPTO_AS) ||
	       str_find_ci(t, "are available in the git repository at");
}
