// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "numstat.h"
#include "quote.h"
#include "resolve.h"
#include "conflicts.h"
#include "diff.h"
#include "run.h"
#include "stat.h"


/*
 * What both modes compare: the merge bases described, git request-pull's
 * diffstat from the first (messy) and the clean one, both with the
 * user's diff options and format.  diffstats_cmd() prepares the three
 * gits and puts them first in the caller's list cps, which the caller
 * runs with its own (run_git_all_or_die()); diffstats_parse() reads
 * what they said.
 */
#define DIFFSTATS_NR 3

struct diffstats {
	struct child_process cp[DIFFSTATS_NR];	/* git log, the two diffs */
	struct strbuf log;
	struct strbuf messy, clean;
	struct strvec desc;		/* "<abbreviated id> <subject>" of
					   each merge base, the subject as
					   quote_shown() shows it */
};

static void diffstats_cmd(struct diffstats *d, const struct merge *m,
			  const struct options *opts, const struct strvec *base,
			  const char *const *format, struct child_process **cps)
{
	size_t i;

	if (!base->nr)
		BUG("merge_run() found no merge base and did not die");
	for (i = 0; i < DIFFSTATS_NR; i++) {
		d->cp[i] = (struct child_process)CHILD_PROCESS_INIT;
		cps[i] = &d->cp[i];
	}
	strbuf_init(&d->log);
	strbuf_init(&d->messy);
	strbuf_init(&d->clean);
	d->desc = (struct strvec)STRVEC_INIT;
	/* log.showSignature would add gpg's lines to the descriptions */
	strvec_pushl(&d->cp[0].args, "log", "--no-walk=unsorted",
		     "--no-show-signature", "--format=%h %s", NULL);
	strvec_pushv(&d->cp[0].args, base->v, base->nr);
	d->cp[0].out = &d->log;
	request_pull_diff(&d->cp[1], m->pull, base->v[0], &opts->diff, format);
	d->cp[1].out = &d->messy;
	merge_diff(&d->cp[2], m, &opts->diff, format);
	d->cp[2].out = &d->clean;
}

static void diffstats_parse(struct diffstats *d, const struct strvec *base)
{
	struct strbuf line = STRBUF_INIT;
	char *p, *nl;

	/* the subjects are the committers': shown, not obeyed */
	for (p = d->log.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		char *sp = memchr(p, ' ', (size_t)(nl - p));
		size_t id = sp ? (size_t)(sp - p) + 1 : (size_t)(nl - p);

		strbuf_reset(&line);
		strbuf_add(&line, p, id);
		quote_shown(&line, p + id, (size_t)(nl - p) - id);
		strvec_push(&d->desc, line.buf);
	}
	if (d->desc.nr != base->nr)
		die("git log described %zu of %zu merge bases", d->desc.nr,
		    base->nr);
	strbuf_release(&line);
}

static void diffstats_release(struct diffstats *d)
{
	strbuf_release(&d->log);
	strbuf_release(&d->messy);
	strbuf_release(&d->clean);
	strvec_clear(&d->desc);
}

/* How many files a --stat output names, from its totals line. */
static long stat_files(const struct strbuf *stat)
{
	const char *line = stat->buf, *end = stat->buf + stat->len;
	struct stat_totals t;
	long n = 0;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		struct str l = { line, (size_t)((nl ? nl : end) - line) };

		if (stat_parse_totals(l, &t))
			n = t.files;
		line = nl ? nl + 1 : end;
	}
	return n;
}

int compare_check(const struct merge *m, const struct strvec *base,
		  const struct options *opts)
{
	struct diffstats d;
	struct child_process *cps[DIFFSTATS_NR];
	const struct strbuf *messy = &d.messy, *clean = &d.clean;
	int same;
	long n;
	size_t i;

	diffstats_cmd(&d, m, opts, base, NULL, cps);
	run_git_all_or_die(cps, DIFFSTATS_NR);
	diffstats_parse(&d, base);
	same = messy->len == clean->len &&
	       !memcmp(messy->buf, clean->buf, clean->len);

	/* in the order the command line gives them */
	printf("'%s' and '%s' have %zu merge base%s:\n", m->pull->upstream.name,
	       m->pull->head.name, base->nr, base->nr == 1 ? "" : "s");
	for (i = 0; i < d.desc.nr; i++)
		printf("  %s%s\n", d.desc.v[i], i || base->nr == 1 ? "" :
		       " (the one git request-pull uses)");
	n = stat_files(messy);
	printf("git request-pull's diffstat names %ld file%s, the clean "
	       "diffstat %ld.\n", n, n == 1 ? "" : "s", stat_files(clean));
	if (same && !messy->len && opts->diff.nr_pathspec)
		puts("The pathspec matches no file in either diffstat: "
		     "nothing to compare.");
	else if (same)
		puts("The two are the same: git request-pull's diffstat is clean.");
	else
		puts("They differ: git request-pull's diffstat is messy; "
		     "use git clean-diffstat's.");
	if (m->conflicted)
		report_conflicts(m->pull, &m->res);

	diffstats_release(&d);
	return !same;
}

