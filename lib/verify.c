// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conflicts.h"
#include "diff.h"
#include "fetch.h"
#include "match.h"
#include "merge.h"
#include "numstat.h"
#include "progress.h"
#include "pullmsg.h"
#include "quarantine.h"
#include "quote.h"
#include "resolve.h"
#include "run.h"
#include "signals.h"
#include "stat.h"
#include "verify.h"

/* FAILED: the request could not be verified (refused, not fetched) */
enum verdict { MATCHES, MESSY, DIFFERS, CONFLICTS, FAILED, NR_VERDICTS };

static const char *const verdict_name[] = {
	"matches", "messy", "differs", "conflicts", "error"
};

/* The fetch's limits when neither the command line nor the config says. */
#define DEFAULT_FETCH_TIMEOUT 600
#define DEFAULT_FETCH_STALL 60

/*
 * Why a request could not be verified: one line (what a single message
 * dies with, what an mbox's report of it says).
 */
struct failure {
	struct strbuf why;
};

/* A request, once its tip is known: what report() needs. */
/* A request pulled in memory before this one (--in-order). */
struct pulled {
	size_t number;			/* its message */
	const char *tip;
};

struct verifying {
	const struct options *opts;
	const struct pullmsg *msg;
	struct pull p;
	struct strbuf url, ref, want, tip, subject;
	const char *how;		/* "local", "fetched", "moved" */
	/* --in-order: <upstream> is then the merge of these into it */
	const struct pulled *earlier;
	size_t nr_earlier;
	const char *upstream_oid;	/* <upstream> itself, before them */
	struct strbuf merged_tree;	/* what report() merged, when clean */
	/* the tip here, the fetch that re-reads its branch failed: why */
	struct strbuf refetch;
	int merged;			/* <upstream> has the tip already */
	long nr_pulled;			/* the commits pulling it brings */
};

static void add_totals(struct strbuf *sb, const struct stat_totals *t)
{
	char line[STAT_TOTALS_MAX];

	strbuf_addstr(sb, stat_totals_line(line, t));
}

static int same_totals(const struct pullreq *req, const struct stat_totals *t)
{
	const struct pullreq_block *b = &req->block;

	return b->files == t->files && b->insertions == t->insertions &&
	       b->deletions == t->deletions;
}

static void add_str(struct strbuf *sb, const struct str *s)
{
	strbuf_add(sb, s->s, s->len);
}

static void add_file_counts(struct strbuf *sb, const struct numstat_file *f,
			    int porcelain)
{
	if (f->added < 0)
		strbuf_addstr(sb, porcelain ? "- -" : "binary");
	else
		strbuf_addf(sb, porcelain ? "%ld %ld" : "+%ld -%ld", f->added,
			    f->deleted);
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
 * A row's name, as the mail has it: every byte from outside is shown
 * escaped (quote_shown()), and a record of --porcelain is C-quoted.
 */
static void add_row_name(struct strbuf *sb, const struct stat_row *r,
			 int porcelain)
{
	if (porcelain)
		quote_c_style(sb, r->name.s, r->name.len, 1);
	else
		quote_shown(sb, r->name.s, r->name.len);
}

/* The rows and files that differ, under headings or as records. */
static void add_differences(struct strbuf *sb, const struct pullreq *req,
			    const struct numstat *ns, const struct match *mt,
			    int porcelain, int quote_high)
{
	size_t i, j;
	int shown = 0;

	for (i = 0; i < req->block.nr_rows; i++) {
		if (mt->file_of[i] >= 0)
			continue;
		if (porcelain) {
			strbuf_addstr(sb, "only-request ");
		} else {
			if (!shown++)
				strbuf_addstr(sb, "only in the request:\n");
			strbuf_addstr(sb, "  ");
		}
		add_row_count(sb, &req->block.row[i], porcelain);
		strbuf_addch(sb, ' ');
		add_row_name(sb, &req->block.row[i], porcelain);
		strbuf_addch(sb, '\n');
	}
	shown = 0;
	for (j = 0; j < ns->nr; j++) {
		if (mt->used[j] || req->block.rows_cut || req->block.totals_only)
			continue;
		if (porcelain) {
			strbuf_addstr(sb, "only-clean ");
		} else {
			if (!shown++)
				strbuf_addstr(sb, "only in the clean diffstat:\n");
			strbuf_addstr(sb, "  ");
		}
		add_file_counts(sb, &ns->file[j], porcelain);
		strbuf_addch(sb, ' ');
		quote_c_style(sb, ns->file[j].path, ns->file[j].path_len,
			      porcelain || quote_high);
		strbuf_addch(sb, '\n');
	}
	shown = 0;
	for (i = 0; i < req->block.nr_rows; i++) {
		const struct numstat_file *f;

		/* a row matched to no file: none of the diff's (it may have none) */
		if (mt->file_of[i] < 0 || (size_t)mt->file_of[i] >= ns->nr)
			continue;
		f = &ns->file[mt->file_of[i]];
		if (match_same_numbers(&req->block.row[i], f))
			continue;
		if (porcelain) {
			strbuf_addstr(sb, "differ ");
		} else {
			if (!shown++)
				strbuf_addstr(sb, "counted differently:\n");
			strbuf_addstr(sb, "  request ");
		}
		add_row_count(sb, &req->block.row[i], porcelain);
		strbuf_addstr(sb, porcelain ? " " : ", clean ");
		add_file_counts(sb, f, porcelain);
		strbuf_addch(sb, ' ');
		quote_c_style(sb, f->path, f->path_len, porcelain || quote_high);
		strbuf_addch(sb, '\n');
	}
}

/*
 * Parse out, the output of a git diff --numstat -z, into ns.  When stat
 * is not NULL, the diff also had --stat --summary, which git prints
 * after the numstat records: stat gets that text, which starts after
 * the last NUL (each record ends with one).
 */
static void parse_numstat(const struct strbuf *out, struct numstat *ns,
			  struct strbuf *stat)
{
	const char *why;
	size_t len = out->len;

	if (stat) {
		while (len && out->buf[len - 1])
			len--;
		strbuf_add(stat, out->buf + len, out->len - len);
	}
	if (numstat_parse(out->buf, len, ns, &why))
		die("cannot parse the output of git diff --numstat: %s", why);
}

/*
 * Run cp, a git whose failure is this request's, not the whole run's:
 * 0, or -1 with why it failed (what: "git diff").
 */
static int run_or_fail(struct child_process *cp, const char *what,
		       struct failure *fail)
{
	struct strbuf err = STRBUF_INIT;
	int rc;

	cp->err = &err;
	cp->err_max = 65536;
	rc = run_git(cp);
	cp->err = NULL;
	if (rc)
		run_reason(&fail->why, what, rc, &err);
	strbuf_release(&err);
	return rc ? -1 : 0;
}

/* The subject of commit id, into subject. */
static int commit_subject(const char *id, struct strbuf *subject,
			  struct failure *fail)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	strvec_pushl(&cp.args, "log", "-1", "--no-show-signature",
		     "--format=%s", "--end-of-options", id, NULL);
	cp.out = subject;
	if (run_or_fail(&cp, "git log", fail))
		return -1;
	strbuf_trim_newlines(subject);
	return 0;
}

