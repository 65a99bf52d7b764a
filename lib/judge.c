// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "fetch.h"
#include "judge.h"
#include "quarantine.h"
#include "request-pull.h"
#include "resolve.h"
#include "run.h"

const char *const verdict_name[NR_VERDICTS] = {
	"matches", "messy", "differs", "conflicts", "error"
};

/*
 * Run cp, a git whose failure is this request's, not the whole run's:
 * 0, or -1 with why it failed (what: "git diff").
 */
static int run_or_fail(struct child_process *cp, const char *what,
		       struct strbuf *why)
{
	struct strbuf err = STRBUF_INIT;
	int rc;

	cp->err = &err;
	cp->err_max = 65536;
	rc = run_git(cp);
	cp->err = NULL;
	if (rc)
		run_reason(why, what, rc, &err);
	strbuf_release(&err);
	return rc ? -1 : 0;
}

/*
 * The diffs of a judgement, numstat records (-z) and, for the clean one
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
/* the same, but for the files changed in place (renames_diff()) */
static const char *const numstat_moved[] = {
	"-M", "--numstat", "-z", "--diff-filter=m", "--no-relative", NULL
};

/*
 * Run cp, a git diff --numstat -z, its output into out and its records
 * into ns: 0, or -1 with why it failed.  With stat, the diff also had
 * --stat --summary, which git prints after the records: stat gets that
 * text, which starts after the last NUL (each record ends with one).
 */
static int run_diff(struct child_process *cp, struct strbuf *out,
		    struct numstat *ns, struct strbuf *stat, struct strbuf *why)
{
	const char *err;
	size_t len;

	cp->out = out;
	if (run_or_fail(cp, "git diff", why))
		return -1;
	len = out->len;
	if (stat) {
		while (len && out->buf[len - 1])
			len--;
		strbuf_add(stat, out->buf + len, out->len - len);
	}
	if (numstat_parse(out->buf, len, ns, &err))
		die("cannot parse the output of git diff --numstat: %s", err);
	return 0;
}

/* A diff of the merge, into run_diff()'s out, ns and stat. */
static int diff_merge(const struct merge *m, const char *const *format,
		      struct strbuf *out, struct numstat *ns,
		      struct strbuf *stat, struct strbuf *why)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	merge_diff(&cp, m, NULL, format);
	return run_diff(&cp, out, ns, stat, why);
}

/* git's order of a diff's files: by the path each ends up at */
static int cmp_path(const void *a, const void *b)
{
	const struct numstat_file *x = a, *y = b;
	size_t n = x->path_len < y->path_len ? x->path_len : y->path_len;
	int c = memcmp(x->path, y->path, n);

	return c ? c : (x->path_len > y->path_len) - (x->path_len < y->path_len);
}

/*
 * Every path ns names, where a file ends up or as a rename's source,
 * as records of their own sorted by cmp_path(), for bsearch().
 */
static struct numstat_file *paths_of(const struct numstat *ns, size_t *nr)
{
	struct numstat_file *v = xmalloc((2 * ns->nr + 1) * sizeof(*v));
	size_t i;

	*nr = 0;
	for (i = 0; i < ns->nr; i++) {
		v[(*nr)++] = ns->file[i];
		if (ns->file[i].from) {
			v[*nr] = ns->file[i];
			v[*nr].path = ns->file[i].from;
			v[(*nr)++].path_len = ns->file[i].from_len;
		}
	}
	qsort(v, *nr, sizeof(*v), cmp_path);
	return v;
}

/*
 * The clean diff with renames only (-M), as git request-pull finds
 * them, into ns, its text into out: without a second diff of every
 * file.  -C and -M differ only in how they pair the files created,
 * deleted or copied, never in a file changed in place: a -M diff
 * without those (--diff-filter=m) gives the rest, and the files the
 * clean diff (-C) has in place, not named there, are the same in both.
 * In git's order, by the path a file ends up at.  The copies' -M diff
 * of every file costs as much as the clean one (110 of 360 ms of CPU on
 * a request of 64 files); this one half of it.
 */