static int cmp_path(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

static int cmp_file(const void *va, const void *vb)
{
	const struct numstat_file *a = va, *b = vb;

	return cmp_path(a->path, a->path_len, b->path, b->path_len);
}

static void parse_sorted(const struct strbuf *out, struct numstat *ns)
{
	const char *why;

	if (numstat_parse(out->buf, out->len, ns, &why))
		die("cannot parse the output of git diff --numstat: %s", why);
	if (ns->nr)
		qsort(ns->file, ns->nr, sizeof(*ns->file), cmp_file);
}

static void add_counts(struct strbuf *sb, const struct numstat_file *f)
{
	if (f->added < 0)
		strbuf_addstr(sb, "binary");
	else
		strbuf_addf(sb, "+%ld -%ld", f->added, f->deleted);
}

/* A NUL-separated list of paths, sorted, to look paths up in. */
struct pathlist {
	struct strbuf buf;
	const char **path;
	size_t nr;
};

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The paths that differ between the merge bases a and b, named as the
 * numstat names them: with the user's diff options (--relative, a
 * pathspec) and from the same directory.  changed_cmd() prepares the
 * git diff, which writes them into pl, and changed_parse() reads them.
 */
static void changed_cmd(struct child_process *cp, const struct options *opts,
			const char *a, const char *b, struct pathlist *pl)
{
	merge_bases_diff(cp, &opts->diff, a, b);
	strbuf_init(&pl->buf);
	pl->path = NULL;
	pl->nr = 0;
	cp->out = &pl->buf;
}

static void changed_parse(struct pathlist *pl)
{
	size_t i, alloc = 0;

	for (i = 0; i < pl->buf.len; i += strlen(pl->buf.buf + i) + 1) {
		ALLOC_GROW(pl->path, pl->nr, alloc);
		pl->path[pl->nr++] = pl->buf.buf + i;
	}
	if (pl->nr)
		qsort(pl->path, pl->nr, sizeof(*pl->path), cmp_cstr);
}

static int pathlist_has(const struct pathlist *pl, const char *path)
{
	return pl->nr && bsearch(&path, pl->path, pl->nr, sizeof(*pl->path),
				 cmp_cstr) != NULL;
}

enum side { ONLY_MESSY, DIFFER, ONLY_CLEAN };

struct row {
	enum side side;
	const struct numstat_file *file;	/* messy, or else clean */
	const struct numstat_file *messy, *clean;
	/*
	 * ONLY_MESSY: by[k] is set when merge base k (k >= 1) changed the
	 * file since merge base 0, the one git request-pull diffs from:
	 * those are the bases that brought it in.  None: it is already in
	 * <upstream> by other means (a cherry-pick, the same change made
	 * twice).
	 */
	unsigned char *by;
	size_t nr_by;
	size_t order;			/* position in path order */
};

/*
 * The ONLY_MESSY rows grouped by the merge bases that brought them in:
 * the groups of one base first, in git's order of the bases, then those
 * of several, then the files no base brought; by path within a group.
 */
static size_t nr_bases_for_cmp;

static int cmp_group(const struct row *a, const struct row *b)
{
	int c;

	if (a->side != b->side)
		return (int)a->side - (int)b->side;
	if (a->side != ONLY_MESSY)
		return 0;
	if (!a->nr_by != !b->nr_by)
		return !a->nr_by - !b->nr_by;
	if (a->nr_by != b->nr_by)
		return a->nr_by < b->nr_by ? -1 : 1;
	c = memcmp(a->by, b->by, nr_bases_for_cmp);
	return -c;		/* base 1 before base 2: {1,0} before {0,1} */
}