/*
 * What the finder undid or found wrong in the request's text: a note a
 * line, before its report, or with porcelain a "damage" record a kind.
 */
static void add_damage_notes(struct strbuf *sb, const struct pullreq *req,
			     int porcelain)
{
	static const char *const what[] = {
		"spaces", "Unicode spaces where git wrote spaces",
		"quoted", "the request is quoted or indented",
		"wrapped", "stat lines wrapped or joined by a mail client",
		"header", "a header line is not as git writes it",
		NULL
	};
	size_t i;

	for (i = 0; what[i]; i += 2)
		if (req->damage & (1u << (i / 2)))
			strbuf_addf(sb, porcelain ? "damage %s\n" : "note: %s\n",
				    what[porcelain ? i : i + 1]);
	if (req->block.totals_missing)
		strbuf_addstr(sb, porcelain ? "damage totals-missing\n" :
			      "note: no 'files changed' line: the totals are "
			      "counted from the rows\n");
	if (req->block.totals_only)
		strbuf_addstr(sb, porcelain ? "damage totals-only\n" :
			      "note: the diffstat is its 'files changed' line "
			      "alone: only the totals are compared\n");
	if (req->block.rows_uneven)
		strbuf_addstr(sb, porcelain ? "damage rows-uneven\n" :
			      "note: the diffstat's rows do not add up to its "
			      "'files changed' line\n");
	if (req->block.rows_cut)
		strbuf_addstr(sb, porcelain ? "damage cut\n" :
			      "note: the diffstat is cut short (' ...'): "
			      "it shows fewer rows than files\n");
	if (req->nr_extra_blocks)
		strbuf_addf(sb, porcelain ? "damage extra-blocks %zu\n" :
			    "note: %zu more shortlog and diffstat after the "
			    "request's, not what it brings\n",
			    req->nr_extra_blocks);
}

/*
 * The records every --porcelain report starts with: message <n>, part
 * <i> <n> in a message that holds several requests, and the damage
 * records of its text.
 */
static void add_message_records(struct strbuf *sb, const struct pullmsg *msg)
{
	strbuf_addf(sb, "message %zu\n", msg->number);
	if (msg->nr_requests > 1)
		strbuf_addf(sb, "part %zu %zu\n", msg->request,
			    msg->nr_requests);
	add_damage_notes(sb, &msg->req, 1);
}

/* The records or lines every report starts with. */
static void add_heading(struct strbuf *sb, const struct verifying *vf)
{
	const struct pullreq *req = &vf->msg->req;
	const struct pullreq_block *b = &req->block;
	struct stat_totals rt = { b->files, b->insertions, b->deletions };

	if (vf->opts->porcelain) {
		add_message_records(sb, vf->msg);
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
		strbuf_addf(sb, "request %ld %ld %ld\n", b->files,
			    b->insertions, b->deletions);
		return;
	}
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
	strbuf_addstr(sb, "request's diffstat: ");
	add_totals(sb, &rt);
	strbuf_addch(sb, '\n');
}

/*
 * git's --stat --summary text, for a person: each name of a row or a
 * summary line as quote_shown() shows it (with core.quotePath=false git
 * writes a bidi or zero-width character as it is), the rest of the line
 * as git wrote it; a line of neither kind through quote_shown() whole.
 */
static void add_stat_shown(struct strbuf *sb, const struct strbuf *stat)
{
	const char *p = stat->buf, *end = stat->buf + stat->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct str l = str_at(p, nl ? (size_t)(nl - p) : (size_t)(end - p));
		struct str name = l;
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
		if (nl)
			strbuf_addch(sb, '\n');
		p = nl ? nl + 1 : end;
	}
}

/* The conflicted paths, each once (merge-tree names one per stage). */
static void add_conflicts(struct strbuf *sb, const struct merge *m,
			  int porcelain)
{
	const struct mtree_entry *prev = NULL;
	size_t i;

	if (!porcelain) {
		strbuf_addf(sb, "verdict: conflicts: merging it into '%s' "
			    "conflicts:\n", m->pull->upstream.name);
		conflict_lines(sb, &m->res);
		return;
	}
	for (i = 0; i < m->res.nr_entries; i++) {
		const struct mtree_entry *e = &m->res.entries[i];

		if (prev && prev->path.len == e->path.len &&
		    !memcmp(prev->path.s, e->path.s, e->path.len))
			continue;
		prev = e;
		strbuf_addstr(sb, "conflict ");
		quote_c_style(sb, e->path.s, e->path.len, 1);
		strbuf_addch(sb, '\n');
	}
}

/*
 * The diffs of a report, numstat records (-z) and, for the clean one
 * that a messy report prints, --stat --summary after them.  The
 * receiver's diff.relative must not cut them to a directory.
 */
static const char *const numstat[] = {
	"--numstat", "-z", "--no-relative", NULL
};
static const char *const numstat_stat[] = {
	"--numstat", "-z", "--stat", "--summary", "--no-relative", NULL
};
/* the clean diff with renames only, as git request-pull finds them */
static const char *const numstat_renames[] = {
	"-M", "--numstat", "-z", "--no-relative", NULL
};

/*
 * Does the --summary of a diff (after its --stat) name a copy?  Its
 * lines start " create mode", " delete mode", " mode change",
 * " rename ", " rewrite " or " copy ", the paths after.  A --stat line
 * of a file named "copy ..." says yes too: that costs only a diff.
 */
static int has_copies(const struct strbuf *stat)
{
	return strstr(stat->buf, "\n copy ") != NULL;
}

/* A diff of the merge, its output parsed into ns (its text into stat). */
static int diff_merge(const struct merge *m, const char *const *format,
		      struct strbuf *out, struct numstat *ns,
		      struct strbuf *stat, struct failure *fail)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	merge_diff(&cp, m, NULL, format);
	cp.out = out;
	if (run_or_fail(&cp, "git diff", fail))
		return -1;
	parse_numstat(out, ns, stat);
	return 0;
}

/* Does the request's diffstat give exactly the files and numbers of ns? */
static int request_is(const struct pullreq *req, const struct numstat *ns,
		      struct match *mt)
{
	struct stat_totals t;

