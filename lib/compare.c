#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "numstat.h"
#include "quote.h"
#include "conflicts.h"
#include "run.h"


/* desc[i]: "<abbreviated id> <subject>" of each merge base. */
static void describe(const struct strvec *oid, struct strvec *desc)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	char *p, *nl;

	if (!oid->nr)
		BUG("merge_bases() found none and did not die");
	strvec_pushl(&cp.args, "log", "--no-walk=unsorted", "--format=%h %s",
		     NULL);
	strvec_pushv(&cp.args, oid->v, oid->nr);
	cp.out = &out;
	run_git_or_die(&cp);
	for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		strvec_push(desc, p);
	}
	if (desc->nr != oid->nr)
		die("git log described %zu of %zu merge bases", desc->nr,
		    oid->nr);
	strbuf_release(&out);
}

/*
 * The two diffstats, git request-pull's from base and the clean one,
 * with the user's diff options and format.
 */
static void diffstats(const struct merge *m, const struct options *opts,
		      const char *base, const char *const *format,
		      struct strbuf *messy, struct strbuf *clean)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	request_pull_diff(&cp, m->pull, base, &opts->diff, format);
	cp.out = messy;
	run_git_or_die(&cp);
	merge_diff(&cp, m, &opts->diff, format);
	cp.out = clean;
	run_git_or_die(&cp);
}

/* How many files a --stat output names, from its " N files changed" line. */
static int stat_files(const struct strbuf *stat)
{
	const char *line = stat->buf;
	int n = 0, files;

	while (*line) {
		const char *nl = strchr(line, '\n');
		char word[8];

		if (!strstr(line, " | ") &&
		    sscanf(line, " %d file%7s changed", &files, word) == 2)
			n = files;
		line = nl ? nl + 1 : line + strlen(line);
	}
	return n;
}

int compare_check(const struct merge *m, const struct strvec *base,
		  const struct options *opts)
{
	struct strbuf messy = STRBUF_INIT, clean = STRBUF_INIT;
	struct strvec desc = STRVEC_INIT;
	int same, n;
	size_t i;

	describe(base, &desc);
	diffstats(m, opts, base->v[0], NULL, &messy, &clean);
	same = messy.len == clean.len && !memcmp(messy.buf, clean.buf, clean.len);

	printf("'%s' and '%s' have %zu merge base%s:\n", m->pull->head.name,
	       m->pull->upstream.name, base->nr, base->nr == 1 ? "" : "s");
	for (i = 0; i < desc.nr; i++)
		printf("  %s%s\n", desc.v[i], i || base->nr == 1 ? "" :
		       " (the one git request-pull uses)");
	n = stat_files(&messy);
	printf("git request-pull's diffstat names %d file%s, the clean "
	       "diffstat %d.\n", n, n == 1 ? "" : "s", stat_files(&clean));
	if (same && !messy.len && opts->diff.nr_pathspec)
		puts("The pathspec matches no file in either diffstat: "
		     "nothing to compare.");
	else if (same)
		puts("The two are the same: git request-pull's diffstat is clean.");
	else
		puts("They differ: git request-pull's diffstat is messy; "
		     "use git clean-diffstat's.");
	if (m->conflicted)
		report_conflicts(m->pull, &m->res);

	strbuf_release(&messy);
	strbuf_release(&clean);
	strvec_clear(&desc);
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

/* The lines added and deleted over all files (binary files count none). */
static void count_lines(const struct numstat *ns, long *ins, long *del)
{
	size_t i;

	*ins = *del = 0;
	for (i = 0; i < ns->nr; i++)
		if (ns->file[i].added >= 0) {
			*ins += ns->file[i].added;
			*del += ns->file[i].deleted;
		}
}

/* " 2 files changed, 5 insertions(+), 1 deletion(-)", as git says it. */
static void add_totals(struct strbuf *sb, const struct numstat *ns)
{
	long ins, del;

	count_lines(ns, &ins, &del);
	strbuf_addf(sb, "%zu file%s changed", ns->nr, ns->nr == 1 ? "" : "s");
	if (!ns->nr)
		return;
	if (ins || !del)
		strbuf_addf(sb, ", %ld insertion%s(+)", ins, ins == 1 ? "" : "s");
	if (del || !ins)
		strbuf_addf(sb, ", %ld deletion%s(-)", del, del == 1 ? "" : "s");
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

static void changed_between(const char *a, const char *b, struct pathlist *pl)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	size_t i, alloc = 0;

	strvec_pushl(&cp.args, "diff", "--name-only", "-z", "--no-renames",
		     "--end-of-options", a, b, NULL);
	strbuf_init(&pl->buf);
	pl->path = NULL;
	pl->nr = 0;
	cp.out = &pl->buf;
	run_git_or_die(&cp);
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

/* The first merge base after base[0] whose history changed path, or -1. */
static int brought_in_by(const struct pathlist *changed, size_t nr,
			 const struct numstat_file *f)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int found = -1;

	strbuf_add(&path, f->path, f->path_len);
	for (i = 0; i < nr && found < 0; i++)
		if (pathlist_has(&changed[i], path.buf))
			found = (int)i + 1;
	strbuf_release(&path);
	return found;
}

enum side { ONLY_MESSY, DIFFER, ONLY_CLEAN };

struct row {
	enum side side;
	const struct numstat_file *file;	/* messy, or else clean */
	const struct numstat_file *messy, *clean;
	int base;			/* ONLY_MESSY: index of a merge base, or -1 */
};

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
	struct strbuf sb = STRBUF_INIT;
	size_t i, width = 0;
	int side;

	for (i = 0; i < nr; i++) {
		const struct numstat_file *f = row[i].file;
		size_t before = sb.len;

		quote_c_style(&sb, f->path, f->path_len, quote_high);
		if (sb.len - before > width)
			width = sb.len - before;
		strbuf_setlen(&sb, before);
	}
	if (width > 40)
		width = 40;

	strbuf_addstr(&sb, "git request-pull's diffstat: ");
	add_totals(&sb, messy);
	strbuf_addstr(&sb, "\nthe clean diffstat:          ");
	add_totals(&sb, clean);
	strbuf_addch(&sb, '\n');
	if (!nr && !messy->nr && pathspec)
		strbuf_addstr(&sb, "\nThe pathspec matches no file in either "
			      "diffstat.\n");
	else if (!nr)
		strbuf_addstr(&sb, "\nThey name the same files with the same counts.\n");
	for (side = ONLY_MESSY; side <= ONLY_CLEAN; side++) {
		int shown = 0;

		for (i = 0; i < nr; i++) {
			const struct row *r = &row[i];
			const struct numstat_file *f = r->file;
			size_t before;

			if ((int)r->side != side)
				continue;
			if (!shown++)
				strbuf_addf(&sb, "\n%s\n", heading[side]);
			strbuf_addstr(&sb, "  ");
			before = sb.len;
			quote_c_style(&sb, f->path, f->path_len, quote_high);
			while (sb.len - before < width)
				strbuf_addch(&sb, ' ');
			strbuf_addstr(&sb, "  ");
			if (r->side == DIFFER) {
				strbuf_addstr(&sb, "request-pull ");
				add_counts(&sb, r->messy);
				strbuf_addstr(&sb, ", clean ");
				add_counts(&sb, r->clean);
			} else {
				add_counts(&sb, f);
			}
			if (r->side == ONLY_MESSY && r->base > 0)
				strbuf_addf(&sb, "  (from merge base %s)",
					    desc->v[r->base]);
			else if (r->side == ONLY_MESSY)
				strbuf_addf(&sb, "  (already in '%s')",
					    m->pull->upstream.name);
			strbuf_addch(&sb, '\n');
		}
	}
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
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
	long ins, del;

	count_lines(ns, &ins, &del);
	strbuf_addf(sb, "%s %zu %ld %ld%c", name, ns->nr, ins, del, eol);
}

