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

/* The subject of commit id, into subject. */
static void commit_subject(const char *id, struct strbuf *subject)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	strvec_pushl(&cp.args, "log", "-1", "--no-show-signature",
		     "--format=%s", "--end-of-options", id, NULL);
	cp.out = subject;
	run_git_or_die(&cp);
	strbuf_trim_newlines(subject);
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

static void add_conflicts(struct strbuf *sb, const struct merge *m,
			  int porcelain)
{
	size_t i;

	if (!porcelain) {
		strbuf_addf(sb, "verdict: conflicts: merging it into '%s' "
			    "conflicts:\n", m->pull->upstream.name);
		conflict_lines(sb, &m->res);
		return;
	}
	for (i = 0; i < m->res.nr_entries; i++) {
		strbuf_addstr(sb, "conflict ");
		quote_c_style(sb, m->res.entries[i].path.s,
			      m->res.entries[i].path.len, 1);
		strbuf_addch(sb, '\n');
	}
}

/*
 * Merge vf's tip into the upstream, compare, and write the report into
 * sb: the verdict.  The clean diffstat first; only when the request's
 * is not that, git request-pull's from the first merge base, and only
 * when it is that, the merge base's subject.
 */
static enum verdict report(struct verifying *vf, struct strbuf *sb)
{
	static const char *const numstat[] = { "--numstat", "-z", NULL };
	/* the clean diffstat a messy report prints, from the same diff */
	static const char *const numstat_stat[] = {
		"--numstat", "-z", "--stat", "--summary", NULL
	};
	const struct pullreq *req = &vf->msg->req;
	int porcelain = vf->opts->porcelain;
	struct pull *p = &vf->p;
	struct strbuf out = STRBUF_INIT, clean_stat = STRBUF_INIT;
	struct strbuf desc = STRBUF_INIT;
	struct numstat clean = NUMSTAT_INIT, rp = NUMSTAT_INIT;
	struct child_process cp = CHILD_PROCESS_INIT;
	struct match mt = { NULL, NULL, 0 }, rpmt = { NULL, NULL, 0 };
	struct strvec bases = STRVEC_INIT;
	struct stat_totals ct;
	struct merge m;
	enum verdict v;

	/* <upstream> as resolved, and the tip: no second rev-parse */
	p->head.name = vf->tip.buf;
	strbuf_reset(&p->head.oid);
	strbuf_add(&p->head.oid, vf->tip.buf, vf->tip.len);

	merge_run(&m, p, 0, &bases);
	add_heading(sb, vf);
	if (m.conflicted) {
		add_conflicts(sb, &m, porcelain);
		v = CONFLICTS;
		goto out;
	}

	merge_diff(&cp, &m, NULL, porcelain ? numstat : numstat_stat);
	cp.out = &out;
	run_git_or_die(&cp);
	parse_numstat(&out, &clean, porcelain ? NULL : &clean_stat);
	stat_numstat_totals(&clean, &ct);
	if (porcelain) {
		strbuf_addf(sb, "clean %ld %ld %ld\n", ct.files, ct.insertions,
			    ct.deletions);
	} else {
		strbuf_addstr(sb, "clean diffstat:     ");
		add_totals(sb, &ct);
		strbuf_addch(sb, '\n');
	}
	match_rows(req, &clean, &mt);
	if (!mt.differences && same_totals(req, &ct)) {
		v = MATCHES;
		if (!porcelain)
			strbuf_addstr(sb, "verdict: matches: the request's "
				      "diffstat is what pulling it changes\n");
		goto out;
	}

	strbuf_reset(&out);
	request_pull_diff(&cp, p, bases.v[0], NULL, numstat);
	cp.out = &out;
	run_git_or_die(&cp);
	parse_numstat(&out, &rp, NULL);
	match_rows(req, &rp, &rpmt);
	stat_numstat_totals(&rp, &ct);
	if (!rpmt.differences && same_totals(req, &ct)) {
		v = MESSY;
		if (porcelain) {
			strbuf_addf(sb, "base %s\n", bases.v[0]);
			add_differences(sb, req, &clean, &mt, 1, 1);
			goto out;
		}
		commit_subject(bases.v[0], &desc);
		strbuf_addf(sb, "verdict: messy: the request's diffstat is git "
			    "request-pull's, from the merge base %.12s (",
			    bases.v[0]);
		quote_shown(sb, desc.buf, desc.len);
		strbuf_addstr(sb, ") alone; what pulling it changes is:\n");
		strbuf_add(sb, clean_stat.buf, clean_stat.len);
		goto out;
	}

	v = DIFFERS;
	if (!porcelain) {
		strbuf_addstr(sb, "verdict: differs: ");
		if (!strcmp(vf->how, "moved"))
			strbuf_addstr(sb, "the branch moved since the request");
		else if (clean.nr < (size_t)req->files ||
			 ct.insertions + ct.deletions <
			 req->insertions + req->deletions)
			strbuf_addf(sb, "'%s' already has some of these changes",
				    p->upstream.name);
		else
			strbuf_addstr(sb, "the request's diffstat is not "
				      "what pulling it changes");
		strbuf_addch(sb, '\n');
	}
	/* core.quotePath: asked only here, where paths are shown */
	add_differences(sb, req, &clean, &mt, porcelain,
			!porcelain && git_quote_path());

out:
	if (porcelain)
		strbuf_addf(sb, "verdict %s\n", verdict_name[v]);
	match_release(&mt);
	match_release(&rpmt);
	numstat_release(&clean);
	numstat_release(&rp);
	strbuf_release(&out);
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
	size_t nr = 1;