	match_rows(req, ns, mt);
	stat_numstat_totals(ns, &t);
	return !mt->differences && same_totals(req, &t);
}

/*
 * Are the request's rows the diff's files, their numbers aside?  Then
 * another diff algorithm may count them as the sender's git did.
 */
static int same_files(const struct pullreq *req, const struct numstat *ns,
		      const struct match *mt)
{
	size_t i, j;

	if (req->block.rows_cut || req->block.files != (long)ns->nr)
		return 0;
	for (i = 0; i < req->block.nr_rows; i++)
		if (mt->file_of[i] < 0)
			return 0;
	for (j = 0; j < ns->nr; j++)
		if (!mt->used[j])
			return 0;
	return 1;
}

/*
 * The diff algorithm other than the receiver's that counts the request's
 * lines as the sender's git did, on the merge's diff whose renames are
 * given (format: numstat or numstat_renames): its name, or NULL.
 */
static const char *other_algorithm(const struct merge *m,
				   const struct pullreq *req,
				   const char *const *format,
				   struct failure *fail)
{
	static const char *const algorithms[] = {
		"myers", "minimal", "patience", "histogram"
	};
	const char *found = NULL;
	size_t i;

	for (i = 0; !found && i < sizeof(algorithms) / sizeof(*algorithms); i++) {
		const char *args[8];
		struct strbuf out = STRBUF_INIT, opt = STRBUF_INIT;
		struct numstat ns = NUMSTAT_INIT;
		struct match mt = { NULL, NULL, 0 };
		size_t k;

		strbuf_addf(&opt, "--diff-algorithm=%s", algorithms[i]);
		for (k = 0; format[k]; k++)
			args[k] = format[k];
		args[k++] = opt.buf;
		args[k] = NULL;
		if (!diff_merge(m, args, &out, &ns, NULL, fail) &&
		    request_is(req, &ns, &mt))
			found = algorithms[i];
		match_release(&mt);
		numstat_release(&ns);
		strbuf_release(&out);
		strbuf_release(&opt);
		if (fail->why.len)
			break;
	}
	return found;
}

/*
 * How many commits the revision range <since>..<tip> has (git rev-list
 * --count): -1 when git cannot tell (the "since" commit unknown here).
 */
static long count_commits(const char *since, const char *tip)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	long n;

	strvec_pushl(&cp.args, "rev-list", "--count", "--end-of-options", NULL);
	strvec_pushf(&cp.args, "%s..%s", since, tip);
	cp.out = &out;
	cp.no_stderr = 1;
	n = run_git(&cp) ? -1 : strtol(out.buf, NULL, 10);
	strbuf_release(&out);
	return n;
}

/* git merge-base --is-ancestor <since> <tip>, for add_since_note() */
static void since_cmd(struct child_process *cp, const char *since,
		      const struct verifying *vf)
{
	strvec_pushl(&cp->args, "merge-base", "--is-ancestor",
		     "--end-of-options", since, vf->tip.buf, NULL);
	cp->no_stderr = 1;
}

/*
 * A note on the request's "since" commit when it is not what git
 * request-pull would have written: unknown here, or not an ancestor of
 * the tip (since_cmd() exited rc).
 */
static void add_since_note(struct strbuf *sb, const struct verifying *vf,
			   const char *since, int rc)
{
	int porcelain = vf->opts->porcelain;

	/* a person gets the id as git abbreviates it: under 80 columns */
	if (rc != 0 && rc != 1)
		strbuf_addf(sb, porcelain ? "note since-unknown %s\n" :
			    "note: the request's 'since' commit %.12s is not in "
			    "this repository\n", since);
	else if (rc)
		strbuf_addf(sb, porcelain ? "note since-not-ancestor %s\n" :
			    "note: the request's 'since' commit %.12s is not an "
			    "ancestor of the tip\n", since);
}

/*
 * The requests pulled before this one (--in-order) that bring some of
 * its commits (a shared topic branch: what upstream did not have), or,
 * with conflicts, whose tip conflicts with its own: their messages'
 * numbers into numbers.
 */
static void find_earlier(const struct verifying *vf, int conflicts,
			 struct strvec *numbers)
{
	size_t i, nr = vf->nr_earlier + 1;
	struct child_process *cps = xmalloc(nr * sizeof(*cps));
	struct child_process **p = xmalloc(nr * sizeof(struct child_process *));
	struct strbuf *out = xmalloc(nr * sizeof(*out));
	struct strvec env = STRVEC_INIT;
	int *rcs = xmalloc(nr * sizeof(*rcs));

	quarantine_env(&env, vf->p.objdir.buf);
	for (i = 0; i < nr; i++) {
		const char *other = i ? vf->earlier[i - 1].tip : NULL;

		strbuf_init(&out[i]);
		cps[i] = (struct child_process)CHILD_PROCESS_INIT;
		p[i] = &cps[i];
		cps[i].out = &out[i];
		cps[i].no_stderr = 1;
		if (conflicts && other) {
			strvec_pushl(&cps[i].args, "merge-tree", "--write-tree",
				     other, vf->tip.buf, NULL);
			strvec_pushv(&cps[i].env, env.v, env.nr);
			continue;
		}
		strvec_pushl(&cps[i].args, "rev-list", "--count",
			     "--end-of-options", vf->tip.buf, NULL);
		strvec_pushf(&cps[i].args, "^%s", vf->upstream_oid);
		if (other)
			strvec_pushf(&cps[i].args, "^%s", other);
	}
	if (conflicts) {
		strvec_clear(&cps[0].args);	/* only the tips' merges */
		run_git_all(p + 1, rcs + 1, nr - 1);
	} else {
		run_git_all(p, rcs, nr);
	}
	for (i = 1; i < nr; i++)
		if (conflicts ? rcs[i] == 1 :
		    !rcs[0] && !rcs[i] &&
		    strtol(out[i].buf, NULL, 10) < strtol(out[0].buf, NULL, 10))
			strvec_pushf(numbers, "%zu", vf->earlier[i - 1].number);
	for (i = 0; i < nr; i++)
		strbuf_release(&out[i]);
	strvec_clear(&env);
	free(cps);
	free(p);
	free(out);
	free(rcs);
}

/* The earlier requests of find_earlier(): "message 1" or "messages 1, 3". */
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The one walk of a request's history: git log --boundary of
 * <upstream>..<tip>, a line a commit, "<mark><id> <subject>", the mark
 * '>' for a commit pulling brings and '-' for a boundary commit (one
 * <upstream> has, a parent of one it brings).  It answers, before any
 * merge: is the tip merged already (no commit to bring), are the
 * histories unrelated (commits, but no boundary), which subjects does
 * pulling bring (for the shortlog), and, most often, is the request's
 * "since" commit an ancestor of the tip (it is when the walk met it).
 */
