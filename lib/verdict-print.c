// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "conflicts.h"
#include "quote.h"
#include "verdict-print.h"

/* A line of totals for a person, after its label. */
static void add_totals(struct strbuf *sb, const char *label,
		       const struct stat_totals *t)
{
	char line[STAT_TOTALS_MAX];

	strbuf_addf(sb, "%s%s\n", label, stat_totals_line(line, t));
}

/* A file of the clean diff: its counts and its path, a line. */
static void add_file(struct strbuf *sb, const struct numstat_file *f,
		     int porcelain, int quote_high)
{
	if (f->added < 0)
		strbuf_addstr(sb, porcelain ? "- -" : "binary");
	else
		strbuf_addf(sb, porcelain ? "%ld %ld" : "+%ld -%ld", f->added,
			    f->deleted);
	strbuf_addch(sb, ' ');
	quote_c_style(sb, f->path, f->path_len, porcelain || quote_high);
	strbuf_addch(sb, '\n');
}

static void add_row_count(struct strbuf *sb, const struct stat_row *r,
			  int porcelain)
{
	if (r->kind == STAT_ROW_BINARY)
		strbuf_addstr(sb, porcelain ? "-" : "binary");
	else if (r->kind == STAT_ROW_UNMERGED)
		strbuf_addstr(sb, porcelain ? "u" : "unmerged");
	else
		strbuf_addf(sb, "%ld", r->changes);
}

/*
 * What starts an item of add_differences(): the word of its record, or
 * for a person its indent, under a heading the first item writes.
 */
static void add_item(struct strbuf *sb, int porcelain, int *shown,
		     const char *record, const char *heading,
		     const char *indent)
{
	if (porcelain) {
		strbuf_addf(sb, "%s ", record);
		return;
	}
	if (!(*shown)++)
		strbuf_addf(sb, "%s:\n", heading);
	strbuf_addstr(sb, indent);
}

/* The rows and files that differ, under headings or as records. */
static void add_differences(struct strbuf *sb, const struct pullreq *req,
			    const struct numstat *ns, const struct match *mt,
			    int porcelain, int quote_high)
{
	size_t i, j;
	int shown = 0;

	for (i = 0; i < req->block.nr_rows; i++) {
		const struct str *name = &req->block.row[i].name;

		if (mt->file_of[i] >= 0)
			continue;
		add_item(sb, porcelain, &shown, "only-request",
			 "only in the request", "  ");
		add_row_count(sb, &req->block.row[i], porcelain);
		strbuf_addch(sb, ' ');
		/* the mail's bytes: shown escaped, or in a record C-quoted */
		if (porcelain)
			quote_c_style(sb, name->s, name->len, 1);
		else
			quote_shown(sb, name->s, name->len);
		strbuf_addch(sb, '\n');
	}
	shown = 0;
	for (j = 0; j < ns->nr; j++) {
		if (mt->used[j] || req->block.rows_cut || req->block.totals_only)
			continue;
		add_item(sb, porcelain, &shown, "only-clean",
			 "only in the clean diffstat", "  ");
		add_file(sb, &ns->file[j], porcelain, quote_high);
	}
	shown = 0;
	for (i = 0; i < req->block.nr_rows; i++) {
		const struct numstat_file *f;

		if (mt->file_of[i] < 0)
			continue;
		f = &ns->file[mt->file_of[i]];
		if (match_same_numbers(&req->block.row[i], f))
			continue;
		add_item(sb, porcelain, &shown, "differ",
			 "counted differently", "  request ");
		add_row_count(sb, &req->block.row[i], porcelain);
		strbuf_addstr(sb, porcelain ? " " : ", clean ");
		add_file(sb, f, porcelain, quote_high);
	}
}

