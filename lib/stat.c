// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numstat.h"
#include "quote.h"
#include "stat.h"
#include "strbuf.h"
#include "unicode-width.h"

static int is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

/* The number s starts with into *out: its length, or 0 (*out as it was). */
static size_t parse_num(const char *s, size_t n, long *out)
{
	size_t i;
	long v = 0;

	for (i = 0; i < n && is_digit(s[i]); i++) {
		if (i == 18)
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	if (i)
		*out = v;
	return i;
}

/* ------------------------------------------------------------------ */
/* Display width, as git's utf8.c measures it.                         */

/*
 * The character at s (n > 0 bytes left): its length in bytes, its
 * width in *width.  A byte that starts no valid UTF-8 sequence is one
 * character of one column.
 */
static size_t next_char(const char *s, size_t n, size_t *width)
{
	unsigned cp;
	size_t len = utf8_char(s, n, &cp);

	*width = 1;
	if (!len)
		return 1;
	/* git_wcwidth(): a control character takes no column */
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ||
	    code_in_ranges(cp, zero_width, sizeof(zero_width) / sizeof(*zero_width)))
		*width = 0;
	else if (code_in_ranges(cp, double_width,
				sizeof(double_width) / sizeof(*double_width)))
		*width = 2;
	return len;
}

/* The bytes of the longest start of s at most columns wide; its width in *w. */
static size_t fit(const char *s, size_t len, size_t columns, size_t *w)
{
	size_t i = 0, cw, n;

	for (*w = 0; i < len; i += n) {
		n = next_char(s + i, len - i, &cw);
		if (*w + cw > columns)
			break;
		*w += cw;
	}
	return i;
}

size_t stat_width(const char *s, size_t len)
{
	size_t w;

	fit(s, len, (size_t)-1, &w);
	return w;
}

size_t stat_width_prefix(const char *s, size_t len, size_t columns)
{
	size_t w;

	return fit(s, len, columns, &w);
}

/* diff.c, show_stats(): "scale" the filename */
size_t stat_name_cut(const char *name, size_t len, size_t columns)
{
	size_t w = stat_width(name, len), room, i = 0, cw;
	const char *slash;

	if (w <= columns)
		return 0;
	room = columns > 3 ? columns - 3 : 0;
	while (w > room && i < len) {
		i += next_char(name + i, len - i, &cw);
		w -= cw;
	}
	slash = memchr(name + i, '/', len - i);
	return slash ? (size_t)(slash - name) : i;
}

/* ------------------------------------------------------------------ */
/* Printed names: C quoting and renames, as git's diff.c prints them.  */

/* diff.c, pprint_rename(), on counted strings. */
static void pprint_rename(struct strbuf *out, const char *a, size_t len_a,
			  const char *b, size_t len_b, int quotepath)
{
	ptrdiff_t pfx = 0, sfx = 0, adjust, i, j, a_mid, b_mid;

	if (quote_c_as_git_needed(a, len_a, quotepath) ||
	    quote_c_as_git_needed(b, len_b, quotepath)) {
		quote_c_as_git(out, a, len_a, quotepath);
		strbuf_add(out, " => ", 4);
		quote_c_as_git(out, b, len_b, quotepath);
		return;
	}
	/* the common prefix, up to its last '/' */
	for (i = 0; (size_t)i < len_a && (size_t)i < len_b && a[i] == b[i]; i++)
		if (a[i] == '/')
			pfx = i + 1;
	/*
	 * The common suffix, from a '/': from the terminating NULs back,
	 * and one into the prefix to see its slash when there is one.
	 */
	adjust = pfx ? 1 : 0;
	i = (ptrdiff_t)len_a;
	j = (ptrdiff_t)len_b;
	while (pfx - adjust <= i && pfx - adjust <= j &&
	       ((size_t)i == len_a ? '\0' : a[i]) ==
	       ((size_t)j == len_b ? '\0' : b[j])) {
		if ((size_t)i < len_a && a[i] == '/')
			sfx = (ptrdiff_t)len_a - i;
		i--;
		j--;
	}
	a_mid = (ptrdiff_t)len_a - pfx - sfx;
	b_mid = (ptrdiff_t)len_b - pfx - sfx;
	if (a_mid < 0)
		a_mid = 0;
	if (b_mid < 0)
		b_mid = 0;
	if (pfx + sfx) {
		strbuf_add(out, a, (size_t)pfx);
		strbuf_addch(out, '{');
	}
	strbuf_add(out, a + pfx, (size_t)a_mid);
	strbuf_add(out, " => ", 4);
	strbuf_add(out, b + pfx, (size_t)b_mid);
	if (pfx + sfx) {
		strbuf_addch(out, '}');
		strbuf_add(out, a + len_a - sfx, (size_t)sfx);
	}
}