struct walk {
	struct strvec pulled;		/* the subjects it brings, sorted */
	long nr;			/* how many commits it brings */
	int boundary;			/* some commit of <upstream> met */
	int since_met;			/* the "since" commit met */
};

static void walk_cmd(struct child_process *cp, const struct verifying *vf,
		     struct strbuf *out, struct strbuf *err)
{
	strvec_pushl(&cp->args, "log", "--boundary", "--no-show-signature",
		     "--format=%m%H %s", "--end-of-options", NULL);
	strvec_pushf(&cp->args, "%s..%s", vf->p.upstream.oid.buf, vf->tip.buf);
	cp->out = out;
	cp->err = err;
	cp->err_max = 65536;
}

/*
 * What walk_cmd()'s git said (it exited rc; its lines cut in out) into
 * w: 0, or -1 with why it failed.
 */
static int walk_parse(int rc, struct strbuf *out, const struct strbuf *err,
		      const char *since, size_t hexlen, struct walk *w,
		      struct failure *fail)
{
	char *line, *nl;

	if (rc) {
		run_reason(&fail->why, "git log", rc, err);
		return -1;
	}
	for (line = out->buf; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		if (strlen(line) < hexlen + 2 || line[hexlen + 1] != ' ')
			continue;
		if (!strncmp(line + 1, since, hexlen) && !since[hexlen])
			w->since_met = 1;
		if (*line == '-') {
			w->boundary = 1;
			continue;
		}
		w->nr++;
		strvec_push(&w->pulled, line + hexlen + 2);
	}
	if (w->pulled.nr)
		qsort(w->pulled.v, w->pulled.nr, sizeof(*w->pulled.v), cmp_str);
	return 0;
}

/*
 * How many of the commits the mail's shortlog (main_block) or its other
 * shortlog and diffstat blocks (one pasted from another request) list
 * pulling the tip does not bring: their subjects not among pulled.
 */
static long foreign_commits(const struct pullreq *req, int main_block,
			    const struct strvec *pulled)
{
	struct strbuf subject = STRBUF_INIT;
	size_t b, a, k;
	long n = 0;

	for (b = 0; b < (main_block ? 1 : req->nr_extra_blocks); b++)
		for (a = 0; a < (main_block ? req->block.nr_authors :
				 req->extra[b].nr_authors); a++) {
			const struct pullreq_author *au = main_block ?
				&req->block.author[a] : &req->extra[b].author[a];

			for (k = 0; k < au->nr_subjects; k++) {
				const char *key;

				strbuf_reset(&subject);
				strbuf_add(&subject, au->subject[k].s,
					   au->subject[k].len);
				key = subject.buf;
				n += !pulled->nr ||
				     !bsearch(&key, pulled->v, pulled->nr,
					      sizeof(*pulled->v), cmp_str);
			}
		}
	strbuf_release(&subject);
	return n;
}

/*
 * Why a request's diffstat differs, for a person: the branch moved,
 * upstream has merged the tip already, or has some of its commits
 * (counted from the request's "since" commit), or none of that.
 */
static void add_differs_reason(struct strbuf *sb, const struct verifying *vf)
{
	const struct pull *p = &vf->p;
	struct strbuf base = STRBUF_INIT;
	long n[2];			/* commits since <since>, to pull */

	strbuf_addstr(sb, "verdict: differs: ");
	if (!strcmp(vf->how, "moved")) {
		strbuf_addstr(sb, "the branch moved since the request\n");
		return;
	}
	if (vf->merged) {
		strbuf_addf(sb, "'%s' already has all of it: the tip is "
			    "merged\n", p->upstream.name);
		return;
	}
	if (vf->nr_earlier) {
		struct strvec numbers = STRVEC_INIT;

		find_earlier(vf, 0, &numbers);
		if (numbers.nr) {
			strbuf_addstr(sb, "it carries work that ");
			add_earlier(sb, &numbers, 0, NULL);
			strbuf_addf(sb, " already bring%s\n",
				    numbers.nr > 1 ? "" : "s");
			strvec_clear(&numbers);
			return;
		}
	}
	add_str(&base, &vf->msg->req.base);
	n[0] = count_commits(base.buf, vf->tip.buf);
	n[1] = vf->nr_pulled;
	strbuf_release(&base);
	if (n[0] > 0 && n[1] >= 0 && n[1] < n[0])
		strbuf_addf(sb, "'%s' already has %ld of its %ld commits\n",
			    p->upstream.name, n[0] - n[1], n[0]);
	else
		strbuf_addstr(sb, "the request's diffstat is not what pulling "
			      "it changes\n");
}

/*
 * Merge vf's tip into the upstream, compare, and write the report into
 * sb: the verdict, or FAILED with fail filled in (a git that failed
 * for this request: the others of an mbox go on).
 *
 * The request's diffstat is compared, in turn, and each diff only when
 * the one before did not give it, with
 *  1. the clean diffstat (-C): matches;
 *  2. the same changes with renames only (-M), as git request-pull
 *     finds them: matches, -C seeing copies;
 *  3. git request-pull's from the first merge base: messy;
 *  4. the diff of 1 or 2 whose files the request has, with another diff
 *     algorithm: matches, its line counts being that algorithm's;
 *  5. else: differs, and why.
 */
static enum verdict report(struct verifying *vf, struct strbuf *sb,
			   struct failure *fail)
{
	const struct pullreq *req = &vf->msg->req;
	int porcelain = vf->opts->porcelain;
	struct pull *p = &vf->p;
	struct strbuf out = STRBUF_INIT, clean_stat = STRBUF_INIT;
	struct strbuf out_m = STRBUF_INIT, rp_out = STRBUF_INIT;
	struct strbuf desc = STRBUF_INIT;
	struct numstat clean = NUMSTAT_INIT, renames = NUMSTAT_INIT;
	struct numstat rp = NUMSTAT_INIT;
	struct child_process cp = CHILD_PROCESS_INIT;
	struct child_process beside = CHILD_PROCESS_INIT, log = CHILD_PROCESS_INIT;
	struct child_process merging = CHILD_PROCESS_INIT, *cps[2];
	int rcs[2];
	size_t n = 0;
	struct strbuf since = STRBUF_INIT, log_out = STRBUF_INIT;
	struct strbuf log_err = STRBUF_INIT;
	struct walk w = { STRVEC_INIT, 0, 0, 0 };
	struct strvec *pulled = &w.pulled;
	int since_rc = 0;
	struct match mt = { NULL, NULL, 0 }, mmt = { NULL, NULL, 0 };
	struct match rpmt = { NULL, NULL, 0 };
	struct strvec bases = STRVEC_INIT;
	struct stat_totals ct;
	const char *algorithm = NULL;
	struct merge m;
	enum verdict v = FAILED;
	size_t start = sb->len;
	int copies;