	add_str(&vf.url, &req->url);
	add_str(&vf.ref, &req->ref);
	add_str(&vf.want, &req->tip);
	/* untrusted: what is to be fetched is checked before anything runs */
	if (!opts->no_fetch &&
	    fetchgate_check(&no_rewrites, vf.url.buf, vf.ref.buf,
			    opts->allow_local, &fail->why))
		goto out;
	/*
	 * Beside resolve()'s rev-parse: whether the tip is in this
	 * repository, and (the first time) the receiver's configuration
	 * for the fetch.
	 */
	fetch_local_commit_cmd(&cp[0], vf.want.buf, &local);
	if (!settings_read++)
		fetch_settings_cmd(&cp[nr++], &config);
	resolve_beside(&vf.p, opts->upstream, opts->upstream, cps, rcs, nr);
	if (nr > 1)
		fetch_settings_parse(&settings, rcs[1], &config);

	if (!commit_found(rcs[0], &local, &vf.tip, &vf.subject)) {
		vf.how = "local";
	} else if (fetchgate_check(&settings.rewrites, vf.url.buf, vf.ref.buf,
				   opts->allow_local, &fail->why)) {
		;			/* refused */
	} else if (opts->no_fetch) {
		strbuf_addf(&fail->why, "the tip %s is not in this repository, "
			    "and --no-fetch forbids fetching '%s' from '%s'",
			    vf.want.buf, vf.ref.len ? vf.ref.buf : "HEAD",
			    vf.url.buf);
	} else {
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
		v = report(&vf, sb);
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

/*
 * What the finder undid or found wrong in the request's text, one note
 * a line before its report, which starts in sb at `at`; or a "damage"
 * record after the report's first record (its "message <n>").
 */
static void add_damage_notes(struct strbuf *sb, size_t at,
			     const struct pullreq *req, int porcelain)
{
	static const char *const what[] = {
		"spaces", "Unicode spaces where git wrote spaces",
		"quoted", "the request is quoted or indented",
		"wrapped", "stat lines wrapped or joined by a mail client",
		"header", "a header line is not as git writes it",
		NULL
	};
	struct strbuf notes = STRBUF_INIT, rest = STRBUF_INIT;
	const char *nl;
	size_t i;

	for (i = 0; what[i]; i += 2)
		if (req->damage & (1u << (i / 2)))
			strbuf_addf(&notes, porcelain ? "damage %s\n" : "note: %s\n",
				    what[porcelain ? i : i + 1]);
	if (req->totals_missing)
		strbuf_addstr(&notes, porcelain ? "damage totals-missing\n" :
			      "note: the diffstat has no 'files changed' line: "
			      "its totals are counted from its rows\n");
	if (req->rows_uneven)
		strbuf_addstr(&notes, porcelain ? "damage rows-uneven\n" :
			      "note: the diffstat's rows do not add up to its "
			      "'files changed' line\n");
	if (req->rows_cut)
		strbuf_addstr(&notes, porcelain ? "damage cut\n" :
			      "note: the diffstat is cut short (' ...'): "
			      "it shows fewer rows than files\n");
	if (req->nr_extra_blocks)
		strbuf_addf(&notes, porcelain ? "damage extra-blocks %zu\n" :
			    "note: %zu more shortlog and diffstat after the "
			    "request's: not what pulling it brings\n",
			    req->nr_extra_blocks);
	if (!notes.len)
		return;
	if (porcelain && (nl = memchr(sb->buf + at, '\n', sb->len - at)))
		at = (size_t)(nl - sb->buf) + 1;
	strbuf_add(&rest, sb->buf + at, sb->len - at);
	strbuf_setlen(sb, at);
	strbuf_add(sb, notes.buf, notes.len);
	strbuf_add(sb, rest.buf, rest.len);
	strbuf_release(&notes);
	strbuf_release(&rest);
}

int verify(const struct options *opts)
{
	struct strbuf sb = STRBUF_INIT;
	struct pullmsg_list list = PULLMSG_LIST_INIT;
	struct failure fail = { STRBUF_INIT, STRBUF_INIT };
	size_t i, at, count[NR_VERDICTS] = { 0 }, nr = 0, done = 0;
	int status = 0;

	pullmsg_read(opts->verify_file, &list);
	if (!list.mbox && list.nr == 1 && list.msg[0].error)
		die("no pull request in the message: %s", list.msg[0].error);
	/* a request that cannot be read is one to report, not to skip */
	for (i = 0; i < list.nr; i++)
		nr += !list.msg[i].error || list.msg[i].telltale;
	if (!nr)
		die("no pull request in any of the %zu messages", list.nr);

	for (i = 0; i < list.nr; i++) {
		const struct pullmsg *msg = &list.msg[i];
		enum verdict v;

		if (msg->error && !msg->telltale)
			continue;
		if ((list.mbox || list.nr > 1) && !opts->porcelain) {
			if (done++)
				strbuf_addch(&sb, '\n');
			strbuf_addf(&sb, "message %zu: ", msg->number);
			quote_shown(&sb, msg->subject.s, msg->subject.len);
			if (msg->nr_requests > 1)
				strbuf_addf(&sb, " (request %zu of %zu)",
					    msg->request, msg->nr_requests);
			strbuf_addch(&sb, '\n');
		}
		at = sb.len;
		if (msg->error) {
			/* it looks like a request, but none can be read */
			strbuf_addf(&fail.why, "no pull request in message "
				    "%zu: %s", msg->number, msg->error);
			v = FAILED;
		} else {
			v = verify_one(opts, msg, &sb, &fail);
		}
		if (v == FAILED) {
			/* one message: as fatal as any other error */
			if (!list.mbox && list.nr == 1) {
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
		add_damage_notes(&sb, at, &msg->req, opts->porcelain);
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
	else if (list.mbox || list.nr > 1)
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