char *stat_name(const char *path, size_t path_len,
			const char *from, size_t from_len, int quotepath,
			size_t *len)
{
	struct strbuf b = STRBUF_INIT;

	if (from_len)
		pprint_rename(&b, from, from_len, path, path_len, quotepath);
	else
		quote_c_as_git(&b, path, path_len, quotepath);
	return strbuf_detach(&b, len);
}

/* unquote_c_style(): the quoted string at *i in s (n bytes) into out. */
static int unquote_c(const char *s, size_t n, size_t *i, struct strbuf *out)
{
	size_t k = *i;

	if (k >= n || s[k] != '"')
		return -1;
	for (k++; k < n; k++) {
		unsigned char ch = (unsigned char)s[k];
		static const char letters[] = "abtnvfr";	/* 0x07 to 0x0d */

		if (ch == '"') {
			*i = k + 1;
			return 0;
		}
		if (ch != '\\') {
			strbuf_addch(out, ch);
			continue;
		}
		if (++k >= n)
			return -1;
		ch = (unsigned char)s[k];
		if (ch && strchr(letters, ch)) {
			strbuf_addch(out, 0x07 + (int)(strchr(letters, ch) - letters));
		} else if (ch == '"' || ch == '\\') {
			strbuf_addch(out, ch);
		} else if (ch >= '0' && ch <= '3' && k + 2 < n &&
			   s[k + 1] >= '0' && s[k + 1] <= '7' &&
			   s[k + 2] >= '0' && s[k + 2] <= '7') {
			strbuf_addch(out, (ch - '0') << 6 | (s[k + 1] - '0') << 3 |
				       (s[k + 2] - '0'));
			k += 2;
		} else {
			return -1;
		}
	}
	return -1;
}

/*
 * *from and *path copies of a and b (a may be empty: no source) in one
 * block, returned (NULL when both are empty); a and b are released.
 */
static char *own_paths(struct strbuf *a, struct strbuf *b, struct str *from,
		       struct str *path)
{
	size_t from_len = a->len;
	char *block = NULL;

	strbuf_add(a, b->buf, b->len);
	if (a->len)
		block = strbuf_detach(a, NULL);
	*from = str_at(block, from_len);
	*path = str_at(block ? block + from_len : NULL, b->len);
	strbuf_release(a);
	strbuf_release(b);
	return block;
}

char *stat_name_paths(struct str name, struct str *path, struct str *from)
{
	const char *s = name.s, *arrow;
	size_t n = name.len, i;

	*path = *from = str_at(NULL, 0);
	if (!n)
		return NULL;
	if (memchr(s, '"', n)) {		/* "a" => "b", a => "b", "a" */
		struct strbuf part[2] = { STRBUF_INIT, STRBUF_INIT };
		int k;

		i = 0;
		for (k = 0; k < 2; k++) {
			if (s[i] == '"') {
				if (unquote_c(s, n, &i, &part[k]))
					break;
			} else {
				arrow = str_find(str_at(s + i, n - i), " => ");
				if (!arrow || memchr(s + i, '"', (size_t)(arrow - s) - i))
					break;
				strbuf_add(&part[k], s + i, (size_t)(arrow - s) - i);
				i = (size_t)(arrow - s);
			}
			if (i == n || n - i < 5 || memcmp(s + i, " => ", 4))
				break;
			i += 4;
		}
		if (i == n && k < 2)	/* "a" alone is the path */
			return own_paths(&part[!k], &part[k], from, path);
		strbuf_release(&part[0]);
		strbuf_release(&part[1]);
		return NULL;
	}
	for (i = 0; i < n; i++) {		/* pfx{a => b}sfx */
		const char *close;
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		size_t pfx = i, sfx_at, sfx;

		if (s[i] != '{' || (i && s[i - 1] != '/'))
			continue;
		arrow = str_find(str_at(s + i, n - i), " => ");
		if (!arrow)
			break;
		for (close = arrow + 4; close < s + n; close++)
			if (*close == '}' && (close + 1 == s + n || close[1] == '/'))
				break;
		if (close == s + n)
			continue;
		sfx_at = (size_t)(close + 1 - s);
		sfx = n - sfx_at;
		if (!pfx && !sfx)
			continue;
		strbuf_add(&a, s, pfx);
		strbuf_add(&a, s + i + 1, (size_t)(arrow - s) - i - 1);
		strbuf_add(&b, s, pfx);
		strbuf_add(&b, arrow + 4, (size_t)(close - arrow) - 4);
		/* an empty middle: prefix and suffix share their slash */
		if (a.len == pfx && pfx && sfx)
			strbuf_setlen(&a, a.len - 1);
		if (b.len == pfx && pfx && sfx)
			strbuf_setlen(&b, b.len - 1);
		strbuf_add(&a, s + sfx_at, sfx);
		strbuf_add(&b, s + sfx_at, sfx);
		return own_paths(&a, &b, from, path);
	}
	arrow = str_find(str_at(s, n), " => ");
	if (arrow) {				/* a => b */
		*from = str_at(s, (size_t)(arrow - s));
		*path = str_at(arrow + 4, n - (size_t)(arrow - s) - 4);
	} else {
		*path = name;
	}
	return NULL;
}