	memset(&m, 0, sizeof(m));
	/* <upstream> as resolved, and the tip: no second rev-parse */
	p->head.name = vf->tip.buf;
	strbuf_reset(&p->head.oid);
	strbuf_add(&p->head.oid, vf->tip.buf, vf->tip.len);

	/* first the one walk: a merged tip needs no merge */
	add_str(&since, &req->base);
	walk_cmd(&log, vf, &log_out, &log_err);
	if (walk_parse(run_git(&log), &log_out, &log_err, since.buf,
		       vf->tip.len, &w, fail))
		goto out;
	vf->merged = !w.nr;
	vf->nr_pulled = w.nr;
	/* no boundary: merge.c says why (unrelated, or a shallow clone) */
	if (w.nr && !w.boundary && merge_bases(p, &bases, &fail->why))
		goto out;
	/* beside the merge, when the walk did not meet it: the "since" */
	if (!vf->merged) {
		merge_cmd(&m, p, 0, &merging);
		cps[n++] = &merging;
	}
	if (!w.since_met) {
		since_cmd(&beside, since.buf, vf);
		cps[n++] = &beside;
	}
	run_git_all(cps, rcs, n);
	if (!w.since_met)
		since_rc = rcs[n - 1];
	if (!vf->merged && merge_result(&m, rcs[0], &fail->why))
		goto out;
	add_heading(sb, vf);
	add_since_note(sb, vf, since.buf, since_rc);
	if (req->block.nr_authors) {
		long listed = foreign_commits(req, 1, pulled);

		if (listed)
			strbuf_addf(sb, porcelain ? "note shortlog-foreign %ld\n" :
				    "note: the shortlog lists %ld commit%s that "
				    "pulling it does not bring\n", listed,
				    listed == 1 ? "" : "s");
	}
	if (m.conflicted) {
		struct strvec numbers = STRVEC_INIT;

		add_conflicts(sb, &m, porcelain);
		if (vf->nr_earlier)
			find_earlier(vf, 1, &numbers);
		if (numbers.nr && !porcelain)
			strbuf_addstr(sb, "it conflicts with ");
		add_earlier(sb, &numbers, porcelain, "conflict-with");
		if (numbers.nr && !porcelain)
			strbuf_addstr(sb, ", pulled before it\n");
		strvec_clear(&numbers);
		v = CONFLICTS;
		goto out;
	}

	/* merged: nothing to pull, every diff empty */
	if (!vf->merged &&
	    diff_merge(&m, numstat_stat, &out, &clean, &clean_stat, fail))
		goto out;
	stat_numstat_totals(&clean, &ct);
	if (porcelain) {
		strbuf_addf(sb, "clean %ld %ld %ld\n", ct.files, ct.insertions,
			    ct.deletions);
	} else {
		strbuf_addstr(sb, "clean diffstat:     ");
		add_totals(sb, &ct);
		strbuf_addch(sb, '\n');
	}
	if (req->nr_extra_blocks) {
		long foreign = foreign_commits(req, 0, pulled);

		if (foreign) {
			v = DIFFERS;
			strbuf_addf(sb, porcelain ? "note foreign %ld\n" :
				    "verdict: differs: the mail also lists %ld "
				    "commit%s that pulling it does not bring\n",
				    foreign, porcelain || foreign == 1 ? "" : "s");
			goto out;
		}
	}
	if (request_is(req, &clean, &mt)) {
		v = MATCHES;
		if (!porcelain)
			strbuf_addf(sb, "verdict: matches: the request's %s "
				    "what pulling it changes\n",
				    req->block.totals_only ? "totals are" :
				    "diffstat is");
		goto out;
	}

	/* without a copy, -M finds what -C found: no second diff */
	copies = has_copies(&clean_stat);
	if (copies &&
	    diff_merge(&m, numstat_renames, &out_m, &renames, NULL, fail))
		goto out;
	if (copies && request_is(req, &renames, &mmt)) {
		v = MATCHES;
		strbuf_addstr(sb, porcelain ? "note copies\n" :
			      "verdict: matches: with git request-pull's renames "
			      "(-M); -C finds copies\n");
		goto out;
	}

	/* merged: git request-pull's diffstat is as empty as the clean one */
	if (!vf->merged && merge_bases(p, &bases, &fail->why))
		goto out;
	if (!vf->merged) {
		request_pull_diff(&cp, p, bases.v[0], NULL, numstat);
		cp.out = &rp_out;
		if (run_or_fail(&cp, "git diff", fail))
			goto out;
		parse_numstat(&rp_out, &rp, NULL);
	}
	if (!vf->merged && request_is(req, &rp, &rpmt)) {
		v = MESSY;
		if (porcelain) {
			strbuf_addf(sb, "base %s\n", bases.v[0]);
			add_differences(sb, req, &clean, &mt, 1, 1);
			goto out;
		}
		if (commit_subject(bases.v[0], &desc, fail)) {
			v = FAILED;
			goto out;
		}
		/* the base as the tip line shows the tip: under 80 columns */
		strbuf_addf(sb, "verdict: messy: it is git request-pull's "
			    "diffstat, from one merge base alone:\n  %.12s ",
			    bases.v[0]);
		quote_shown(sb, desc.buf, desc.len);
		strbuf_addstr(sb, "\nwhat pulling it changes is:\n");
		add_stat_shown(sb, &clean_stat);
		goto out;
	}

	if (same_files(req, &clean, &mt))
		algorithm = other_algorithm(&m, req, numstat, fail);
	else if (copies && same_files(req, &renames, &mmt))
		algorithm = other_algorithm(&m, req, numstat_renames, fail);
	if (fail->why.len)
		goto out;
	if (algorithm) {
		v = MATCHES;
		if (porcelain)
			strbuf_addf(sb, "note algorithm %s\n", algorithm);
		else
			strbuf_addf(sb, "verdict: matches: its lines counted "
				    "as diff.algorithm=%s counts them\n",
				    algorithm);
		goto out;
	}