void verdict_print_damage(struct strbuf *sb, const struct pullreq *req,
			  int porcelain)
{
	const struct pullreq_block *b = &req->block;
	const struct {
		int on;
		const char *record, *note;
	} what[] = {
		{ !!(req->damage & PULLREQ_SPACES), "spaces",
		  "Unicode spaces where git wrote spaces" },
		{ !!(req->damage & PULLREQ_QUOTED), "quoted",
		  "the request is quoted or indented" },
		{ !!(req->damage & PULLREQ_WRAPPED), "wrapped",
		  "stat lines wrapped or joined by a mail client" },
		{ !!(req->damage & PULLREQ_HEADER), "header",
		  "a header line is not as git writes it" },
		{ b->totals_missing, "totals-missing",
		  "no 'files changed' line: the totals are counted from the "
		  "rows" },
		{ b->totals_only, "totals-only",
		  "the diffstat is its 'files changed' line alone: only the "
		  "totals are compared" },
		{ b->rows_uneven, "rows-uneven",
		  "the diffstat's rows do not add up to its 'files changed' "
		  "line" },
		{ b->rows_cut, "cut",
		  "the diffstat is cut short (' ...'): it shows fewer rows "
		  "than files" },
	};
	size_t i;

	for (i = 0; i < sizeof(what) / sizeof(*what); i++)
		if (what[i].on)
			strbuf_addf(sb, porcelain ? "damage %s\n" : "note: %s\n",
				    porcelain ? what[i].record : what[i].note);
	if (req->nr_extra_blocks)
		strbuf_addf(sb, porcelain ? "damage extra-blocks %zu\n" :
			    "note: %zu more shortlog and diffstat after the "
			    "request's, not what it brings\n",
			    req->nr_extra_blocks);
}

/*
 * The records every --porcelain report starts with, a request that
 * could not be verified's too: message <n>, part <i> <n> in a message
 * that holds several requests, and the damage records of its text.
 */
static void add_records(struct strbuf *sb, const struct pullmsg *msg)
{
	strbuf_addf(sb, "message %zu\n", msg->number);
	if (msg->nr_requests > 1)
		strbuf_addf(sb, "part %zu %zu\n", msg->request,
			    msg->nr_requests);
	verdict_print_damage(sb, &msg->req, 1);
}

void verdict_print_failure(struct strbuf *sb, const struct pullmsg *msg,
			   const struct strbuf *why, int porcelain)
{
	if (!porcelain) {
		strbuf_addf(sb, "error: %s\n", why->buf);
		return;
	}
	add_records(sb, msg);
	strbuf_addstr(sb, "url ");
	quote_c_style(sb, msg->req.url.s, msg->req.url.len, 1);
	strbuf_addstr(sb, "\nref ");
	quote_c_style(sb, msg->req.ref.s, msg->req.ref.len, 1);
	strbuf_addstr(sb, "\nerror ");
	quote_c_style(sb, why->buf, why->len, 1);
	strbuf_addf(sb, "\nverdict %s\n", verdict_name[FAILED]);
}

void verdict_print_quote(struct strbuf *sb, const struct pullmsg *msg,
			 size_t earlier, int porcelain)
{
	if (!porcelain) {
		strbuf_addf(sb, "quotes the request of message %zu, "
			    "checked there\n", earlier);
		return;
	}
	strbuf_addf(sb, "message %zu\n", msg->number);
	if (msg->nr_requests > 1)
		strbuf_addf(sb, "part %zu %zu\n", msg->request,
			    msg->nr_requests);
	strbuf_addf(sb, "quotes %zu\n", earlier);
}

/*
 * git's --stat --summary text, for a person: each name of a row or a
 * summary line as quote_shown() shows it (with core.quotePath=false git
 * writes a bidi or zero-width character as it is), the rest of the line
 * as git wrote it; a line of neither kind through quote_shown() whole.
 */
