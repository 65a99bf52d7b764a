// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pullreq.h"

static const char SINCE[] = "The following changes since commit ";
static const char AVAILABLE[] = "are available in the git repository at:";
static const char UPTO[] = "for you to fetch changes up to ";
static const char DESCRIPTION[] = "(from the branch description for ";
static const char empty[] = "";

/* Memory the request owns: the paths unquoted out of its names. */
static int own(struct pullreq *req, char *block)
{
	if (!block)
		return 0;
	if (req->nr_owned_ == req->alloc_owned_) {
		size_t alloc = req->alloc_owned_ ? 2 * req->alloc_owned_ : 16;
		char **grown = realloc(req->owned_, alloc * sizeof(*grown));

		if (!grown) {
			free(block);
			return -1;
		}
		req->owned_ = grown;
		req->alloc_owned_ = alloc;
	}
	req->owned_[req->nr_owned_++] = block;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Bytes and lines.                                                    */

static struct str mkstr(const char *s, size_t n)
{
	struct str str;

	str.s = n ? s : empty;
	str.len = n;
	return str;
}

/* Is ch one of the bytes of set (never NUL)? */
static int is_wsp(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

static int is_space(int ch)
{
	return ch == ' ' || ch == '\t';
}

static int lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

/* Does s (n bytes) equal the NUL-terminated word, ignoring case? */
static int eq_ci(const char *s, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!word[i] || lower((unsigned char)s[i]) != lower((unsigned char)word[i]))
			return 0;
	return !word[n];
}

static int starts_with(struct str l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l.len >= n && !memcmp(l.s, prefix, n);
}

static struct str trim(struct str l)
{
	while (l.len && (is_space(l.s[0]) || l.s[0] == '\r' || l.s[0] == '\n')) {
		l.s++;
		l.len--;
	}
	while (l.len && (is_space(l.s[l.len - 1]) || l.s[l.len - 1] == '\r' ||
			 l.s[l.len - 1] == '\n'))
		l.len--;
	return mkstr(l.s, l.len);
}

static int is_blank(struct str l)
{
	return !trim(l).len;
}

/*
 * The line at *p (before end), without its "\n" or "\r\n"; *p moves
 * past it.  Returns whether a newline ended it.
 */
static int next_line(const char **p, const char *end, struct str *line)
{
	const char *s = *p, *nl = memchr(s, '\n', (size_t)(end - s));
	const char *e = nl ? nl : end;

	*p = nl ? nl + 1 : end;
	if (e > s && e[-1] == '\r')
		e--;
	line->s = s;
	line->len = (size_t)(e - s);
	return nl != NULL;
}

/* A decimal number of at most 18 digits at s (n bytes): its length, or 0. */
/* ------------------------------------------------------------------ */
/* The pull request in a text.                                         */

static int is_separator(struct str l)
{
	size_t i;

	l = trim(l);
	if (l.len != 64)
		return 0;
	for (i = 0; i < 64; i++)
		if (l.s[i] != '-')
			return 0;
	return 1;
}

/* "<hex id>[:]" and nothing else: the id, or an empty string. */
static struct str commit_id(struct str rest)
{
	while (rest.len && is_wsp(rest.s[rest.len - 1]))
		rest.len--;
	if (rest.len && rest.s[rest.len - 1] == ':')
		rest.len--;
	while (rest.len && is_wsp(rest.s[rest.len - 1]))
		rest.len--;
	if (!is_hex_id(rest.s, rest.len))
		return mkstr(NULL, 0);
	return mkstr(rest.s, rest.len);
}

struct lines {
	struct str *l;
	size_t nr;
};

static int split_lines(const char *text, size_t len, struct lines *out)
{
	const char *p = text, *end = text + len;
	size_t alloc = 0;

	out->l = NULL;
	out->nr = 0;
	while (p < end) {
		if (out->nr == alloc) {
			struct str *grown;

			alloc = alloc ? 2 * alloc : 64;
			grown = realloc(out->l, alloc * sizeof(*grown));
			if (!grown)
				return -1;
			out->l = grown;
		}
		next_line(&p, end, &out->l[out->nr++]);
	}
	return 0;
}

/* Lines a..b (inclusive, a <= b + 1) as one string, blank lines around it off. */
static struct str span(const struct lines *L, size_t a, size_t b_end)
{
	size_t b = b_end;

	while (a < b && is_blank(L->l[a]))
		a++;
	while (b > a && is_blank(L->l[b - 1]))
		b--;
	if (a >= b)
		return mkstr(NULL, 0);
	return mkstr(L->l[a].s, (size_t)(L->l[b - 1].s + L->l[b - 1].len - L->l[a].s));
}

/* The first non-blank line in [from, to) if it is indented: trimmed. */
static struct str indented_after(const struct lines *L, size_t from,
					 size_t to)
{
	while (from < to && is_blank(L->l[from]))
		from++;
	if (from < to && is_space(L->l[from].s[0]) && !is_separator(L->l[from]))
		return trim(L->l[from]);
	return mkstr(NULL, 0);
}

struct block {
	size_t rows, total, end;	/* first row, total line, after summary */
	struct stat_totals t;
};

/* Do the rows above the total line at t add up to it? */
static int find_block(const struct lines *L, size_t lo, size_t t,
		      struct block *bl)
{
	unsigned long long target, sum = 0;
	size_t r = t, nfiles = 0;
	int cut = 0;

	if (!stat_parse_totals(L->l[t], &bl->t))
		return 0;
	while (r > lo) {
		struct stat_row row;

		if (stat_is_cut(L->l[r - 1]) && r == t && !cut) {
			cut = 1;
		} else if (stat_parse_row(L->l[r - 1], &row)) {
			if (row.kind != STAT_ROW_UNMERGED)
				nfiles++;
			if (row.kind == STAT_ROW_TEXT) {
				if ((unsigned long long)row.changes > ULLONG_MAX / 4 - sum)
					return 0;
				sum += (unsigned long long)row.changes;
			}
		} else {
			break;
		}
		r--;
	}
	target = (unsigned long long)bl->t.insertions +
		 (unsigned long long)bl->t.deletions;
	if (r == t || (cut ? nfiles >= (size_t)bl->t.files :
		       nfiles != (size_t)bl->t.files || sum != target))
		return 0;
	bl->rows = r;
	bl->total = t;
	bl->end = t + 1;
	while (bl->end < L->nr) {
		struct stat_summary s;

		if (!stat_parse_summary(L->l[bl->end], &s))
			break;
		bl->end++;
	}
	return 1;
}

static int patch_follows(const struct lines *L, size_t i)
{
	while (i < L->nr && is_blank(L->l[i]))
		i++;
	return i < L->nr && starts_with(L->l[i], "diff --git ");
}

void pullreq_release(struct pullreq *req)
{
	size_t i;

	free(req->row);
	free(req->summary);
	for (i = 0; i < req->nr_owned_; i++)
		free(req->owned_[i]);
	free(req->owned_);
	memset(req, 0, sizeof(*req));
}

/* Fill the rows and summary lines of the block. */
static int take_block(const struct lines *L,
		      const struct block *bl, struct pullreq *req)
{
	char *owned;
	size_t i;

	req->files = bl->t.files;
	req->insertions = bl->t.insertions;
	req->deletions = bl->t.deletions;
	req->row = calloc(bl->total - bl->rows, sizeof(*req->row));
	if (bl->end > bl->total + 1)
		req->summary = calloc(bl->end - bl->total - 1,
				      sizeof(*req->summary));
	if (!req->row || (bl->end > bl->total + 1 && !req->summary))
		return -1;
	for (i = bl->rows; i < bl->total; i++) {
		struct stat_row *row = &req->row[req->nr_rows];

		if (!stat_parse_row(L->l[i], row)) {
			req->rows_cut = 1;	/* the " ..." line */
			continue;
		}
		if (!row->abbreviated &&
		    (stat_name_paths(row->name, &row->path, &row->from, &owned) ||
		     own(req, owned)))
			return -1;
		req->nr_rows++;
	}
	for (i = bl->total + 1; i < bl->end; i++) {
		struct stat_summary *sum = &req->summary[req->nr_summary++];

		stat_parse_summary(L->l[i], sum);
		if (sum->kind == STAT_SUMMARY_RENAME ||
		    sum->kind == STAT_SUMMARY_COPY ?
		    stat_name_paths(sum->name, &sum->path, &sum->from, &owned) :
		    stat_name_path(sum->name, &sum->path, &owned))
			return -1;
		if (own(req, owned))
			return -1;
	}
	req->has_patch = patch_follows(L, bl->end);
	return 0;
}

/* The sections between the "up to" lines and the diffstat. */
static void take_sections(const struct lines *L, size_t upto, size_t rows,
			  struct pullreq *req)
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
		size_t from = upto + 1;

		while (from < rows && is_blank(L->l[from]))
			from++;
		if (req->tip_subject.len)	/* skip the subject line */
			from++;
		req->shortlog = span(L, from, rows);
		return;
	}
	req->shortlog = span(L, last + 1, rows);
	for (i = first + 1; i < last; i++)
		if (starts_with(L->l[i], DESCRIPTION) &&
		    (i == first + 1 || is_separator(L->l[i - 1]))) {
			desc = i;
			break;
		}
	if (desc) {
		req->tag_message = span(L, first + 1, desc == first + 1 ? desc : desc - 1);
		req->description = span(L, desc + 1, last);
	} else {
		req->tag_message = span(L, first + 1, last);
	}
}