	v = DIFFERS;
	if (!porcelain) {
		add_differs_reason(sb, vf);
	} else if (vf->nr_earlier) {
		struct strvec numbers = STRVEC_INIT;

		find_earlier(vf, 0, &numbers);
		add_earlier(sb, &numbers, 1, "earlier");
		strvec_clear(&numbers);
	}
	/* core.quotePath: asked only here, where paths are shown */
	add_differences(sb, req, &clean, &mt, porcelain,
			!porcelain && git_quote_path());

out:
	if (v != FAILED && v != CONFLICTS && vf->merged)
		strbuf_add(&vf->merged_tree, p->upstream_tree.buf,
			   p->upstream_tree.len);
	else if (v != FAILED && v != CONFLICTS)
		strbuf_add(&vf->merged_tree, m.tree.buf, m.tree.len);
	if (porcelain && v != FAILED)
		strbuf_addf(sb, "verdict %s\n", verdict_name[v]);
	if (v == FAILED)
		strbuf_setlen(sb, start);
	match_release(&mt);
	match_release(&mmt);
	match_release(&rpmt);
	numstat_release(&clean);
	numstat_release(&renames);
	numstat_release(&rp);
	strbuf_release(&out);
	strbuf_release(&out_m);
	strbuf_release(&rp_out);
	strbuf_release(&clean_stat);
	strbuf_release(&desc);
	strbuf_release(&since);
	strbuf_release(&log_out);
	strbuf_release(&log_err);
	strvec_clear(&w.pulled);
	strvec_clear(&bases);
	merge_release(&m);
	return v;
}

static void verifying_release(struct verifying *vf)
{
	strbuf_release(&vf->url);
	strbuf_release(&vf->ref);
	strbuf_release(&vf->want);
	strbuf_release(&vf->tip);
	strbuf_release(&vf->subject);
	strbuf_release(&vf->p.head.oid);
	strbuf_release(&vf->merged_tree);
	strbuf_release(&vf->refetch);
}

/* A limit of the fetch: the command line's, the config's, or ours. */
static int limit(int option, int config, int fallback)
{
	return option >= 0 ? option : config >= 0 ? config : fallback;
}

/* A request of the input, on its way to its report. */
struct request {
	struct verifying vf;
	struct failure fail;
	struct strbuf err;		/* its fetch's stderr */
	struct fetch_request fetch;
	int to_fetch;			/* waits for its fetch */
	int local;			/* its tip is here already */
	int ready;			/* its tip is known, or why not */
	struct strbuf upstream, tree;	/* --in-order: what it is merged into */
};

/* What verify() works with: the requests, in the order of the input. */
struct verifying_all {
	const struct options *opts;
	struct pull upstream;
	struct fetch_settings settings;
	struct request *rq;
	size_t nr;
	size_t next_fetch;		/* the next request to fetch */
	size_t next_report;		/* the next request to report */
	size_t fetching;		/* fetches running */
	struct progress *progress;
	int mbox;
	size_t count[NR_VERDICTS];
	int status;
	/* --in-order: <upstream> with the requests pulled so far merged */
	struct strbuf chain, chain_tree;
	struct pulled *pulled;
	size_t nr_pulled, alloc_pulled;
};

/*
 * --in-order: pull r into the chain, as a merge commit of its merged
 * tree with the chain and its tip as parents, written in the
 * quarantine (no ref names it); every later git reads it there.
 */
static void pull_in_memory(struct verifying_all *all, struct request *r)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	static int shared;

	if (!shared++) {
		struct strbuf alt = STRBUF_INIT;

		alternates_list(&alt, quarantine_path());
		if (setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", alt.buf, 1))
			die_errno("cannot set GIT_ALTERNATE_OBJECT_DIRECTORIES");
		strbuf_release(&alt);
	}
	strvec_pushl(&cp.args, "commit-tree", "-p", all->chain.buf, "-p",
		     r->vf.tip.buf, "-m", "pulled by git clean-diffstat --in-order",
		     "--end-of-options", r->vf.merged_tree.buf, NULL);
	quarantine_env(&cp.env, all->upstream.objdir.buf);
	/* the same commit whatever the clock: the same ids in every run */
	strvec_pushl(&cp.env, "GIT_AUTHOR_NAME=git clean-diffstat",
		     "GIT_AUTHOR_EMAIL=", "GIT_COMMITTER_NAME=git clean-diffstat",
		     "GIT_COMMITTER_EMAIL=", "GIT_AUTHOR_DATE=@0 +0000",
		     "GIT_COMMITTER_DATE=@0 +0000", NULL);
	cp.out = &out;
	run_git_or_die(&cp);
	strbuf_trim_newlines(&out);
	strbuf_reset(&all->chain);
	strbuf_add(&all->chain, out.buf, out.len);
	strbuf_reset(&all->chain_tree);
	strbuf_add(&all->chain_tree, r->vf.merged_tree.buf, r->vf.merged_tree.len);
	ALLOC_GROW(all->pulled, all->nr_pulled + 1, all->alloc_pulled);
	all->pulled[all->nr_pulled].number = r->vf.msg->number;
	all->pulled[all->nr_pulled].tip = r->vf.tip.buf;
	all->nr_pulled++;
	strbuf_release(&out);
}

/*
 * The report of a request that could not be verified: one line, or the
 * records message, url, ref, error and verdict.
 */
static void add_failure(struct strbuf *sb, const struct pullmsg *msg,
			const struct failure *fail, int porcelain)
{
	if (!porcelain) {
		strbuf_addf(sb, "error: %s\n", fail->why.buf);
		return;
	}
	add_message_records(sb, msg);
	strbuf_addstr(sb, "url ");
	quote_c_style(sb, msg->req.url.s, msg->req.url.len, 1);
	strbuf_addstr(sb, "\nref ");
	quote_c_style(sb, msg->req.ref.s, msg->req.ref.len, 1);
	strbuf_addstr(sb, "\nerror ");
	quote_c_style(sb, fail->why.buf, fail->why.len, 1);
	strbuf_addf(sb, "\nverdict %s\n", verdict_name[FAILED]);
}


/*
 * Report every request that is ready, in the order of the input, as
 * soon as those before it are reported: the output is the same however
 * many fetches run at once.
 */