char *stat_name_path(struct str name, struct str *path)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct str from;
	size_t i = 0;

	*path = name;
	if (!name.len || name.s[0] != '"')
		return NULL;
	if (unquote_c(name.s, name.len, &i, &b) || i != name.len) {
		*path = str_at(NULL, 0);
		strbuf_release(&b);
		return NULL;
	}
	return own_paths(&a, &b, &from, path);
}

/*
 * At s + i, after a count: word, or word and an "s", then tail; the
 * index past them, or 0 when they are not there.
 */
static size_t past_word(const char *s, size_t n, size_t i, const char *word,
			const char *tail)
{
	size_t w = strlen(word), t = strlen(tail);

	if (n - i < w || memcmp(s + i, word, w))
		return 0;
	i += w;
	if (i < n && s[i] == 's')
		i++;
	if (n - i < t || memcmp(s + i, tail, t))
		return 0;
	return i + t;
}

int stat_parse_totals(struct str l, struct stat_totals *t)
{
	static const struct {
		const char *word, *tail;
	} part[2] = { { " insertion", "(+)" }, { " deletion", "(-)" } };
	long *num[2] = { &t->insertions, &t->deletions };
	const char *s = l.s;
	size_t n = str_rtrim(l, " \t").len, i = 1, j, k, p;

	if (n < 2 || s[0] != ' ' || !is_digit(s[1]))
		return 0;
	t->insertions = t->deletions = 0;
	if (!(k = parse_num(s + i, n - i, &t->files)) ||
	    !(i = past_word(s, n, i + k, " file", " changed")))
		return 0;
	/* ", <n> insertion(s)(+)", ", <n> deletion(s)(-)": either, both */
	for (p = 0; p < 2; p++)
		if (n - i > 2 && !memcmp(s + i, ", ", 2) &&
		    (k = parse_num(s + i + 2, n - i - 2, num[p])) &&
		    (j = past_word(s, n, i + 2 + k, part[p].word, part[p].tail)))
			i = j;
		else
			*num[p] = 0;
	return i == n;
}

/*
 * A stat row: " <name> | <N> <graph>", " <name> | Bin[ <old> -> <new> bytes]"
 * or " <name> | Unmerged", the name padded with spaces.
 */
int stat_parse_row(struct str l, struct stat_row *row)
{
	const char *s = l.s;
	size_t n, bar, i, k;

	memset(row, 0, sizeof(*row));
	n = str_rtrim(l, " \t").len;
	if (n < 5 || s[0] != ' ')
		return 0;
	for (bar = n - 2; bar > 1; bar--)	/* the last " | " */
		if (s[bar] == '|')
			break;
	if (bar <= 1 || s[bar - 1] != ' ' || s[bar + 1] != ' ')
		return 0;
	i = bar + 2;
	while (i < n && s[i] == ' ')
		i++;
	row->changes = row->old_size = row->new_size = -1;
	if ((k = parse_num(s + i, n - i, &row->changes))) {
		row->kind = STAT_ROW_TEXT;
		i += k;
		if (i < n) {	/* the graph: none after 0, or lost */
			if (s[i++] != ' ' || i == n || !row->changes)
				return 0;
			while (i < n && s[i] == '+')
				i++;
			while (i < n && s[i] == '-')
				i++;
			if (i != n)
				return 0;
		}
	} else if (n - i >= 3 && !memcmp(s + i, "Bin", 3)) {
		row->kind = STAT_ROW_BINARY;
		i += 3;
		if (i < n) {
			if (s[i] != ' ' ||
			    !(k = parse_num(s + i + 1, n - i - 1, &row->old_size)))
				return 0;
			i += 1 + k;
			if (n - i < 4 || memcmp(s + i, " -> ", 4) ||
			    !(k = parse_num(s + i + 4, n - i - 4, &row->new_size)))
				return 0;
			i += 4 + k;
			if (n - i != 6 || memcmp(s + i, " bytes", 6))
				return 0;
		}
	} else if (n - i == 8 && !memcmp(s + i, "Unmerged", 8)) {
		row->kind = STAT_ROW_UNMERGED;
	} else {
		return 0;
	}
	k = bar - 1;
	while (k > 1 && s[k - 1] == ' ')
		k--;
	row->name = str_at(s + 1, k - 1);
	row->abbreviated = row->name.len >= 3 && !memcmp(row->name.s, "...", 3);
	return row->name.len > 0;
}