static int renames_diff(const struct judgement *j, struct strbuf *out,
			struct numstat *ns, struct strbuf *why)
{
	struct numstat moved = NUMSTAT_INIT;
	struct numstat_file *named;
	size_t i, nr_named;

	if (diff_merge(&j->merge, numstat_moved, out, &moved, NULL, why))
		return -1;
	named = paths_of(&moved, &nr_named);
	ns->file = xmalloc((j->clean.nr + moved.nr + 1) * sizeof(*ns->file));
	ns->nr = 0;
	for (i = 0; i < j->clean.nr; i++) {
		const struct numstat_file *f = &j->clean.file[i];

		if (!f->from && !bsearch(f, named, nr_named, sizeof(*named),
					 cmp_path))
			ns->file[ns->nr++] = *f;
	}
	for (i = 0; i < moved.nr; i++)
		ns->file[ns->nr++] = moved.file[i];
	qsort(ns->file, ns->nr, sizeof(*ns->file), cmp_path);
	free(named);
	numstat_release(&moved);
	return 0;
}

/* Does the request's diffstat give exactly the files and numbers of ns? */
static int request_is(const struct pullreq *req, const struct numstat *ns,
		      struct match *mt)
{
	const struct pullreq_block *b = &req->block;
	struct stat_totals t;

	match_rows(req, ns, mt);
	stat_numstat_totals(ns, &t);
	return !mt->differences && b->files == t.files &&
	       b->insertions == t.insertions && b->deletions == t.deletions;
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
				   struct strbuf *why)
{
	static const char *const algorithms[] = {
		"myers", "minimal", "patience", "histogram"
	};
	const char *found = NULL;
	size_t i, nr = sizeof(algorithms) / sizeof(*algorithms);