static void report_ready(struct verifying_all *all)
{
	const struct options *opts = all->opts;
	struct strbuf sb = STRBUF_INIT;

	while (all->next_report < all->nr && all->rq[all->next_report].ready) {
		struct request *r = &all->rq[all->next_report++];
		const struct pullmsg *msg = r->vf.msg;
		enum verdict v = FAILED;

		if (all->mbox && !opts->porcelain) {
			if (all->next_report > 1)
				strbuf_addch(&sb, '\n');
			strbuf_addf(&sb, "message %zu: ", msg->number);
			quote_shown(&sb, msg->subject.s, msg->subject.len);
			if (msg->nr_requests > 1)
				strbuf_addf(&sb, " (request %zu of %zu)",
					    msg->request, msg->nr_requests);
			strbuf_addch(&sb, '\n');
		}
		/* a person's notes go first; porcelain's in the records */
		if (!opts->porcelain)
			add_damage_notes(&sb, &msg->req, 0);
		if (r->vf.how && opts->in_order) {
			/* into <upstream> with those before it pulled */
			strbuf_add(&r->upstream, all->chain.buf, all->chain.len);
			strbuf_add(&r->tree, all->chain_tree.buf,
				   all->chain_tree.len);
			r->vf.p.upstream.oid = r->upstream;
			r->vf.p.upstream_tree = r->tree;
			r->vf.earlier = all->pulled;
			r->vf.nr_earlier = all->nr_pulled;
			r->vf.upstream_oid = all->upstream.upstream.oid.buf;
		}
		if (r->vf.how)
			v = report(&r->vf, &sb, &r->fail);
		if (opts->in_order && v != FAILED && v != CONFLICTS)
			pull_in_memory(all, r);
		if (v == FAILED) {
			/* one message: as fatal as any other error */
			if (!all->mbox) {
				progress_clear(all->progress);
				die("%s", r->fail.why.buf);
			}
			/* in an mbox: its report says so, the others go on */
			add_failure(&sb, msg, &r->fail, opts->porcelain);
		}
		all->count[v]++;
		all->status |= v != MATCHES;
		progress_clear(all->progress);
		fwrite(sb.buf, 1, sb.len, stdout);
		flush_stdout();
		strbuf_reset(&sb);
		display_progress(all->progress, all->next_report,
				 all->fetching);
	}
	strbuf_release(&sb);
}

/* run_git_parallel()'s next(): the fetch of the next request to fetch. */
static int next_fetch(struct child_process *cp, void *data)
{
	struct verifying_all *all = data;

	while (all->next_fetch < all->nr && !all->rq[all->next_fetch].to_fetch)
		all->next_fetch++;
	if (all->next_fetch == all->nr)
		return 0;
	fetch_cmd(&all->settings, &all->upstream,
		  &all->rq[all->next_fetch].fetch, cp,
		  &all->rq[all->next_fetch].err);
	all->next_fetch++;
	display_progress(all->progress, all->next_report, ++all->fetching);
	return 1;
}

/*
 * The fetch of a request whose tip is here already ended (it exited rc):
 * it only re-reads the branch.  When the branch moved, the fetched tip
 * is verified, as when the tip was not here; when the fetch failed, the
 * tip here is, with a note that says why the branch could not be read.
 */
static void refetched(struct request *r, int rc, struct verifying_all *all)
{
	struct strbuf tip = STRBUF_INIT, subject = STRBUF_INIT;
	struct failure fail = { STRBUF_INIT };

	if (fetch_result(rc, &r->err, &all->upstream, &r->fetch, &tip,
			 &subject, &fail.why)) {
		strbuf_add(&r->vf.refetch, fail.why.buf, fail.why.len);
	} else {
		r->vf.how = strcmp(tip.buf, r->vf.tip.buf) ? "moved" : "fetched";
		strbuf_reset(&r->vf.tip);
		strbuf_add(&r->vf.tip, tip.buf, tip.len);
		strbuf_reset(&r->vf.subject);
		strbuf_add(&r->vf.subject, subject.buf, subject.len);
	}
	strbuf_release(&tip);
	strbuf_release(&subject);
	strbuf_release(&fail.why);
}

/* run_git_parallel()'s done(): the fetch of request task ended. */
static void fetched(size_t task, int rc, void *data)
{
	struct verifying_all *all = data;
	struct request *r = NULL;
	size_t i, n = 0;

	for (i = 0; i < all->nr && !r; i++)
		if (all->rq[i].to_fetch && n++ == task)
			r = &all->rq[i];
	if (!r)
		BUG("a fetch for no request");
	all->fetching--;
	if (r->local)
		refetched(r, rc, all);
	else if (!fetch_result(rc, &r->err, &all->upstream, &r->fetch,
			       &r->vf.tip, &r->vf.subject, &r->fail.why))
		r->vf.how = strncmp(r->vf.tip.buf, r->vf.want.buf,
				    r->vf.want.len) ? "moved" : "fetched";
	r->ready = 1;
	report_ready(all);
}

/*
 * The tips the repository has already, all looked up at once: with
 * --no-fetch, a tip not here is its request's error; else a tip here is
 * verified as it is, its fetch only re-reading the branch.
 */
static void find_local_tips(struct verifying_all *all)
{
	struct child_process *cps = xmalloc((all->nr + 1) * sizeof(*cps));
	struct child_process **p =
		xmalloc((all->nr + 1) * sizeof(struct child_process *));
	struct strbuf *out = xmalloc((all->nr + 1) * sizeof(*out));
	int *rcs = xmalloc((all->nr + 1) * sizeof(*rcs));
	size_t i, n = 0;

	for (i = 0; i < all->nr; i++) {
		struct request *r = &all->rq[i];

		if (r->ready)
			continue;
		strbuf_init(&out[n]);
		cps[n] = (struct child_process)CHILD_PROCESS_INIT;
		fetch_local_commit_cmd(&cps[n], r->vf.want.buf, &out[n]);
		p[n] = &cps[n];
		n++;
	}
	run_git_all(p, rcs, n);
	for (i = 0, n = 0; i < all->nr; i++) {
		struct request *r = &all->rq[i];
		struct verifying *vf = &r->vf;

		if (r->ready)
			continue;
		if (!commit_found(rcs[n], &out[n], &vf->tip, &vf->subject))
			vf->how = "local";
		else if (all->opts->no_fetch)
			strbuf_addf(&r->fail.why, "the tip %s is not in this "
				    "repository, and --no-fetch forbids fetching "
				    "'%s' from '%s'", vf->want.buf,
				    vf->ref.len ? vf->ref.buf : "HEAD",
				    vf->url.buf);
		r->local = !!vf->how;
		r->ready = all->opts->no_fetch;
		strbuf_release(&out[n++]);
	}
	free(cps);
	free(p);
	free(out);
	free(rcs);
}

/* The number of fetches at once: --jobs, clean-diffstat.jobs, the cores. */
static size_t fetch_jobs(const struct verifying_all *all)
{
	long n = all->opts->jobs > 0 ? all->opts->jobs : all->settings.jobs;

	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (size_t)n : 1;
}

