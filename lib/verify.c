// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conflicts.h"
#include "fetch.h"
#include "match.h"
#include "merge.h"
#include "numstat.h"
#include "pullmsg.h"
#include "quote.h"
#include "resolve.h"
#include "run.h"
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
 * dies with, what an mbox's report of it says), and what git said.
 */
struct failure {
	struct strbuf why, detail;
};

/* A request, once its tip is known: what report() needs. */
struct verifying {
	const struct options *opts;
	const struct pullmsg *msg;
	struct pull p;
	struct strbuf url, ref, want, tip, subject;
	const char *how;		/* "local", "fetched", "moved" */
};

static void add_totals(struct strbuf *sb, const struct stat_totals *t)
{
	char line[STAT_TOTALS_MAX];

	strbuf_addstr(sb, stat_totals_line(line, t));
}

static int same_totals(const struct pullreq *req, const struct stat_totals *t)
{
	return req->files == t->files && req->insertions == t->insertions &&
	       req->deletions == t->deletions;
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

	for (i = 0; i < req->nr_rows; i++) {
		if (mt->file_of[i] >= 0)
			continue;
		if (porcelain) {
			strbuf_addstr(sb, "only-request ");
		} else {
			if (!shown++)
				strbuf_addstr(sb, "only in the request:\n");
			strbuf_addstr(sb, "  ");
		}
		add_row_count(sb, &req->row[i], porcelain);
		strbuf_addch(sb, ' ');
		add_row_name(sb, &req->row[i], porcelain);
		strbuf_addch(sb, '\n');
	}
	shown = 0;
	for (j = 0; j < ns->nr; j++) {
		if (mt->used[j] || req->rows_cut)
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
	for (i = 0; i < req->nr_rows; i++) {
		const struct numstat_file *f;

		if (mt->file_of[i] < 0)
			continue;
		f = &ns->file[mt->file_of[i]];
		if (match_same_numbers(&req->row[i], f))
			continue;
		if (porcelain) {
			strbuf_addstr(sb, "differ ");
		} else {
			if (!shown++)
				strbuf_addstr(sb, "counted differently:\n");
			strbuf_addstr(sb, "  request ");
		}
		add_row_count(sb, &req->row[i], porcelain);
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

/* The records or lines every report starts with. */
static void add_heading(struct strbuf *sb, const struct verifying *vf)
{
	const struct pullreq *req = &vf->msg->req;
	struct stat_totals rt = { req->files, req->insertions, req->deletions };

	if (vf->opts->porcelain) {
		strbuf_addf(sb, "message %zu\nurl ", vf->msg->number);
		quote_c_style(sb, vf->url.buf, vf->url.len, 1);
		strbuf_addstr(sb, "\nref ");
		quote_c_style(sb, vf->ref.buf, vf->ref.len, 1);
		strbuf_addf(sb, "\ntip %s %s %s\n", vf->want.buf, vf->tip.buf,
			    vf->how);
		strbuf_addf(sb, "request %ld %ld %ld\n", req->files,
			    req->insertions, req->deletions);
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
	if (!strcmp(vf->how, "local"))
		strbuf_addstr(sb, "the tip is in this repository\n");
	else if (!strcmp(vf->how, "fetched"))
		strbuf_addstr(sb, "fetched: the tip is the request's\n");
	else
		strbuf_addf(sb, "the branch moved since the request: it "
			    "asks for %s, the branch is at %s\n",
			    vf->want.buf, vf->tip.buf);
	strbuf_addstr(sb, "request's diffstat: ");
	add_totals(sb, &rt);
	strbuf_addch(sb, '\n');
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

	if (req->rows_cut || req->files != (long)ns->nr)
		return 0;
	for (i = 0; i < req->nr_rows; i++)
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
 * How many commits a revision range has (git rev-list --count): -1 when
 * git cannot tell (the "since" commit unknown here).
 */
static long count_commits(const char *from, const char *to)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	long n = -1;

	strvec_pushl(&cp.args, "rev-list", "--count", "--end-of-options", NULL);
	strvec_pushf(&cp.args, "%s..%s", from, to);
	cp.out = &out;
	cp.no_stderr = 1;
	if (!run_git(&cp))
		n = strtol(out.buf, NULL, 10);
	strbuf_release(&out);
	return n;
}

/* Is commit a an ancestor of b?  1, 0; -1 when git cannot tell. */
static int is_ancestor(const char *a, const char *b)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int rc;

	strvec_pushl(&cp.args, "merge-base", "--is-ancestor", "--end-of-options",
		     a, b, NULL);
	cp.no_stderr = 1;
	rc = run_git(&cp);
	return rc == 0 ? 1 : rc == 1 ? 0 : -1;
}

/*
 * A note on the request's "since" commit when it is not what git
 * request-pull would have written: unknown here, or not an ancestor of
 * the tip.
 */
static void add_since_note(struct strbuf *sb, const struct verifying *vf,
			   const struct pullreq *req)
{
	struct strbuf base = STRBUF_INIT;
	int porcelain = vf->opts->porcelain, anc;

	add_str(&base, &req->base);
	anc = is_ancestor(base.buf, vf->tip.buf);
	if (anc < 0)
		strbuf_addf(sb, porcelain ? "note since-unknown %s\n" :
			    "note: the request's 'since' commit %s is not in "
			    "this repository\n", base.buf);
	else if (!anc)
		strbuf_addf(sb, porcelain ? "note since-not-ancestor %s\n" :
			    "note: the request's 'since' commit %s is not an "
			    "ancestor of the tip\n", base.buf);
	strbuf_release(&base);
}

/*
 * Why a request's diffstat differs, for a person: the branch moved,
 * upstream has merged the tip already, or has some of its commits
 * (counted from the request's "since" commit), or none of that.
 */
static void add_differs_reason(struct strbuf *sb, const struct verifying *vf,
			       const struct merge *m)
{
	const struct pull *p = &vf->p;
	struct strbuf base = STRBUF_INIT;
	long since, pulled;

	strbuf_addstr(sb, "verdict: differs: ");
	if (!strcmp(vf->how, "moved")) {
		strbuf_addstr(sb, "the branch moved since the request\n");
		return;
	}
	if (merge_nothing_to_pull(m)) {
		strbuf_addf(sb, "'%s' already has all of it: the tip is "
			    "merged\n", p->upstream.name);
		return;
	}
	add_str(&base, &vf->msg->req.base);
	since = count_commits(base.buf, vf->tip.buf);
	pulled = count_commits(p->upstream.oid.buf, vf->tip.buf);
	strbuf_release(&base);
	if (since > 0 && pulled >= 0 && pulled < since)
		strbuf_addf(sb, "'%s' already has %ld of its %ld commits\n",
			    p->upstream.name, since - pulled, since);
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
	struct match mt = { NULL, NULL, 0 }, mmt = { NULL, NULL, 0 };
	struct match rpmt = { NULL, NULL, 0 };
	struct strvec bases = STRVEC_INIT;
	struct stat_totals ct;
	const char *algorithm = NULL;
	struct merge m;
	enum verdict v = FAILED;
	size_t start = sb->len;

	/* <upstream> as resolved, and the tip: no second rev-parse */
	p->head.name = vf->tip.buf;
	strbuf_reset(&p->head.oid);
	strbuf_add(&p->head.oid, vf->tip.buf, vf->tip.len);

	if (merge_try(&m, p, &bases, &fail->why))
		goto out;
	add_heading(sb, vf);
	add_since_note(sb, vf, req);
	if (m.conflicted) {
		add_conflicts(sb, &m, porcelain);
		v = CONFLICTS;
		goto out;
	}

	if (diff_merge(&m, porcelain ? numstat : numstat_stat, &out, &clean,
		       porcelain ? NULL : &clean_stat, fail))
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
	if (request_is(req, &clean, &mt)) {
		v = MATCHES;
		if (!porcelain)
			strbuf_addstr(sb, "verdict: matches: the request's "
				      "diffstat is what pulling it changes\n");
		goto out;
	}

	if (diff_merge(&m, numstat_renames, &out_m, &renames, NULL, fail))
		goto out;
	if (request_is(req, &renames, &mmt)) {
		v = MATCHES;
		strbuf_addstr(sb, porcelain ? "note copies\n" :
			      "verdict: matches: the request's diffstat is what "
			      "pulling it changes, with renames only, as git "
			      "request-pull finds them; the clean diffstat's -C "
			      "also finds copies\n");
		goto out;
	}

	request_pull_diff(&cp, p, bases.v[0], NULL, numstat);
	cp.out = &rp_out;
	if (run_or_fail(&cp, "git diff", fail))
		goto out;
	parse_numstat(&rp_out, &rp, NULL);
	if (request_is(req, &rp, &rpmt)) {
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
		strbuf_addf(sb, "verdict: messy: the request's diffstat is git "
			    "request-pull's, from the merge base %.12s (",
			    bases.v[0]);
		quote_shown(sb, desc.buf, desc.len);
		strbuf_addstr(sb, ") alone; what pulling it changes is:\n");
		strbuf_add(sb, clean_stat.buf, clean_stat.len);
		goto out;
	}

	if (same_files(req, &clean, &mt))
		algorithm = other_algorithm(&m, req, numstat, fail);
	else if (same_files(req, &renames, &mmt))
		algorithm = other_algorithm(&m, req, numstat_renames, fail);
	if (fail->why.len)
		goto out;
	if (algorithm) {
		v = MATCHES;
		if (porcelain)
			strbuf_addf(sb, "note algorithm %s\n", algorithm);
		else
			strbuf_addf(sb, "verdict: matches: the request's "
				    "diffstat is what pulling it changes, its "
				    "lines counted by diff.algorithm=%s\n",
				    algorithm);
		goto out;
	}

	v = DIFFERS;
	if (!porcelain)
		add_differs_reason(sb, vf, &m);
	/* core.quotePath: asked only here, where paths are shown */
	add_differences(sb, req, &clean, &mt, porcelain,
			!porcelain && git_quote_path());

out:
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
}

/* The receiver's configuration for fetching, read once. */
static struct fetch_settings settings = FETCH_SETTINGS_INIT;
static const struct fetchgate_rewrites no_rewrites = FETCHGATE_REWRITES_INIT;
static int settings_read;

/* A limit of the fetch: the command line's, the config's, or ours. */
static int limit(int option, int config, int fallback)
{
	return option >= 0 ? option : config >= 0 ? config : fallback;
}

/*
 * Verify one request; its report goes into sb.  FAILED, with fail
 * filled in and nothing in sb, when it cannot be.
 */
static enum verdict verify_one(const struct options *opts,
			       const struct pullmsg *msg, struct strbuf *sb,
			       struct failure *fail)
{
	const struct pullreq *req = &msg->req;
	struct verifying vf = {
		.opts = opts, .msg = msg, .url = STRBUF_INIT,
		.ref = STRBUF_INIT, .want = STRBUF_INIT, .tip = STRBUF_INIT,
		.subject = STRBUF_INIT
	};
	struct strbuf local = STRBUF_INIT, config = STRBUF_INIT;
	struct child_process cp[2] = { CHILD_PROCESS_INIT, CHILD_PROCESS_INIT };
	struct child_process *cps[2] = { &cp[0], &cp[1] };
	enum verdict v = FAILED;
	int rcs[2];
	size_t nr = 0;

	add_str(&vf.url, &req->url);
	add_str(&vf.ref, &req->ref);
	add_str(&vf.want, &req->tip);
	/* untrusted: what is to be fetched is checked before anything runs */
	if (!opts->no_fetch &&
	    fetchgate_check(&no_rewrites, vf.url.buf, vf.ref.buf,
			    opts->allow_local, &fail->why))
		goto out;
	/*
	 * Beside resolve()'s rev-parse: with --no-fetch, whether the tip is
	 * in this repository; else (the first time) the receiver's
	 * configuration for the fetch.  Unless --no-fetch, the tip is
	 * fetched even when it is here: the branch may have moved since.
	 */
	if (opts->no_fetch)
		fetch_local_commit_cmd(&cp[nr++], vf.want.buf, &local);
	else if (!settings_read++)
		fetch_settings_cmd(&cp[nr++], &config);
	resolve_beside(&vf.p, opts->upstream, opts->upstream, cps, rcs, nr);
	if (nr && !opts->no_fetch)
		fetch_settings_parse(&settings, rcs[0], &config);

	if (opts->no_fetch) {
		if (!commit_found(rcs[0], &local, &vf.tip, &vf.subject))
			vf.how = "local";
		else
			strbuf_addf(&fail->why, "the tip %s is not in this "
				    "repository, and --no-fetch forbids fetching "
				    "'%s' from '%s'", vf.want.buf,
				    vf.ref.len ? vf.ref.buf : "HEAD", vf.url.buf);
	} else if (!fetchgate_check(&settings.rewrites, vf.url.buf, vf.ref.buf,
				    opts->allow_local, &fail->why)) {
		struct fetch_request rq = {
			vf.url.buf, vf.ref.buf, msg->number, opts->allow_local,
			limit(opts->fetch_timeout, settings.timeout,
			      DEFAULT_FETCH_TIMEOUT),
			limit(opts->fetch_stall, settings.stall,
			      DEFAULT_FETCH_STALL)
		};

		if (!fetch_tip(&settings, &vf.p, &rq, &vf.tip, &vf.subject,
			       &fail->why, &fail->detail))
			vf.how = strncmp(vf.tip.buf, vf.want.buf, vf.want.len) ?
				 "moved" : "fetched";
	}
	if (vf.how)
		v = report(&vf, sb, fail);
	pull_release(&vf.p);
out:
	strbuf_release(&local);
	strbuf_release(&config);
	verifying_release(&vf);
	return v;
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
	strbuf_addf(sb, "message %zu\nurl ", msg->number);
	quote_c_style(sb, msg->req.url.s, msg->req.url.len, 1);
	strbuf_addstr(sb, "\nref ");
	quote_c_style(sb, msg->req.ref.s, msg->req.ref.len, 1);
	strbuf_addstr(sb, "\nerror ");
	quote_c_style(sb, fail->why.buf, fail->why.len, 1);
	strbuf_addf(sb, "\nverdict %s\n", verdict_name[FAILED]);
}

int verify(const struct options *opts)
{
	struct strbuf sb = STRBUF_INIT;
	struct pullmsg_list list = PULLMSG_LIST_INIT;
	struct failure fail = { STRBUF_INIT, STRBUF_INIT };
	size_t i, count[NR_VERDICTS] = { 0 }, nr = 0, done = 0;
	int status = 0;

	pullmsg_read(opts->verify_file, &list);
	if (!list.mbox && list.nr == 1 && list.msg[0].error)
		die("no pull request in the message: %s", list.msg[0].error);
	for (i = 0; i < list.nr; i++)
		nr += !list.msg[i].error;
	if (!nr)
		die("no pull request in any of the %zu messages", list.nr);

	for (i = 0; i < list.nr; i++) {
		const struct pullmsg *msg = &list.msg[i];
		enum verdict v;

		if (msg->error)
			continue;
		if (list.mbox && !opts->porcelain) {
			if (done++)
				strbuf_addch(&sb, '\n');
			strbuf_addf(&sb, "message %zu: ", msg->number);
			quote_shown(&sb, msg->subject.s, msg->subject.len);
			strbuf_addch(&sb, '\n');
		}
		v = verify_one(opts, msg, &sb, &fail);
		if (v == FAILED) {
			/* one message: as fatal as any other error */
			if (!list.mbox) {
				int code = die_message("%s", fail.why.buf);

				if (fail.detail.len)
					fprintf(stderr, "%s\n", fail.detail.buf);
				exit(code);
			}
			/* in an mbox: its report says so, the others go on */
			if (fail.detail.len)
				fprintf(stderr, "%s\n", fail.detail.buf);
			add_failure(&sb, msg, &fail, opts->porcelain);
		}
		strbuf_reset(&fail.why);
		strbuf_reset(&fail.detail);
		count[v]++;
		status |= v != MATCHES;
		fwrite(sb.buf, 1, sb.len, stdout);
		strbuf_reset(&sb);
	}
	if (opts->porcelain)
		printf("summary %zu %zu %zu %zu %zu %zu\n", nr, count[MATCHES],
		       count[MESSY], count[DIFFERS], count[CONFLICTS],
		       count[FAILED]);
	else if (list.mbox)
		printf("\n%zu pull request%s: matches %zu, messy %zu, "
		       "differs %zu, conflicts %zu, errors %zu\n", nr,
		       nr == 1 ? "" : "s", count[MATCHES], count[MESSY],
		       count[DIFFERS], count[CONFLICTS], count[FAILED]);
	strbuf_release(&sb);
	strbuf_release(&fail.why);
	strbuf_release(&fail.detail);
	fetch_settings_release(&settings);
	pullmsg_release(&list);
	return status;
}