static void print_porcelain(const struct strvec *base,
			    const struct numstat *messy,
			    const struct numstat *clean,
			    const struct row *row, size_t nr, int nul)
{
	static const char *tag[] = { "only-request-pull", "differ", "only-clean" };
	struct strbuf sb = STRBUF_INIT;
	char eol = nul ? '\0' : '\n';
	size_t i;

	add_porcelain_total(&sb, "request-pull", messy, eol);
	add_porcelain_total(&sb, "clean", clean, eol);
	for (i = 0; i < nr; i++) {
		const struct row *r = &row[i];

		strbuf_addstr(&sb, tag[r->side]);
		if (r->messy)
			add_porcelain_counts(&sb, r->messy);
		if (r->clean)
			add_porcelain_counts(&sb, r->clean);
		if (r->side == ONLY_MESSY)
			strbuf_addf(&sb, " %s", r->base > 0 ? base->v[r->base] : "-");
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

int compare_explain(const struct merge *m, const struct strvec *base,
		    const struct options *opts)
{
	static const char *const numstat[] = { "--numstat", "-z", NULL };
	struct strbuf messy_out = STRBUF_INIT, clean_out = STRBUF_INIT;
	struct numstat messy, clean;
	struct strvec desc = STRVEC_INIT;
	struct pathlist *changed;
	struct row *row;
	size_t i = 0, j = 0, nr = 0, k;

	describe(base, &desc);
	diffstats(m, opts, base->v[0], numstat, &messy_out, &clean_out);
	parse_sorted(&messy_out, &messy);
	parse_sorted(&clean_out, &clean);

	changed = xmalloc(base->nr * sizeof(*changed));
	for (k = 1; k < base->nr; k++)
		changed_between(base->v[0], base->v[k], &changed[k - 1]);

	row = xmalloc((messy.nr + clean.nr + 1) * sizeof(*row));
	while (i < messy.nr || j < clean.nr) {
		const struct numstat_file *a = i < messy.nr ? &messy.file[i] : NULL;
		const struct numstat_file *b = j < clean.nr ? &clean.file[j] : NULL;
		int c = !a ? 1 : !b ? -1 :
			cmp_path(a->path, a->path_len, b->path, b->path_len);
		struct row *r = &row[nr];

		memset(r, 0, sizeof(*r));
		if (c < 0) {
			r->side = ONLY_MESSY;
			r->file = r->messy = a;
			r->base = brought_in_by(changed, base->nr - 1, a);
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

	if (opts->porcelain)
		print_porcelain(base, &messy, &clean, row, nr, opts->nul);
	else
		print_human(m, &desc, &messy, &clean, row, nr,
			    quote_path_config(), opts->diff.nr_pathspec > 0);
	if (m->conflicted)
		report_conflicts(m->pull, &m->res);

	for (k = 1; k < base->nr; k++) {
		strbuf_release(&changed[k - 1].buf);
		free(changed[k - 1].path);
	}
	free(changed);
	free(row);
	numstat_release(&messy);
	numstat_release(&clean);
	strbuf_release(&messy_out);
	strbuf_release(&clean_out);
	strvec_clear(&desc);
	return nr != 0;
}