	for (i = 0; !found && !why->len && i < nr; i++) {
		struct strvec args = STRVEC_INIT;
		struct strbuf out = STRBUF_INIT;
		struct numstat ns = NUMSTAT_INIT;
		struct match mt = { NULL, NULL, 0 };
		size_t k;

		for (k = 0; format[k]; k++)
			strvec_push(&args, format[k]);
		strvec_pushf(&args, "--diff-algorithm=%s", algorithms[i]);
		if (!diff_merge(m, args.v, &out, &ns, NULL, why) &&
		    request_is(req, &ns, &mt))
			found = algorithms[i];
		match_release(&mt);
		numstat_release(&ns);
		strbuf_release(&out);
		strvec_clear(&args);
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

/* git merge-base --is-ancestor <since> <tip>: the "since" commit checked */
static void since_cmd(struct child_process *cp, const char *since,
		      const struct verifying *vf)
{
	strvec_pushl(&cp->args, "merge-base", "--is-ancestor",
		     "--end-of-options", since, vf->tip.buf, NULL);
	cp->no_stderr = 1;
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
	/* with conflicts, only the tips' merges: no count of its own */
	size_t i, first = conflicts ? 1 : 0, nr = vf->nr_earlier + 1;
	struct child_process *cps = xmalloc(nr * sizeof(*cps));
	struct child_process **p = xmalloc(nr * sizeof(struct child_process *));
	struct strbuf *out = xmalloc(nr * sizeof(*out));
	struct strvec env = STRVEC_INIT;
	int *rcs = xmalloc(nr * sizeof(*rcs));

	quarantine_env(&env, vf->p.objdir.buf);
	for (i = first; i < nr; i++) {
		const char *other = i ? vf->earlier[i - 1].tip : NULL;

		strbuf_init(&out[i]);
		cps[i] = (struct child_process)CHILD_PROCESS_INIT;
		p[i] = &cps[i];
		cps[i].out = &out[i];
		cps[i].no_stderr = 1;
		if (conflicts) {
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
	run_git_all(p + first, rcs + first, nr - first);
	for (i = 1; i < nr; i++)
		if (conflicts ? rcs[i] == 1 :
		    !rcs[0] && !rcs[i] &&
		    strtol(out[i].buf, NULL, 10) < strtol(out[0].buf, NULL, 10))
			strvec_pushf(numbers, "%zu", vf->earlier[i - 1].number);
	for (i = first; i < nr; i++)
		strbuf_release(&out[i]);
	strvec_clear(&env);
	free(cps);
	free(p);
	free(out);
	free(rcs);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The one walk of a request's history: git rev-list --boundary of
 * <upstream>..<tip>, a line a commit, "<mark><id> <tree> <subject>",
 * the mark '>' for a commit pulling brings and '-' for a boundary commit
 * (one <upstream> has, a parent of one it brings).  It answers, before
 * any merge: is the tip merged already (no commit to bring), are the
 * histories unrelated (commits, but no boundary), does git merge
 * fast-forward (<upstream> itself is a boundary commit: the merged tree
 * is the tip's), which subjects does pulling bring (for the shortlog),
 * and, most often, is the request's "since" commit an ancestor of the
 * tip (it is when the walk met it).
 *
 * When the tip is not looked up yet (--no-fetch), the walk starts from
 * the mail's "up to" commit, <want>^{commit}, with --ignore-missing:
 * its first commit is the tip, which it proves is here, with its
 * subject.  Only a walk that shows none (the tip merged, or not here)
 * needs a git of its own to tell which (find_tip()).
 */
struct walk {
	struct strbuf out;		/* what it printed, a line a string */
	struct strvec pulled;		/* the subjects it brings, sorted */
	long nr;			/* how many commits it brings */
	int boundary;			/* some commit of <upstream> met */
	int fast_forward;		/* <upstream> itself met */
	int since_met;			/* the "since" commit met */
	struct strbuf tree;		/* its first commit's */
};

#define WALK_INIT { STRBUF_INIT, STRVEC_INIT, 0, 0, 0, 0, STRBUF_INIT }

static void walk_release(struct walk *w)
{
	strbuf_release(&w->out);
	strvec_clear(&w->pulled);
	strbuf_release(&w->tree);
}

/*
 * The walk of the tip less what commit not has (the one walk: not is
 * <upstream>); with ignore_missing, a tip that is not here walks none.
 */
static void walk_cmd(struct child_process *cp, const struct verifying *vf,
		     const char *not, int ignore_missing)
{
	strvec_pushl(&cp->args, "rev-list", "--boundary", "--no-commit-header",
		     "--format=%m%H %T %s", NULL);
	if (ignore_missing)
		strvec_push(&cp->args, "--ignore-missing");
	strvec_push(&cp->args, "--end-of-options");
	strvec_pushf(&cp->args, "^%s", not);
	if (vf->tip.len)
		strvec_push(&cp->args, vf->tip.buf);
	else
		strvec_pushf(&cp->args, "%s^{commit}", vf->want.buf);
}

/*
 * What walk_cmd()'s git said (w->out, its lines cut there) into w, and
 * the tip and its subject into vf when it was not known: the first
 * commit.
 */
static void walk_parse(const char *since, struct verifying *vf, struct walk *w)
{
	const struct strbuf *upstream = &vf->p.upstream.oid;
	size_t hexlen = upstream->len;
	char *line, *nl, *subject;

	for (line = w->out.buf; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		if (strlen(line) < 2 * hexlen + 3 || line[hexlen + 1] != ' ' ||
		    line[2 * hexlen + 2] != ' ')
			continue;
		subject = line + 2 * hexlen + 3;
		if (*since && !strncmp(line + 1, since, hexlen) && !since[hexlen])
			w->since_met = 1;
		if (*line == '-') {
			w->boundary = 1;
			w->fast_forward |= !memcmp(line + 1, upstream->buf, hexlen);
			continue;
		}
		if (!w->nr++) {
			strbuf_add(&w->tree, line + hexlen + 2, hexlen);
			if (!vf->tip.len) {
				strbuf_add(&vf->tip, line + 1, hexlen);
				strbuf_addstr(&vf->subject, subject);
			}
		}
		strvec_push(&w->pulled, subject);
	}
	if (w->pulled.nr)
		qsort(w->pulled.v, w->pulled.nr, sizeof(*w->pulled.v), cmp_str);
}

/*
 * The subject of commit id, as the walk printed it.  A merge base of
 * <upstream> and a tip it has not merged is always there: the commits
 * between it and the tip are pulled, so it is a boundary commit (or,
 * where clock skew made the walk stop short, a pulled one).
 */
static const char *walk_subject(const struct walk *w, const char *id)
{
	const char *line = w->out.buf, *end = w->out.buf + w->out.len;
	size_t hexlen = strlen(id), len;

	for (; line < end; line += len + 1) {
		len = strlen(line);
		if (len > 2 * hexlen + 2 && !memcmp(line + 1, id, hexlen) &&
		    line[hexlen + 1] == ' ')
			return line + 2 * hexlen + 3;
	}
	return "";
}

/*
 * The tip, when the walk from the mail's "up to" commit showed none:
 * merged already, or not here.  A second walk from that commit, of what
 * the request's "since" commit lacks, gives it (its first commit), and
 * meets "since" when that is its ancestor (the commits between them are
 * shown): w->since_met, as if the first walk had.  git log -1 finds the
 * tip where that walk cannot: no "since" (or an abbreviated one),
 * "since" the tip, either not here.  0, or -1 with j->tip_missing when
 * the tip is not here.
 */
static int find_tip(struct verifying *vf, struct judgement *j, struct walk *w)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct walk from_since = WALK_INIT;
	int rc;

	if (is_oid(j->since.buf, j->since.len)) {
		walk_cmd(&cp, vf, j->since.buf, 0);
		cp.out = &from_since.out;
		cp.no_stderr = 1;
		if (!run_git(&cp))
			walk_parse(j->since.buf, vf, &from_since);
		w->since_met = from_since.since_met;
		walk_release(&from_since);
		if (vf->tip.len)
			return 0;
	}
	fetch_local_commit_cmd(&cp, vf->want.buf, &out);
	rc = commit_found(run_git(&cp), &out, &vf->tip, &vf->subject);
	j->tip_missing = !!rc;
	strbuf_release(&out);
	return rc;
}

/*
 * How many of the commits a shortlog block of the mail lists pulling
 * the tip does not bring: their subjects not among pulled.
 */
static long foreign_commits(const struct pullreq_block *b,
			    const struct strvec *pulled)
{
	struct strbuf subject = STRBUF_INIT;
	size_t a, k;
	long n = 0;

	for (a = 0; a < b->nr_authors; a++)
		for (k = 0; k < b->author[a].nr_subjects; k++) {
			const struct str *s = &b->author[a].subject[k];
			const char *key;

			strbuf_reset(&subject);
			strbuf_add(&subject, s->s, s->len);
			key = subject.buf;
			n += !pulled->nr ||
			     !bsearch(&key, pulled->v, pulled->nr,
				      sizeof(*pulled->v), cmp_str);
		}
	strbuf_release(&subject);
	return n;
}

/*
 * The one walk (walk_cmd()) into w, and the tip when it was not known,
 * then, unless the walk found the tip merged already, the merge, the
 * "since" commit checked beside it when the walk did not meet it: 0,
 * or -1 with why it failed.
 */
static int judge_merge(struct verifying *vf, struct judgement *j,
		       struct walk *w)
{
	const struct pullreq *req = &vf->msg->req;
	struct pull *p = &vf->p;
	struct child_process log = CHILD_PROCESS_INIT;
	struct child_process beside = CHILD_PROCESS_INIT;
	struct child_process merging = CHILD_PROCESS_INIT, *cps[2];
	struct strvec bases = STRVEC_INIT;
	int rc = -1, rcs[2];
	size_t n = 0;

	/* first the one walk: a merged tip needs no merge */
	strbuf_add(&j->since, req->base.s, req->base.len);
	/* the mail's tip: not here is the same as merged, told apart after */
	walk_cmd(&log, vf, vf->p.upstream.oid.buf, !vf->tip.len);
	log.out = &w->out;
	if (run_or_fail(&log, "git rev-list", &j->why))
		goto out;
	walk_parse(j->since.buf, vf, w);
	if (!vf->tip.len && find_tip(vf, j, w))
		goto out;
	/* <upstream> as resolved, and the tip: no second rev-parse */
	p->head.name = vf->tip.buf;
	strbuf_reset(&p->head.oid);
	strbuf_add(&p->head.oid, vf->tip.buf, vf->tip.len);
	j->merged = !w->nr;
	/* no boundary: merge.c says why (unrelated, or a shallow clone) */
	if (w->nr && !w->boundary && merge_bases(p, &bases, &j->why))
		goto out;
	/* a fast-forward needs no merge-tree; beside the merge, when the
	 * walk did not meet it: the "since" */
	if (!j->merged && w->fast_forward)
		merge_fast_forward(&j->merge, p, w->tree.buf);
	else if (!j->merged) {
		merge_cmd(&j->merge, p, 0, &merging);
		cps[n++] = &merging;
	}
	/* a request without a "since" line (pullreq.h) has none to check */
	if (!w->since_met && j->since.len) {
		since_cmd(&beside, j->since.buf, vf);
		cps[n++] = &beside;
	}
	run_git_all(cps, rcs, n);
	if (!w->since_met && j->since.len)
		j->since_rc = rcs[n - 1];
	if (!j->merged && !w->fast_forward &&
	    merge_result(&j->merge, rcs[0], &j->why))
		goto out;
	rc = 0;
out:
	strvec_clear(&bases);
	return rc;
}

/*
 * Is the request's diffstat git request-pull's, from the first merge
 * base (3.)?  1 with the base and its subject, from the walk w, 0, or
 * -1 with why a git failed.
 */
static int judge_messy(const struct verifying *vf, struct judgement *j,
		       const struct walk *w)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct strvec bases = STRVEC_INIT;
	struct numstat rp = NUMSTAT_INIT;
	struct match rpmt = { NULL, NULL, 0 };
	int rc = -1;

	/* merged: git request-pull's diffstat is as empty as the clean one */
	if (j->merged)
		return 0;
	if (merge_bases(&vf->p, &bases, &j->why))
		goto out;
	request_pull_diff(&cp, &vf->p, bases.v[0], NULL, numstat);
	if (run_diff(&cp, &out, &rp, NULL, &j->why))
		goto out;
	rc = request_is(&vf->msg->req, &rp, &rpmt);
	if (rc) {
		strbuf_addstr(&j->base, bases.v[0]);
		strbuf_addstr(&j->base_subject, walk_subject(w, bases.v[0]));
		j->nr_bases = bases.nr;
	}
out:
	match_release(&rpmt);
	numstat_release(&rp);
	strbuf_release(&out);
	strvec_clear(&bases);
	return rc;
}

/*
 * Why the request's diffstat differs (5.).  What only a person's report
 * says is looked for only for a person: the counts of commits, a git.
 */
static void judge_differs(const struct verifying *vf, struct judgement *j,
			  const struct walk *w)
{
	int porcelain = vf->opts->porcelain;
	long n;

	if (!strcmp(vf->how, "moved"))
		j->reason = WHY_MOVED;
	else if (j->merged)
		j->reason = WHY_MERGED;
	/* a script is told of them whatever the reason, a person when
	   they are it */
	if (vf->nr_earlier && (porcelain || j->reason == WHY_UNKNOWN))
		find_earlier(vf, 0, &j->earlier);
	if (j->reason == WHY_UNKNOWN && j->earlier.nr)
		j->reason = WHY_EARLIER;
	if (porcelain)
		return;
	if (j->reason == WHY_UNKNOWN && j->since.len) {
		n = count_commits(j->since.buf, vf->tip.buf);
		if (n > 0 && w->nr < n) {
			j->reason = WHY_UPSTREAM_HAS;
			j->commits = n;
			j->upstream_has = n - w->nr;
		}
	}
}

/*
 * The diffs of a merge that did not conflict, each only when the one
 * before did not give the request's diffstat (1. to 5.): the verdict.
 */
static enum verdict judge_diffs(struct verifying *vf, struct judgement *j,
				const struct walk *w)
{
	const struct pullreq *req = &vf->msg->req;
	struct strbuf out_m = STRBUF_INIT;
	struct numstat renames = NUMSTAT_INIT;
	struct match mmt = { NULL, NULL, 0 };
	enum verdict v = FAILED;
	int copies, messy;
	size_t i;

	/* merged: nothing to pull, every diff empty */
	if (!j->merged && diff_merge(&j->merge, numstat_stat, &j->clean_out,
				     &j->clean, &j->clean_stat, &j->why))
		goto out;
	stat_numstat_totals(&j->clean, &j->clean_totals);
	/* a shortlog pasted from another request, after the request's */
	for (i = 0; i < req->nr_extra_blocks; i++)
		j->foreign += foreign_commits(&req->extra[i], &w->pulled);
	if (j->foreign) {
		j->reason = WHY_FOREIGN;
		v = DIFFERS;
		goto out;
	}
	if (request_is(req, &j->clean, &j->match)) {
		v = MATCHES;
		goto out;
	}
	/*
	 * Without a copy, -M finds what -C found: no second diff.  A line
	 * of --summary starts " copy " for one (a --stat line of a file
	 * named "copy ..." too: that costs only a diff).
	 */
	copies = strstr(j->clean_stat.buf, "\n copy ") != NULL;
	if (copies && renames_diff(j, &out_m, &renames, &j->why))
		goto out;
	if (copies && request_is(req, &renames, &mmt)) {
		j->by = BY_RENAMES;
		v = MATCHES;
		goto out;
	}
	messy = judge_messy(vf, j, w);
	if (messy) {
		v = messy > 0 ? MESSY : FAILED;
		goto out;
	}
	if (same_files(req, &j->clean, &j->match))
		j->algorithm = other_algorithm(&j->merge, req, numstat, &j->why);
	else if (copies && same_files(req, &renames, &mmt))
		j->algorithm = other_algorithm(&j->merge, req, numstat_renames,
					       &j->why);
	if (j->why.len)
		goto out;
	if (j->algorithm) {
		j->by = BY_ALGORITHM;
		v = MATCHES;
		goto out;
	}
	v = DIFFERS;
	judge_differs(vf, j, w);
out:
	match_release(&mmt);
	numstat_release(&renames);
	strbuf_release(&out_m);
	return v;
}

void judge(struct verifying *vf, struct judgement *j)
{
	const struct pullreq *req = &vf->msg->req;
	const struct strbuf *tree;
	struct walk w = WALK_INIT;

	memset(j, 0, sizeof(*j));
	j->verdict = FAILED;
	strbuf_init(&j->why);
	strbuf_init(&j->since);
	j->earlier = (struct strvec)STRVEC_INIT;
	strbuf_init(&j->clean_out);
	j->clean = (struct numstat)NUMSTAT_INIT;
	strbuf_init(&j->base);
	strbuf_init(&j->base_subject);
	strbuf_init(&j->clean_stat);
	if (judge_merge(vf, j, &w))
		goto out;
	j->shortlog_foreign = foreign_commits(&req->block, &w.pulled);
	if (j->merge.conflicted) {
		if (vf->nr_earlier)
			find_earlier(vf, 1, &j->earlier);
		j->verdict = CONFLICTS;
		goto out;
	}
	j->verdict = judge_diffs(vf, j, &w);
	/* the tree pulling it makes: --in-order merges the next into it */
	tree = j->merged ? &vf->p.upstream_tree : &j->merge.tree;
	if (j->verdict != FAILED)
		strbuf_add(&vf->merged_tree, tree->buf, tree->len);
out:
	walk_release(&w);
}

void judgement_release(struct judgement *j)
{
	strbuf_release(&j->why);
	strbuf_release(&j->since);
	merge_release(&j->merge);
	strvec_clear(&j->earlier);
	numstat_release(&j->clean);
	strbuf_release(&j->clean_out);
	match_release(&j->match);
	strbuf_release(&j->base);
	strbuf_release(&j->base_subject);
	strbuf_release(&j->clean_stat);
}