int verify(const struct options *opts)
{
	static const struct fetchgate_rewrites no_rewrites = FETCHGATE_REWRITES_INIT;
	struct verifying_all all = { .opts = opts };
	struct pullmsg_list list = PULLMSG_LIST_INIT;
	struct strbuf config = STRBUF_INIT, rev = STRBUF_INIT, rev_err = STRBUF_INIT;
	struct child_process cp = CHILD_PROCESS_INIT, split = CHILD_PROCESS_INIT;
	struct child_process init = CHILD_PROCESS_INIT, up = CHILD_PROCESS_INIT;
	struct child_process *cps[3] = { &up, &split, &cp }, *init_cp = &init;
	size_t i, nr = 0, to_fetch = 0;
	int rcs[3], rc;

	/*
	 * git mailsplit, and beside it <upstream> and the receiver's
	 * configuration; then git mailinfo of each message, and beside
	 * them git init of the repository the fetches go to
	 */
	all.settings = (struct fetch_settings)FETCH_SETTINGS_INIT;
	resolve_cmd(&all.upstream, opts->upstream, opts->upstream, &up, &rev,
		    &rev_err);
	pullmsg_split_cmd(opts->verify_file, &list, &split);
	if (!opts->no_fetch)
		fetch_settings_cmd(&cp, &config);
	run_git_all(cps, rcs, opts->no_fetch ? 2 : 3);
	resolve_result(&all.upstream, rcs[0], &rev, &rev_err);
	strbuf_release(&rev);
	strbuf_release(&rev_err);
	if (!opts->no_fetch)
		fetch_settings_parse(&all.settings, rcs[2], &config);
	strbuf_release(&config);
	if (!opts->no_fetch)
		fetch_prepare_cmd(&all.upstream, &init);
	pullmsg_read_split(&list, rcs[1], &init_cp, &rc, !opts->no_fetch);
	if (!opts->no_fetch)
		fetch_prepared(rc);

	/* one mail, one output: a file, stdin or an mbox of it alone */
	if (list.nr == 1 && list.msg[0].error)
		die("no pull request in the message: %s", list.msg[0].error);
	/* a request that cannot be read is one to report, not to skip */
	for (i = 0; i < list.nr; i++)
		nr += !list.msg[i].error || list.msg[i].telltale;
	if (!nr)
		die("no pull request in any of the %zu messages", list.nr);

	/* several requests, even in one message: a report each */
	all.mbox = list.nr > 1;
	all.rq = xmalloc(nr * sizeof(*all.rq));
	for (i = 0; i < list.nr; i++) {
		const struct pullmsg *msg = &list.msg[i];
		struct request *r;

		if (msg->error && !msg->telltale)
			continue;
		r = &all.rq[all.nr++];
		memset(r, 0, sizeof(*r));
		r->vf.opts = opts;
		r->vf.msg = msg;
		strbuf_init(&r->vf.url);
		strbuf_init(&r->vf.ref);
		strbuf_init(&r->vf.want);
		strbuf_init(&r->vf.tip);
		strbuf_init(&r->vf.subject);
		strbuf_init(&r->fail.why);
		strbuf_init(&r->err);
		strbuf_init(&r->vf.merged_tree);
		strbuf_init(&r->vf.refetch);
		strbuf_init(&r->upstream);
		strbuf_init(&r->tree);
		add_str(&r->vf.url, &msg->req.url);
		add_str(&r->vf.ref, &msg->req.ref);
		add_str(&r->vf.want, &msg->req.tip);
		if (msg->error) {
			/* it looks like a request, but none can be read */
			strbuf_addf(&r->fail.why, "no pull request in message "
				    "%zu: %s", msg->number, msg->error);
			r->ready = 1;
			continue;
		}
		/* untrusted: what is to be fetched is checked before a git uses it */
		if (!opts->no_fetch &&
		    fetchgate_check(&no_rewrites, r->vf.url.buf, r->vf.ref.buf,
				    opts->allow_local, &r->fail.why))
			r->ready = 1;
	}
	/* one message refused: nothing more runs */
	if (!all.mbox && all.rq[0].ready)
		report_ready(&all);

	strbuf_init(&all.chain);
	strbuf_init(&all.chain_tree);
	strbuf_add(&all.chain, all.upstream.upstream.oid.buf,
		   all.upstream.upstream.oid.len);
	strbuf_add(&all.chain_tree, all.upstream.upstream_tree.buf,
		   all.upstream.upstream_tree.len);

	for (i = 0; i < all.nr; i++) {
		struct request *r = &all.rq[i];

		/* report() sets the tip as its <head> */
		r->vf.p = all.upstream;
		strbuf_init(&r->vf.p.head.oid);
		if (r->ready || opts->no_fetch)
			continue;
		if (fetchgate_check(&all.settings.rewrites, r->vf.url.buf,
				    r->vf.ref.buf, opts->allow_local,
				    &r->fail.why)) {
			r->ready = 1;
			continue;
		}
		r->fetch.url = r->vf.url.buf;
		r->fetch.ref = r->vf.ref.buf;
		r->fetch.number = i + 1;	/* a message may hold several */
		r->fetch.allow_local = opts->allow_local;
		r->fetch.timeout = limit(opts->fetch_timeout,
					 all.settings.timeout,
					 DEFAULT_FETCH_TIMEOUT);
		r->fetch.stall = limit(opts->fetch_stall, all.settings.stall,
				       DEFAULT_FETCH_STALL);
		r->to_fetch = 1;
		to_fetch++;
	}
	find_local_tips(&all);
	progress_wanted(opts->progress);
	all.progress = start_progress("Verifying pull requests", all.nr);
	report_ready(&all);
	if (to_fetch)
		run_git_parallel(fetch_jobs(&all), next_fetch, fetched, &all);
	report_ready(&all);
	stop_progress(&all.progress);

	if (opts->porcelain)
		printf("summary %zu %zu %zu %zu %zu %zu\n", all.nr,
		       all.count[MATCHES], all.count[MESSY], all.count[DIFFERS],
		       all.count[CONFLICTS], all.count[FAILED]);
	else if (all.mbox)
		printf("\n%zu pull request%s: matches %zu, messy %zu, "
		       "differs %zu, conflicts %zu, errors %zu\n", all.nr,
		       all.nr == 1 ? "" : "s", all.count[MATCHES],
		       all.count[MESSY], all.count[DIFFERS],
		       all.count[CONFLICTS], all.count[FAILED]);
	for (i = 0; i < all.nr; i++) {
		verifying_release(&all.rq[i].vf);
		strbuf_release(&all.rq[i].fail.why);
		strbuf_release(&all.rq[i].err);
		strbuf_release(&all.rq[i].upstream);
		strbuf_release(&all.rq[i].tree);
	}
	free(all.rq);
	free(all.pulled);
	strbuf_release(&all.chain);
	strbuf_release(&all.chain_tree);
	fetch_settings_release(&all.settings);
	pull_release(&all.upstream);
	pullmsg_release(&list);
	return all.status;
}