static void add_stat_shown(struct strbuf *sb, const struct strbuf *stat)
{
	const char *end = stat->buf + stat->len;
	struct str rest = str_at(stat->buf, stat->len);

	while (rest.len) {
		struct str l = str_next_line(&rest), name = l;
		struct stat_row row;
		struct stat_summary sum;

		if (stat_parse_row(l, &row))
			name = row.name;
		else if (stat_parse_summary(l, &sum) && sum.name.len)
			name = sum.name;
		strbuf_add(sb, l.s, (size_t)(name.s - l.s));
		quote_shown(sb, name.s, name.len);
		strbuf_add(sb, name.s + name.len,
			   (size_t)(l.s + l.len - (name.s + name.len)));
		if (l.s + l.len < end)
			strbuf_addch(sb, '\n');	/* the line's own */
	}
}

/* A judgement's earlier requests: "message 1" or "messages 1, 3". */
static void add_earlier(struct strbuf *sb, const struct strvec *numbers,
			int porcelain, const char *record)
{
	size_t i;

	for (i = 0; i < numbers->nr; i++)
		if (porcelain)
			strbuf_addf(sb, "%s %s\n", record, numbers->v[i]);
		else
			strbuf_addf(sb, "%s%s", i ? ", " : numbers->nr > 1 ?
				    "messages " : "message ", numbers->v[i]);
}

/* The lines every report for a person starts with. */
static void add_heading(struct strbuf *sb, const struct verifying *vf)
{
	const struct pullreq_block *b = &vf->msg->req.block;
	struct stat_totals rt = { b->files, b->insertions, b->deletions };

	strbuf_addstr(sb, "pull request: ");
	quote_shown(sb, vf->url.buf, vf->url.len);
	if (vf->ref.len) {
		strbuf_addch(sb, ' ');
		quote_shown(sb, vf->ref.buf, vf->ref.len);
	}
	strbuf_addf(sb, "\ntip: %s ", vf->tip.buf);
	quote_shown(sb, vf->subject.buf, vf->subject.len);
	strbuf_addch(sb, '\n');
	if (!strcmp(vf->how, "local") && vf->refetch.len)
		strbuf_addf(sb, "the tip is in this repository\n"
			    "note: the branch could not be re-read: %s\n",
			    vf->refetch.buf);
	else if (!strcmp(vf->how, "local"))
		strbuf_addstr(sb, "the tip is in this repository\n");
	else if (!strcmp(vf->how, "fetched"))
		strbuf_addstr(sb, "fetched: the tip is the request's\n");
	else
		/* the branch's id is on the tip line: under 80 columns */
		strbuf_addf(sb, "moved: the request asks for %s\n",
			    vf->want.buf);
	if (vf->nr_earlier) {
		size_t i;

		strbuf_addf(sb, "checked against '%s' with message%s",
			    vf->p.upstream.name, vf->nr_earlier > 1 ? "s" : "");
		for (i = 0; i < vf->nr_earlier; i++)
			strbuf_addf(sb, "%s %zu", i ? "," : "",
				    vf->earlier[i].number);
		strbuf_addstr(sb, " pulled first\n");
	}
	add_totals(sb, "request's diffstat: ", &rt);
}

/* The records every --porcelain report starts with. */
static void add_heading_records(struct strbuf *sb, const struct verifying *vf)
{
	const struct pullreq_block *b = &vf->msg->req.block;

	add_records(sb, vf->msg);
	strbuf_addstr(sb, "url ");
	quote_c_style(sb, vf->url.buf, vf->url.len, 1);
	strbuf_addstr(sb, "\nref ");
	quote_c_style(sb, vf->ref.buf, vf->ref.len, 1);
	strbuf_addf(sb, "\ntip %s %s %s\n", vf->want.buf, vf->tip.buf,
		    vf->how);
	if (vf->refetch.len) {
		strbuf_addstr(sb, "note refetch-failed ");
		quote_c_style(sb, vf->refetch.buf, vf->refetch.len, 1);
		strbuf_addch(sb, '\n');
	}
	strbuf_addf(sb, "request %ld %ld %ld\n", b->files, b->insertions,
		    b->deletions);
}