const char *pullreq_find(const char *text, size_t len, struct pullreq *req)
{
	struct lines L;
	struct block bl, chosen;
	const char *err = NULL;
	size_t i, since, at, upto, last_sep = 0;
	int have = 0, saw_total = 0;
	struct stat_totals dummy;

	memset(req, 0, sizeof(*req));
	if (split_lines(len ? text : empty, len, &L)) {
		free(L.l);
		return "out of memory";
	}
	for (i = 0; i < L.nr && !starts_with(L.l[i], SINCE); i++)
		;
	if (i == L.nr) {
		err = "no 'The following changes since commit' line";
		goto out;
	}
	since = i;
	/* a second request (mailinfo joins a message's parts): not this one's */
	for (i = since + 1; i < L.nr && !starts_with(L.l[i], SINCE); i++)
		;
	L.nr = i;
	i = since;
	req->base = commit_id(mkstr(L.l[i].s + strlen(SINCE), L.l[i].len - strlen(SINCE)));
	if (!req->base.len) {
		err = "no commit id after 'The following changes since commit'";
		goto out;
	}
	for (i = since + 1; i < L.nr; i++) {
		struct str t = trim(L.l[i]);

		if (eq_ci(t.s, t.len, AVAILABLE))
			break;
	}
	if (i == L.nr) {
		err = "no 'are available in the Git repository at:' line";
		goto out;
	}
	at = i;
	req->base_subject = indented_after(&L, since + 1, at);
	for (i = at + 1; i < L.nr && is_blank(L.l[i]); i++)
		;
	if (i == L.nr || starts_with(L.l[i], UPTO)) {
		err = "no repository URL after 'are available in the Git repository at:'";
		goto out;
	} else {
		struct str t = trim(L.l[i]);
		size_t k = t.len;

		while (k && !is_space(t.s[k - 1]))
			k--;
		if (k) {
			req->ref = mkstr(t.s + k, t.len - k);
			while (k && is_space(t.s[k - 1]))
				k--;
			req->url = mkstr(t.s, k);
		} else {
			req->url = t;
		}
	}
	for (; i < L.nr && !starts_with(L.l[i], UPTO); i++)
		;
	if (i == L.nr) {
		err = "no 'for you to fetch changes up to' line";
		goto out;
	}
	upto = i;
	req->tip = commit_id(mkstr(L.l[i].s + strlen(UPTO), L.l[i].len - strlen(UPTO)));
	if (!req->tip.len) {
		err = "no commit id after 'for you to fetch changes up to'";
		goto out;
	}
	req->tip_subject = indented_after(&L, upto + 1, L.nr);

	for (i = upto + 1; i < L.nr; i++)
		if (is_separator(L.l[i]))
			last_sep = i;
	for (i = upto + 1; i < L.nr; i++) {
		if (!stat_parse_totals(L.l[i], &dummy))
			continue;
		saw_total = 1;
		if (!find_block(&L, upto + 1, i, &bl))
			continue;
		chosen = bl;
		have = 1;
		/* one in a tag message has a separator after it */
		if (patch_follows(&L, bl.end) || last_sep < bl.end)
			break;
	}
	if (!have) {
		err = saw_total ?
			"the diffstat's rows do not add up to its 'files changed' line" :
			"no diffstat (no ' N files changed' line)";
		goto out;
	}
	take_sections(&L, upto, chosen.rows, req);
	if (take_block(&L, &chosen, req))
		err = "out of memory";
out:
	free(L.l);
	if (err)
		pullreq_release(req);
	return err;
}