static int cmp_row(const void *va, const void *vb)
{
	const struct row *a = va, *b = vb;
	int c = cmp_group(a, b);

	return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* The explanation is meant for a mail: no line wider than this. */
#define MAIL_WIDTH 80

/*
 * Add name to sb in exactly width columns: padded, or when it is wider,
 * cut as git's --stat cuts it (stat_name_cut()).
 */
static void add_name(struct strbuf *sb, const char *name, size_t len,
		     size_t width)
{
	size_t cut = stat_name_cut(name, len, width), w = cut ? 3 : 0;

	if (cut)
		strbuf_addstr(sb, "...");
	strbuf_add(sb, name + cut, len - cut);
	for (w += stat_width(name + cut, len - cut); w < width; w++)
		strbuf_addch(sb, ' ');
}

/* Add text, cut with "..." so that the line it ends is at most max wide. */
static void add_cut(struct strbuf *sb, size_t line_start, const char *text,
		    const char *end_with, size_t max)
{
	size_t used = stat_width(sb->buf + line_start, sb->len - line_start);
	size_t tail = strlen(end_with), len = strlen(text);

	if (used + stat_width(text, len) + tail > max) {
		size_t room = max > used + tail + 3 ? max - used - tail - 3 : 0;

		strbuf_add(sb, text, stat_width_prefix(text, len, room));
		strbuf_addstr(sb, "...");
	} else {
		strbuf_add(sb, text, len);
	}
	strbuf_addstr(sb, end_with);
}

/*
 * The two totals, after their labels; when one line would be too wide
 * for a mail, each total goes on a line of its own under its label.
 */
static void add_total_lines(struct strbuf *sb, const struct numstat *messy,
			    const struct numstat *clean)
{
	static const char *const label[] = {
		"git request-pull's diffstat:", "the clean diffstat:",
	};
	const struct numstat *ns[] = { messy, clean };
	char totals[2][STAT_TOTALS_MAX];
	struct stat_totals t;
	int i, wrap = 0;

	for (i = 0; i < 2; i++) {
		stat_numstat_totals(ns[i], &t);
		stat_totals_line(totals[i], &t);
		wrap |= strlen(label[0]) + 1 + strlen(totals[i]) > MAIL_WIDTH;
	}
	for (i = 0; i < 2; i++) {
		if (wrap)
			strbuf_addf(sb, "%s\n  %s\n", label[i], totals[i]);
		else
			strbuf_addf(sb, "%-*s %s\n", (int)strlen(label[0]),
				    label[i], totals[i]);
	}
}

static void add_row_counts(struct strbuf *sb, const struct row *r)
{
	if (r->side == DIFFER) {
		strbuf_addstr(sb, "request-pull ");
		add_counts(sb, r->messy);
		strbuf_addstr(sb, ", clean ");
		add_counts(sb, r->clean);
	} else {
		add_counts(sb, r->file);
	}
}

/* The heading of a group of files only git request-pull names. */
static void add_group_heading(struct strbuf *sb, const struct merge *m,
			      const struct strvec *desc, const struct row *r)
{
	static const char first[] = "  from merge bases ";
	size_t k, n = 0, line;

	if (!r->nr_by) {
		line = sb->len;
		strbuf_addstr(sb, "  already in '");
		add_cut(sb, line, m->pull->upstream.name, "':\n", MAIL_WIDTH);
		return;
	}
	for (k = 1; k < desc->nr; k++) {
		if (!r->by[k])
			continue;
		line = sb->len;
		if (!n)
			strbuf_addstr(sb, r->nr_by == 1 ? "  from merge base " :
				      first);
		else
			strbuf_addf(sb, "%*s", (int)strlen(first), "");
		add_cut(sb, line, desc->v[k], ++n == r->nr_by ? ":\n" : ",\n",
			MAIL_WIDTH);
	}
}

static void print_human(const struct merge *m, const struct strvec *desc,
			const struct numstat *messy, const struct numstat *clean,
			const struct row *row, size_t nr, int quote_high,
			int pathspec)
{
	static const char *heading[] = {
		"Only in git request-pull's diffstat, not part of this pull:",
		"Counted differently:",
		"Only in the clean diffstat:",
	};
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	size_t i, col = 0, counts = 0;

	/*
	 * The names of all sections line up, as wide as the widest but no
	 * wider than leaves room for the widest counts in MAIL_WIDTH; a
	 * name that does not fit is cut as git's --stat cuts it.
	 */
	for (i = 0; i < nr; i++) {
		const struct row *r = &row[i];
		size_t indent = r->side == ONLY_MESSY ? 4 : 2, before = sb.len;

		quote_c_style(&sb, r->file->path, r->file->path_len, quote_high);
		if (indent + stat_width(sb.buf + before, sb.len - before) > col)
			col = indent + stat_width(sb.buf + before, sb.len - before);
		strbuf_setlen(&sb, before);
		add_row_counts(&sb, r);
		if (sb.len - before > counts)
			counts = sb.len - before;
		strbuf_setlen(&sb, before);
	}
	if (col + 2 + counts > MAIL_WIDTH)
		col = MAIL_WIDTH > counts + 2 + 4 + 8 ?
		      MAIL_WIDTH - counts - 2 : 4 + 8;

	add_total_lines(&sb, messy, clean);
	if (!nr && !messy->nr && pathspec)
		strbuf_addstr(&sb, "\nThe pathspec matches no file in either "
			      "diffstat.\n");
	else if (!nr)
		strbuf_addstr(&sb, "\nThey name the same files with the same counts.\n");
	for (i = 0; i < nr; i++) {
		const struct row *r = &row[i];
		size_t indent = r->side == ONLY_MESSY ? 4 : 2;

		if (!i || r->side != row[i - 1].side)
			strbuf_addf(&sb, "\n%s\n", heading[r->side]);
		if (r->side == ONLY_MESSY &&
		    (!i || cmp_group(r, &row[i - 1])))
			add_group_heading(&sb, m, desc, r);
		strbuf_addf(&sb, "%*s", (int)indent, "");
		strbuf_reset(&name);
		quote_c_style(&name, r->file->path, r->file->path_len,
			      quote_high);
		add_name(&sb, name.buf, name.len, col - indent);
		strbuf_addstr(&sb, "  ");
		add_row_counts(&sb, r);
		strbuf_addch(&sb, '\n');
	}
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	strbuf_release(&name);
}

static void add_porcelain_counts(struct strbuf *sb, const struct numstat_file *f)
{
	if (f->added < 0)
		strbuf_addstr(sb, " - -");
	else
		strbuf_addf(sb, " %ld %ld", f->added, f->deleted);
}

static void add_porcelain_total(struct strbuf *sb, const char *name,
				const struct numstat *ns, char eol)
{
	struct stat_totals t;

	stat_numstat_totals(ns, &t);
	strbuf_addf(sb, "%s %zu %ld %ld%c", name, ns->nr, t.insertions,
		    t.deletions, eol);
}

static void print_porcelain(const struct strvec *base,
			    const struct numstat *messy,
			    const struct numstat *clean,
			    const struct row *row, size_t nr, int nul)
{
	static const char *tag[] = { "only-request-pull", "differ", "only-clean" };
	struct strbuf sb = STRBUF_INIT;
	char eol = nul ? '\0' : '\n';
	size_t i, k;

	add_porcelain_total(&sb, "request-pull", messy, eol);
	add_porcelain_total(&sb, "clean", clean, eol);
	for (i = 0; i < nr; i++) {
		const struct row *r = &row[i];

		strbuf_addstr(&sb, tag[r->side]);
		if (r->messy)
			add_porcelain_counts(&sb, r->messy);
		if (r->clean)
			add_porcelain_counts(&sb, r->clean);
		if (r->side == ONLY_MESSY) {
			/* the first base that brought it, then all of them */
			/* the first base that brought it, then the others */
			size_t left = r->nr_by;

			for (k = 1; k < base->nr && !r->by[k]; k++)
				;
			strbuf_addf(&sb, " %s ", k < base->nr ? base->v[k] : "-");
			if (left-- <= 1)
				strbuf_addch(&sb, '-');
			for (k++; k < base->nr; k++)
				if (r->by[k])
					strbuf_addf(&sb, "%s%s", base->v[k],
						    --left ? "," : "");
		}
		strbuf_addch(&sb, ' ');
		if (nul)
			strbuf_add(&sb, r->file->path, r->file->path_len);
		else
			quote_c_style(&sb, r->file->path, r->file->path_len, 1);
		strbuf_addch(&sb, eol);
	}
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

static int same_counts(const struct numstat_file *a, const struct numstat_file *b)
{
	return a->added == b->added && a->deleted == b->deleted;
}

/*
 * The rows of the explanation, in path order, from the two numstats
 * (sorted): the files one names and the other does not, and those they
 * count differently.  An ONLY_MESSY row's by[] says which of the other
 * merge bases (k >= 1 of nr_bases) changed it (changed[k]).  row has
 * room for every file of both, by for nr_bases flags of each of messy.
 * Returns the number of rows.
 */
static size_t collect_rows(const struct numstat *messy,
			   const struct numstat *clean,
			   const struct pathlist *changed, size_t nr_bases,
			   struct row *row, unsigned char *by)
{
	struct strbuf path = STRBUF_INIT;
	size_t i = 0, j = 0, nr = 0, k;

	while (i < messy->nr || j < clean->nr) {
		const struct numstat_file *a = i < messy->nr ? &messy->file[i] : NULL;
		const struct numstat_file *b = j < clean->nr ? &clean->file[j] : NULL;
		int c = !a ? 1 : !b ? -1 :
			cmp_path(a->path, a->path_len, b->path, b->path_len);
		struct row *r = &row[nr];

		memset(r, 0, sizeof(*r));
		r->order = nr;
		if (c < 0) {
			r->side = ONLY_MESSY;
			r->file = r->messy = a;
			r->by = by + i * nr_bases;
			strbuf_reset(&path);
			strbuf_add(&path, a->path, a->path_len);
			for (k = 1; k < nr_bases; k++)
				if (pathlist_has(&changed[k], path.buf)) {
					r->by[k] = 1;
					r->nr_by++;
				}
			nr++, i++;
		} else if (c > 0) {
			r->side = ONLY_CLEAN;
			r->file = r->clean = b;
			nr++, j++;
		} else {
			if (!same_counts(a, b)) {
				r->side = DIFFER;
				r->file = r->messy = a;
				r->clean = b;
				nr++;
			}
			i++, j++;
		}
	}
	strbuf_release(&path);
	return nr;
}

int compare_explain(const struct merge *m, const struct strvec *base,
		    const struct options *opts)
{
	static const char *const numstat[] = { "--numstat", "-z", NULL };
	struct diffstats d;
	struct numstat messy, clean;
	struct pathlist *changed;
	struct child_process *cp, **cps;
	struct row *row;
	unsigned char *by;
	size_t nr, k;

	/* what each other merge base brings, beside the diffstats */
	changed = xmalloc(base->nr * sizeof(*changed));
	cp = xmalloc(base->nr * sizeof(*cp));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers, on purpose */
	cps = xmalloc((DIFFSTATS_NR + base->nr - 1) * sizeof(*cps));
	diffstats_cmd(&d, m, opts, base, numstat, cps);
	for (k = 1; k < base->nr; k++) {
		cp[k] = (struct child_process)CHILD_PROCESS_INIT;
		changed_cmd(&cp[k], opts, base->v[0], base->v[k], &changed[k]);
		cps[DIFFSTATS_NR + k - 1] = &cp[k];
	}
	run_git_all_or_die(cps, DIFFSTATS_NR + base->nr - 1);
	free(cps);
	free(cp);
	diffstats_parse(&d, base);
	parse_sorted(&d.messy, &messy);
	parse_sorted(&d.clean, &clean);
	for (k = 1; k < base->nr; k++)
		changed_parse(&changed[k]);

	row = xmalloc((messy.nr + clean.nr + 1) * sizeof(*row));
	by = xmalloc((messy.nr + 1) * base->nr);
	memset(by, 0, (messy.nr + 1) * base->nr);
	nr = collect_rows(&messy, &clean, changed, base->nr, row, by);
	if (opts->porcelain) {
		print_porcelain(base, &messy, &clean, row, nr, opts->nul);
	} else {
		nr_bases_for_cmp = base->nr;
		if (nr)
			qsort(row, nr, sizeof(*row), cmp_row);
		print_human(m, &d.desc, &messy, &clean, row, nr,
			    m->pull->quote_path, opts->diff.nr_pathspec > 0);
	}
	if (m->conflicted)
		report_conflicts(m->pull, &m->res);

	for (k = 1; k < base->nr; k++) {
		strbuf_release(&changed[k].buf);
		free(changed[k].path);
	}
	free(changed);
	free(row);
	free(by);
	numstat_release(&messy);
	numstat_release(&clean);
	diffstats_release(&d);
	return nr != 0;
}