/*
 * The notes after the heading: the request's "since" commit when it is
 * not what git request-pull would have written (unknown here, or not an
 * ancestor of the tip), and the commits its shortlog lists that pulling
 * it does not bring.
 */
static void add_notes(struct strbuf *sb, const struct judgement *j,
		      int porcelain)
{
	long n = j->shortlog_foreign;

	/* a person gets the id as git abbreviates it: under 80 columns */
	if (j->since_rc != 0 && j->since_rc != 1)
		strbuf_addf(sb, porcelain ? "note since-unknown %s\n" :
			    "note: the request's 'since' commit %.12s is not in "
			    "this repository\n", j->since.buf);
	else if (j->since_rc)
		strbuf_addf(sb, porcelain ? "note since-not-ancestor %s\n" :
			    "note: the request's 'since' commit %.12s is not an "
			    "ancestor of the tip\n", j->since.buf);
	if (n)
		strbuf_addf(sb, porcelain ? "note shortlog-foreign %ld\n" :
			    "note: the shortlog lists %ld commit%s that "
			    "pulling it does not bring\n", n, n == 1 ? "" : "s");
}

/* Why a request's diffstat differs, and how, for a person. */
static void add_differs(struct strbuf *sb, const struct verifying *vf,
			const struct judgement *j)
{
	const char *upstream = vf->p.upstream.name;

	strbuf_addstr(sb, "verdict: differs: ");
	switch (j->reason) {
	case WHY_FOREIGN:
		strbuf_addf(sb, "the mail also lists %ld commit%s that pulling "
			    "it does not bring\n", j->foreign,
			    j->foreign == 1 ? "" : "s");
		return;
	case WHY_MOVED:
		strbuf_addstr(sb, "the branch moved since the request\n");
		break;
	case WHY_MERGED:
		strbuf_addf(sb, "'%s' already has all of it: the tip is "
			    "merged\n", upstream);
		break;
	case WHY_EARLIER:
		strbuf_addstr(sb, "it carries work that ");
		add_earlier(sb, &j->earlier, 0, NULL);
		strbuf_addf(sb, " already bring%s\n",
			    j->earlier.nr > 1 ? "" : "s");
		break;
	case WHY_UPSTREAM_HAS:
		strbuf_addf(sb, "'%s' already has %ld of its %ld commits\n",
			    upstream, j->upstream_has, j->commits);
		break;
	default:
		strbuf_addstr(sb, "the request's diffstat is not what pulling "
			      "it changes\n");
	}
	add_differences(sb, &vf->msg->req, &j->clean, &j->match, 0,
			vf->p.quote_path);
}

/* The verdict for a person, after the clean diffstat's totals. */
static void add_verdict(struct strbuf *sb, const struct verifying *vf,
			const struct judgement *j)
{
	if (j->verdict == MATCHES && j->by == BY_CLEAN)
		strbuf_addf(sb, "verdict: matches: the request's %s what "
			    "pulling it changes\n",
			    vf->msg->req.block.totals_only ? "totals are" :
			    "diffstat is");
	else if (j->verdict == MATCHES && j->by == BY_RENAMES)
		strbuf_addstr(sb, "verdict: matches: with git request-pull's "
			      "renames (-M); -C finds copies\n");
	else if (j->verdict == MATCHES)
		strbuf_addf(sb, "verdict: matches: its lines counted as "
			    "diff.algorithm=%s counts them\n", j->algorithm);
	else if (j->verdict == DIFFERS)
		add_differs(sb, vf, j);
	if (j->verdict != MESSY)
		return;
	/* the base as the tip line shows the tip: under 80 columns */
	strbuf_addf(sb, "verdict: messy: it is git request-pull's diffstat, "
		    "from %s merge base%s\n  %.12s ",
		    j->nr_bases > 1 ? "one" : "the",
		    j->nr_bases > 1 ? " alone:" : "", j->base.buf);
	quote_shown(sb, j->base_subject.buf, j->base_subject.len);
	/*
	 * With one merge base, what pulling changes differs from it only
	 * in files <upstream> changed since: the same patches applied, a
	 * rename, lines moved.
	 */
	if (j->nr_bases < 2)
		strbuf_addf(sb, "\nwhich '%s' has gone on from, changing some "
			    "of the same files;", vf->p.upstream.name);
	strbuf_addstr(sb, "\nwhat pulling it changes is:\n");
	add_stat_shown(sb, &j->clean_stat);
}