int stat_is_cut(struct str l)
{
	return str_equals(str_rtrim(l, " \t"), " ...");
}

/* The six octal digits of a mode (%06o) at s: 1 and *mode, or 0. */
static int parse_mode(const char *s, size_t n, unsigned *mode)
{
	size_t i;

	*mode = 0;
	if (n < 6)
		return 0;
	for (i = 0; i < 6; i++) {
		if (s[i] < '0' || s[i] > '7')
			return 0;
		*mode = *mode * 8 + (unsigned)(s[i] - '0');
	}
	return 1;
}

int stat_parse_summary(struct str l, struct stat_summary *sum)
{
	static const struct {
		const char *word;
		enum stat_summary_kind kind;
	} words[] = {
		{ " create ", STAT_SUMMARY_CREATE },
		{ " delete ", STAT_SUMMARY_DELETE },
		{ " rename ", STAT_SUMMARY_RENAME },
		{ " copy ", STAT_SUMMARY_COPY },
		{ " rewrite ", STAT_SUMMARY_REWRITE },
		{ " mode change ", STAT_SUMMARY_MODE_CHANGE },
	};
	const char *s = l.s;
	size_t n = str_rtrim(l, " ").len, w, i;

	memset(sum, 0, sizeof(*sum));
	sum->similarity = -1;
	for (w = 0; w < sizeof(words) / sizeof(*words); w++)
		if (str_starts_with(str_at(s, n), words[w].word))
			break;
	if (w == sizeof(words) / sizeof(*words))
		return 0;
	sum->kind = words[w].kind;
	i = strlen(words[w].word);
	switch (sum->kind) {
	case STAT_SUMMARY_CREATE:
	case STAT_SUMMARY_DELETE:
		if (n - i > 12 && !memcmp(s + i, "mode ", 5) &&
		    s[i + 11] == ' ' &&
		    parse_mode(s + i + 5, 6, sum->kind == STAT_SUMMARY_CREATE ?
			       &sum->new_mode : &sum->old_mode))
			i += 12;
		sum->name = str_at(s + i, n - i);
		return i < n;
	case STAT_SUMMARY_MODE_CHANGE:
		if (!parse_mode(s + i, n - i, &sum->old_mode) ||
		    n - i < 10 || memcmp(s + i + 6, " => ", 4) ||
		    !parse_mode(s + i + 10, n - i - 10, &sum->new_mode))
			return 0;
		i += 16;
		if (i == n)
			return 1;
		if (s[i] != ' ' || i + 1 == n)
			return 0;
		sum->name = str_at(s + i + 1, n - i - 1);
		return 1;
	default: {			/* <names> (NN%) */
		size_t k = n;
		long sim = 0;		/* "(%)" */

		if (k < i + 5 || s[k - 1] != ')' || s[k - 2] != '%')
			return 0;
		k -= 2;
		while (k > i && is_digit(s[k - 1]))
			k--;
		if (k < i + 3 || s[k - 1] != '(' || s[k - 2] != ' ' ||
		    parse_num(s + k, n - 2 - k, &sim) != n - 2 - k || sim > 100)
			return 0;
		sum->similarity = (int)sim;
		sum->name = str_at(s + i, k - 2 - i);
		return 1;
	}
	}
}

void stat_numstat_totals(const struct numstat *ns, struct stat_totals *t)
{
	size_t i;

	t->files = (long)ns->nr;
	t->insertions = t->deletions = 0;
	for (i = 0; i < ns->nr; i++)
		if (ns->file[i].added >= 0) {
			t->insertions += ns->file[i].added;
			t->deletions += ns->file[i].deleted;
		}
}

/* diff.c, print_stat_summary() */
const char *stat_totals_line(char *buf, const struct stat_totals *t)
{
	size_t n;

	n = (size_t)snprintf(buf, STAT_TOTALS_MAX, "%ld file%s changed",
			     t->files, t->files == 1 ? "" : "s");
	if (!t->files)
		return buf;
	if (t->insertions || !t->deletions)
		n += (size_t)snprintf(buf + n, STAT_TOTALS_MAX - n,
				      ", %ld insertion%s(+)", t->insertions,
				      t->insertions == 1 ? "" : "s");
	if (t->deletions || !t->insertions)
		snprintf(buf + n, STAT_TOTALS_MAX - n, ", %ld deletion%s(-)",
			 t->deletions, t->deletions == 1 ? "" : "s");
	return buf;
}