void verdict_print_human(struct strbuf *sb, const struct verifying *vf,
			 const struct judgement *j)
{
	add_heading(sb, vf);
	add_notes(sb, j, 0);
	if (j->verdict == CONFLICTS) {
		strbuf_addf(sb, "verdict: conflicts: merging it into '%s' "
			    "conflicts:\n", j->merge.pull->upstream.name);
		conflict_lines(sb, j->merge.pull, &j->merge.res);
		if (!j->earlier.nr)
			return;
		strbuf_addstr(sb, "it conflicts with ");
		add_earlier(sb, &j->earlier, 0, NULL);
		strbuf_addstr(sb, ", pulled before it\n");
		return;
	}
	add_totals(sb, "clean diffstat:     ", &j->clean_totals);
	add_verdict(sb, vf, j);
}

/* The conflicted paths, each once (merge-tree names one per stage). */
static void add_conflict_records(struct strbuf *sb, const struct merge *m)
{
	const struct mtree_entry *prev = NULL;
	size_t i;

	for (i = 0; i < m->res.nr_entries; i++) {
		const struct mtree_entry *e = &m->res.entries[i];

		if (prev && str_same(prev->path, e->path))
			continue;
		prev = e;
		strbuf_addstr(sb, "conflict ");
		quote_c_style(sb, e->path.s, e->path.len, 1);
		strbuf_addch(sb, '\n');
	}
}

/* The records of a verdict other than CONFLICTS, after "clean". */
static void add_verdict_records(struct strbuf *sb,
				const struct verifying *vf,
				const struct judgement *j)
{
	const struct pullreq *req = &vf->msg->req;

	if (j->verdict == MATCHES && j->by == BY_RENAMES) {
		strbuf_addstr(sb, "note copies\n");
	} else if (j->verdict == MATCHES && j->by == BY_ALGORITHM) {
		strbuf_addf(sb, "note algorithm %s\n", j->algorithm);
	} else if (j->verdict == MESSY) {
		strbuf_addf(sb, "base %s\n", j->base.buf);
		add_differences(sb, req, &j->clean, &j->match, 1, 1);
	} else if (j->verdict == DIFFERS && j->reason == WHY_FOREIGN) {
		strbuf_addf(sb, "note foreign %ld\n", j->foreign);
	} else if (j->verdict == DIFFERS) {
		add_earlier(sb, &j->earlier, 1, "earlier");
		add_differences(sb, req, &j->clean, &j->match, 1, 1);
	}
}

void verdict_print_porcelain(struct strbuf *sb, const struct verifying *vf,
			     const struct judgement *j)
{
	const struct stat_totals *ct = &j->clean_totals;

	add_heading_records(sb, vf);
	add_notes(sb, j, 1);
	if (j->verdict == CONFLICTS) {
		add_conflict_records(sb, &j->merge);
		add_earlier(sb, &j->earlier, 1, "conflict-with");
	} else {
		strbuf_addf(sb, "clean %ld %ld %ld\n", ct->files,
			    ct->insertions, ct->deletions);
		add_verdict_records(sb, vf, j);
	}
	strbuf_addf(sb, "verdict %s\n", verdict_name[j->verdict]);
}
