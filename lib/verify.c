#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conflicts.h"
#include "fetchgate.h"
#include "merge.h"
#include "numstat.h"
#include "pullmsg.h"
#include "quarantine.h"
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

/*
 * Why a request could not be verified: one line (what a single message
 * dies with, what an mbox's report of it says), and what git said.
 */
struct failure {
	struct strbuf why, detail;
};

/* The scratch repository the tips are fetched into, in the quarantine. */
static struct strbuf scratch = STRBUF_INIT;
/* GIT_ALTERNATE_OBJECT_DIRECTORIES before the scratch objects joined it */
static struct strbuf user_alternates = STRBUF_INIT;

/*
 * The receiver's url.<base>.insteadOf, every scope, in the order git
 * reads them: what `git fetch <url>` in the repository rewrites the URL
 * with.  The scratch repository is another repository, which sees the
 * system, global and command-line ones but not the repository's own:
 * those ("local" and "worktree") are copied into its configuration, so
 * that its fetch rewrites as the repository's would.
 */
struct rewrite {
	const char *base, *prefix;
	size_t rank;			/* of the first entry with this base */
	int own;			/* the repository's own (local, worktree) */
};

static struct rewrite *rewrites;
static size_t nr_rewrites, alloc_rewrites;
static struct strbuf rewrites_buf = STRBUF_INIT;

/*
 * Prepare cp to read the rewrites, the first time only: 1 when it is to
 * run, and its status is then for parse_rewrites().
 */
static int rewrites_cmd(struct child_process *cp)
{
	static int done;

	if (done++)
		return 0;
	strvec_pushl(&cp->args, "config", "-z", "--show-scope", "--get-regexp",
		     "^url\\..*\\.insteadof$", NULL);
	cp->out = &rewrites_buf;
	cp->no_stderr = 1;
	return 1;
}

static void parse_rewrites(int rc)
{
	char *p, *end;

	if (rc) {			/* 1: there is none */
		strbuf_reset(&rewrites_buf);
		return;
	}
	/* <scope> NUL url.<base>.insteadof LF <prefix> NUL ... */
	for (p = rewrites_buf.buf, end = p + rewrites_buf.len; p < end;) {
		char *scope = p, *key, *value, *nl;
		size_t i, klen;

		key = memchr(p, '\0', (size_t)(end - p));
		if (!key)
			break;
		key++;
		value = memchr(key, '\0', (size_t)(end - key));
		if (!value)
			break;
		p = value + 1;
		nl = memchr(key, '\n', (size_t)(value - key));
		if (!nl)		/* no value: git fetch would die */
			continue;
		*nl = '\0';
		klen = strlen(key);
		if (klen < 14 || strncmp(key, "url.", 4))
			continue;
		key[klen - 10] = '\0';	/* ".insteadof" */
		ALLOC_GROW(rewrites, nr_rewrites + 1, alloc_rewrites);
		rewrites[nr_rewrites].base = key + 4;
		rewrites[nr_rewrites].prefix = nl + 1;
		rewrites[nr_rewrites].own = !strcmp(scope, "local") ||
					    !strcmp(scope, "worktree");
		for (i = 0; i < nr_rewrites; i++)
			if (!strcmp(rewrites[i].base, key + 4))
				break;
		rewrites[nr_rewrites].rank = i < nr_rewrites ? rewrites[i].rank : i;
		nr_rewrites++;
	}
}

/*
 * url rewritten as git's remote.c alias_url() does: the longest
 * insteadOf that is a prefix of it wins, among equals the base git
 * saw first.  NULL when none applies.
 */
static const struct rewrite *rewrite_of(const char *url)
{
	const struct rewrite *best = NULL;
	size_t i;

	for (i = 0; i < nr_rewrites; i++) {
		const struct rewrite *r = &rewrites[i];
		size_t len = strlen(r->prefix);

		if (strncmp(url, r->prefix, len))
			continue;
		if (!best || strlen(best->prefix) < len ||
		    (strlen(best->prefix) == len && r->rank < best->rank))
			best = r;
	}
	return best;
}

/* s as a value (or subsection) in double quotes, for a config file. */
static void config_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	fputc('"', f);
}

/* The repository's own insteadOf into the scratch repository's config. */
static void scratch_rewrites(void)
{
	struct strbuf path = STRBUF_INIT;
	FILE *f;
	size_t i;

	strbuf_addf(&path, "%s/config", scratch.buf);
	f = fopen(path.buf, "a");
	if (!f)
		die_errno("cannot open '%s'", path.buf);
	for (i = 0; i < nr_rewrites; i++) {
		if (!rewrites[i].own || strchr(rewrites[i].base, '\n'))
			continue;
		fputs("[url ", f);
		config_quoted(f, rewrites[i].base);
		fputs("]\n\tinsteadOf = ", f);
		config_quoted(f, rewrites[i].prefix);
		fputc('\n', f);
	}
	if (fclose(f))
		die_errno("cannot write '%s'", path.buf);
	strbuf_release(&path);
}

static void scratch_env(struct strvec *env, const char *objdir)
{
	strvec_pushf(env, "GIT_DIR=%s", scratch.buf);
	strvec_pushf(env, "GIT_OBJECT_DIRECTORY=%s/objects", scratch.buf);
	alternates_env(env, objdir);
}

/* Write the file path (under the scratch repository) with contents. */
static void scratch_file(const char *path, const char *contents)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&sb, "%s/%s", scratch.buf, path);
	f = fopen(sb.buf, "w");
	if (!f || fputs(contents, f) == EOF || fclose(f))
		die_errno("cannot write '%s'", sb.buf);
	strbuf_release(&sb);
}

/*
 * Make the scratch repository, and have every git we run from now on
 * read its objects.  It is made by hand, as git init --bare --template=
 * makes it (HEAD, config, objects/, refs/): a git less to run.
 */
static void scratch_create(const struct pull *p)
{
	static const char *const dirs[] = {
		"", "/objects", "/objects/info", "/objects/pack", "/refs",
		"/refs/heads", "/refs/tags"
	};
	struct strbuf alt = STRBUF_INIT, path = STRBUF_INIT;
	size_t i;

	if (scratch.len)
		return;
	quarantine_create();
	strbuf_addf(&scratch, "%s/fetch.git", quarantine_path());
	for (i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s%s", scratch.buf, dirs[i]);
		if (mkdir(path.buf, 0777))
			die_errno("cannot create '%s'", path.buf);
	}
	scratch_file("HEAD", "ref: refs/heads/main\n");
	scratch_file("config", p->upstream.oid.len == 64 ?
		     "[core]\n\trepositoryformatversion = 1\n\tbare = true\n"
		     "[extensions]\n\tobjectformat = sha256\n" :
		     "[core]\n\trepositoryformatversion = 0\n\tbare = true\n");
	scratch_rewrites();

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/objects", scratch.buf);
	alternates_list(&alt, path.buf);
	if (getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES"))
		strbuf_addstr(&user_alternates,
			      getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES"));
	if (setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", alt.buf, 1))
		die_errno("cannot set GIT_ALTERNATE_OBJECT_DIRECTORIES");
	strbuf_release(&alt);
	strbuf_release(&path);
}

/*
 * Prepare cp to find <spec>^{commit} in the repository, or (objdir: the
 * repository's objects) in the scratch one: its id and its subject, from
 * one git, into out for commit_id().  In the repository, without what
 * an earlier request of the mbox fetched: that is not the receiver's.
 */
static void commit_id_cmd(struct child_process *cp, const char *spec,
			  const char *objdir, struct strbuf *out)
{
	strvec_pushl(&cp->args, "log", "-1", "--no-walk", "--no-show-signature",
		     "--format=%H%n%s", "--end-of-options", NULL);
	strvec_pushf(&cp->args, "%s^{commit}", spec);
	if (objdir)
		scratch_env(&cp->env, objdir);
	else if (scratch.len)		/* empty: none, as when unset */
		strvec_pushf(&cp->env, "GIT_ALTERNATE_OBJECT_DIRECTORIES=%s",
			     user_alternates.buf);
	cp->out = out;
	cp->no_stderr = 1;
}

/* What commit_id_cmd() found (it exited rc): 0, the id and the subject. */
static int commit_id(int rc, const struct strbuf *out, struct strbuf *oid,
		     struct strbuf *subject)
{
	const char *nl = strchr(out->buf, '\n');

	strbuf_reset(oid);
	strbuf_reset(subject);
	if (rc || !nl)
		return -1;
	strbuf_add(oid, out->buf, (size_t)(nl - out->buf));
	strbuf_addstr(subject, nl + 1);
	strbuf_trim_newlines(subject);
	return 0;
}

/*
 * Is the ref (refs/clean-diffstat/<n>) that a fetch just set in the
 * scratch repository the commit want itself?  That repository keeps
 * its refs in files (made by hand, it has no refStorage extension) and
 * a fetch writes them loose: read it there, a git less.  Anything else
 * (a tag, a branch that moved, an abbreviated want) is for git log.
 */
static int fetched_want(const char *ref, const char *want)
{
	struct strbuf path = STRBUF_INIT;
	size_t len = strlen(want);
	char buf[72] = { 0 };
	size_t n = 0;
	FILE *f;

	strbuf_addf(&path, "%s/%s", scratch.buf, ref);
	f = fopen(path.buf, "r");
	if (f) {
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
	}
	strbuf_release(&path);
	return (len == 40 || len == 64) && n == len + 1 &&
	       !memcmp(buf, want, len) && buf[len] == '\n';
}

/*
 * A request, once its tip is known: what report() needs.  tip is the
 * commit that is merged, how says where it came from ("local",
 * "fetched", "moved"); when subject_later is set, report() asks git
 * log for the tip's subject along with other work.
 */
struct verifying {
	const struct options *opts;
	const struct pullmsg *msg;
	struct pull p;
	struct strbuf url, ref, want, tip, subject;
	const char *how;
	int subject_later;
};

static enum verdict report(struct verifying *vf, struct strbuf *sb);

/*
 * report() run ahead, on the request's own tip, while the fetch checks
 * what it received: git fetch's last step, a walk of every new object
 * (its connectivity check), takes as long as the merge and the diffs,
 * on one core, and the pack it checks is complete before it begins.
 * The report is used only when the fetch then succeeds and its ref
 * is that tip: the same commit, from the same objects, gives the same
 * report.  Else it is thrown away, and so is any error of the child
 * that made it: only what happens after the fetch is told.
 */
struct ahead {
	struct run_async *child;
	struct strbuf out, err;
};

/* In the child of run_fork(): the verdict's number, a newline, the report. */
static void report_ahead(void *data)
{
	struct strbuf sb = STRBUF_INIT;
	enum verdict v = report(data, &sb);

	printf("%d\n", (int)v);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

/* Can report() run ahead on the tip the request names?  A whole id. */
static int can_run_ahead(const struct verifying *vf)
{
	size_t i;

	if (vf->want.len != vf->p.upstream.oid.len)
		return 0;
	for (i = 0; i < vf->want.len; i++)
		if (!strchr("0123456789abcdef", vf->want.buf[i]))
			return 0;
	return 1;
}

/*
 * Has the fetch's pack arrived?  git index-pack names it pack-<id>.idx
 * last of all, once the pack is complete: after that, the fetch only
 * checks it and sets the ref.
 */
static int pack_arrived(void)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int found = 0;

	strbuf_addf(&path, "%s/objects/pack", scratch.buf);
	d = opendir(path.buf);
	while (d && !found && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		found = len > 9 && !strncmp(de->d_name, "pack-", 5) &&
			!strcmp(de->d_name + len - 4, ".idx");
	}
	if (d)
		closedir(d);
	strbuf_release(&path);
	return found;
}

static void run_ahead(struct verifying *vf, struct ahead *ahead)
{
	/* what the child sees: the tip fetched as the request says */
	strbuf_reset(&vf->tip);
	strbuf_addstr(&vf->tip, vf->want.buf);
	vf->how = "fetched";
	vf->subject_later = 1;
	ahead->child = run_fork(report_ahead, vf, &ahead->out, &ahead->err);
	strbuf_reset(&vf->tip);
	vf->how = NULL;
	vf->subject_later = 0;
}

/*
 * The report run ahead, when the fetch brought the tip it was made for
 * and it was made: its verdict, its report into sb, and what it said
 * on stderr passed on.  Else the child is forgotten, and -1.
 */
static int use_ahead(struct ahead *ahead, const struct verifying *vf,
		     struct strbuf *sb)
{
	char *end;
	long v;

	if (!ahead->child)
		return -1;
	if (!vf->how || strcmp(vf->how, "fetched") ||
	    strcmp(vf->tip.buf, vf->want.buf)) {
		run_git_abandon(ahead->child);
		ahead->child = NULL;
		return -1;
	}
	v = run_git_finish(ahead->child) ? -1 : strtol(ahead->out.buf, &end, 10);
	ahead->child = NULL;
	if (v < 0 || v >= FAILED || end == ahead->out.buf || *end != '\n')
		return -1;
	fwrite(ahead->err.buf, 1, ahead->err.len, stderr);
	strbuf_addstr(sb, end + 1);
	return (int)v;
}

/*
 * git fetch <url> <ref> into the scratch repository, as the ref
 * refs/clean-diffstat/<n>; the commit it names (a tag peeled) into
 * vf->tip.  When that is the request's tip itself, its subject is left
 * for report(): vf->subject_later is set.  While the fetch checks its
 * pack, report() runs ahead (struct ahead).  On failure, -1 and why.
 */
static int fetch_tip(struct verifying *vf, struct ahead *ahead,
		     struct failure *fail)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf dst = STRBUF_INIT;
	const char *url = vf->url.buf, *ref = vf->ref.len ? vf->ref.buf : "HEAD";
	struct run_async *fetch;
	int rc;

	scratch_create(&vf->p);
	strbuf_addf(&dst, "refs/clean-diffstat/%zu", vf->msg->number);
	/*
	 * A pack even of one object: what run_ahead() waits for.  No
	 * fsync of it: it goes away with the quarantine.
	 */
	strvec_pushl(&cp.args, "-c", "gc.auto=0", "-c", "maintenance.auto=false",
		     "-c", "fetch.writeCommitGraph=false",
		     "-c", "fetch.unpackLimit=1", "-c", "core.fsync=none",
		     "-c", "core.hooksPath=/dev/null", "fetch", "-q",
		     "--no-tags", "--no-write-fetch-head",
		     "--no-recurse-submodules", "--end-of-options", url, NULL);
	strvec_pushf(&cp.args, "+%s:%s", ref, dst.buf);
	scratch_env(&cp.env, vf->p.objdir.buf);
	strvec_pushf(&cp.env, "GIT_ALLOW_PROTOCOL=https:http:git:ssh%s",
		     vf->opts->allow_local ? ":file" : "");
	strvec_push(&cp.env, "GIT_TERMINAL_PROMPT=0");
	cp.err = &fail->detail;
	fetch = run_git_start(&cp);
	if (can_run_ahead(vf))
		while (!run_git_wait(fetch, 2))
			if (pack_arrived()) {
				run_ahead(vf, ahead);
				break;
			}
	rc = run_git_finish(fetch);
	strbuf_trim_newlines(&fail->detail);
	if (rc)
		strbuf_addf(&fail->why, "cannot fetch '%s' from '%s'", ref, url);
	if (!rc && fetched_want(dst.buf, vf->want.buf)) {
		strbuf_reset(&vf->tip);
		strbuf_addstr(&vf->tip, vf->want.buf);
		vf->subject_later = 1;
	} else if (!rc) {
		struct strbuf out = STRBUF_INIT;

		commit_id_cmd(&cp, dst.buf, vf->p.objdir.buf, &out);
		if (commit_id(run_git(&cp), &out, &vf->tip, &vf->subject))
			strbuf_addf(&fail->why, "'%s' at '%s' is no commit",
				    ref, url);
		strbuf_release(&out);
	}
	strbuf_release(&dst);
	return fail->why.len ? -1 : 0;
}

static void add_totals(struct strbuf *sb, const struct stat_totals *t)
{
	char line[STAT_TOTALS_MAX];

	strbuf_addstr(sb, stat_totals_line(line, t));
}

/*
 * The request's rows matched with the files of a numstat: file_of[i]
 * is the file of row i (or -1), used[j] whether file j has a row.
 */
struct match {
	long *file_of;
	char *used;
	size_t differences;
};

static int same_numbers(const struct stat_row *r, const struct numstat_file *f)
{
	if (r->kind == STAT_ROW_BINARY)
		return f->added < 0;
	if (r->kind == STAT_ROW_TEXT)
		return f->added >= 0 && r->changes == f->added + f->deleted;
	return 0;
}

static void match_rows(const struct pullreq *req,
		       const struct numstat *ns, struct match *mt)
{
	size_t i, j;
	int pass;

	mt->file_of = xmalloc((req->nr_rows + 1) * sizeof(*mt->file_of));
	mt->used = xmalloc(ns->nr + 1);
	memset(mt->used, 0, ns->nr + 1);
	for (i = 0; i < req->nr_rows; i++)
		mt->file_of[i] = -1;
	/*
	 * Whole names first, then abbreviated ones, each taking the first
	 * free file it stands for, one with the same numbers if it can.
	 */
	for (pass = 0; pass < 4; pass++)
		for (i = 0; i < req->nr_rows; i++) {
			const struct stat_row *r = &req->row[i];

			if (mt->file_of[i] >= 0 || r->abbreviated != pass / 2)
				continue;
			for (j = 0; j < ns->nr; j++) {
				const struct numstat_file *f = &ns->file[j];
				enum stat_match how;

				if (mt->used[j] ||
				    (pass % 2 == 0 && !same_numbers(r, f)))
					continue;
				how = stat_name_matches(r->name.s, r->name.len,
							f->path, f->path_len,
							f->from,
							f->from ? f->from_len : 0);
				if (how == STAT_NO_MATCH)
					continue;
				mt->file_of[i] = (long)j;
				mt->used[j] = 1;
				break;
			}
		}
	mt->differences = 0;
	for (i = 0; i < req->nr_rows; i++)
		if (mt->file_of[i] < 0 ||
		    !same_numbers(&req->row[i], &ns->file[mt->file_of[i]]))
			mt->differences++;
	for (j = 0; j < ns->nr; j++)
		if (!mt->used[j] && !req->rows_cut)
			mt->differences++;
}

static void match_release(struct match *mt)
{
	free(mt->file_of);
	free(mt->used);
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
		add_str(sb, &req->row[i].name);
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
		if (same_numbers(&req->row[i], f))
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

/* Prepare cp to give the subject of the merge base base into out. */
static void base_subject_cmd(struct child_process *cp, const char *base,
			     struct strbuf *out)
{
	strvec_pushl(&cp->args, "log", "-1", "--no-show-signature",
		     "--format=%s", "--end-of-options", base, NULL);
	cp->out = out;
}

/*
 * Prepare cp to give, from one git, "<id>\n<subject>\n" for the tip
 * (when tip is not NULL: first, a fetched one read from the scratch
 * repository) and for the merge base base (when not NULL), into out.
 */
static void subjects_cmd(struct child_process *cp, const char *tip,
			 const char *base, const char *objdir,
			 struct strbuf *out)
{
	strvec_pushl(&cp->args, "log", "--no-walk=unsorted",
		     "--no-show-signature", "--format=%H%n%s",
		     "--end-of-options", NULL);
	if (tip)
		strvec_pushf(&cp->args, "%s^{commit}", tip);
	if (base)
		strvec_push(&cp->args, base);
	if (tip && objdir)
		scratch_env(&cp->env, objdir);
	cp->out = out;
}

/*
 * A subject from subjects_cmd()'s output: the first one (id NULL), or
 * that of the commit id.  0, or -1 when there is none.
 */
static int subject_of(const struct strbuf *out, const char *id,
		      struct strbuf *subject)
{
	const char *p = out->buf, *nl, *end;

	while ((nl = strchr(p, '\n'))) {
		end = strchr(nl + 1, '\n');
		if (!end)
			return -1;
		if (!id || ((size_t)(nl - p) == strlen(id) &&
			    !memcmp(p, id, strlen(id)))) {
			strbuf_reset(subject);
			strbuf_add(subject, nl + 1, (size_t)(end - nl - 1));
			return 0;
		}
		p = end + 1;
	}
	return -1;
}


/*
 * Merge vf's tip into the upstream, compare, and write the report into
 * sb: the verdict.
 */
static enum verdict report(struct verifying *vf, struct strbuf *sb)
{
	static const char *const numstat[] = { "--numstat", "-z", NULL };
	/* the clean diffstat a messy report prints, from the same diff */
	static const char *const numstat_stat[] = {
		"--numstat", "-z", "--stat", "--summary", NULL
	};
	const struct pullreq *req = &vf->msg->req;
	struct pull *p = &vf->p;
	struct strbuf *url = &vf->url, *ref = &vf->ref, *want = &vf->want;
	struct strbuf *tip = &vf->tip, *subject = &vf->subject;
	const char *how = vf->how;
	struct strbuf desc = STRBUF_INIT, subjects = STRBUF_INIT;
	struct strbuf clean_out = STRBUF_INIT, rp_out = STRBUF_INIT;
	struct strbuf clean_stat = STRBUF_INIT;
	struct numstat clean = NUMSTAT_INIT, rp = NUMSTAT_INIT;
	struct child_process cp[3] = {
		CHILD_PROCESS_INIT, CHILD_PROCESS_INIT, CHILD_PROCESS_INIT
	};
	struct child_process *cps[3] = { &cp[0], &cp[1], &cp[2] };
	struct strvec bases = STRVEC_INIT;
	struct match mt = { NULL, NULL, 0 }, rpmt = { NULL, NULL, 0 };
	struct stat_totals ct;
	struct merge m;
	enum verdict v;
	int porcelain = vf->opts->porcelain;
	struct strbuf rp_err = STRBUF_INIT;
	struct child_process spec = CHILD_PROCESS_INIT;
	struct run_async *rp_async = NULL;
	size_t nr, described = 0;

	/* <upstream> as resolved, and the tip: no second rev-parse */
	p->head.name = tip->buf;
	strbuf_reset(&p->head.oid);
	strbuf_addstr(&p->head.oid, tip->buf);

	/*
	 * Several merge bases make a messy request likely: the diff its
	 * verdict needs, git request-pull's from the first, then runs while
	 * the merge does, on the other core, and is abandoned when the
	 * verdict does not need it.
	 */
	merge_start(&m, p, 0, &bases);
	if (bases.nr > 1) {
		request_pull_diff(&spec, p, bases.v[0], NULL, numstat);
		spec.out = &rp_out;
		spec.err = &rp_err;
		rp_async = run_git_start(&spec);
	}
	merge_finish(&m);

	/*
	 * Then, at once: the clean diff; beside it, from one git log, the
	 * subject of a fetched tip and that of the merge base when several
	 * make a messy request likely, for the report.
	 */
	nr = 0;
	if (!m.conflicted) {
		merge_diff(&cp[0], &m, NULL, porcelain ? numstat : numstat_stat);
		cp[0].out = &clean_out;
		cps[nr++] = &cp[0];
		/* likely messy: a report then names the base */
		described = bases.nr > 1 && !porcelain;
	}
	if ((vf->subject_later && !porcelain) || described) {
		subjects_cmd(&cp[1], vf->subject_later && !porcelain ?
			     tip->buf : NULL, described ? bases.v[0] : NULL,
			     p->objdir.buf, &subjects);
		cps[nr++] = &cp[1];
	}
	run_git_all_or_die(cps, nr);
	if (vf->subject_later && !porcelain &&
	    subject_of(&subjects, NULL, subject))
		die("git log gave no subject for %s", tip->buf);
	if (described && subject_of(&subjects, bases.v[0], &desc))
		die("git log gave no subject for %s", bases.v[0]);

	if (porcelain) {
		strbuf_addf(sb, "message %zu\nurl ", vf->msg->number);
		quote_c_style(sb, url->buf, url->len, 1);
		strbuf_addstr(sb, "\nref ");
		quote_c_style(sb, ref->buf, ref->len, 1);
		strbuf_addf(sb, "\ntip %s %s %s\n", want->buf, tip->buf, how);
		strbuf_addf(sb, "request %ld %ld %ld\n", req->files,
			    req->insertions, req->deletions);
	} else {
		strbuf_addf(sb, "pull request: %s%s%s\n", url->buf,
			    ref->len ? " " : "", ref->buf);
		strbuf_addf(sb, "tip: %s ", tip->buf);
		quote_shown(sb, subject->buf, subject->len);
		strbuf_addch(sb, '\n');
		if (!strcmp(how, "local"))
			strbuf_addstr(sb, "the tip is in this repository\n");
		else if (!strcmp(how, "fetched"))
			strbuf_addstr(sb, "fetched: the tip is the request's\n");
		else
			strbuf_addf(sb, "the branch moved since the request: it "
				    "asks for %s, the branch is at %s\n",
				    want->buf, tip->buf);
		strbuf_addstr(sb, "request's diffstat: ");
		add_totals(sb, &(struct stat_totals){ req->files,
						      req->insertions,
						      req->deletions });
		strbuf_addch(sb, '\n');
	}

	if (m.conflicted) {
		if (porcelain) {
			size_t i;

			for (i = 0; i < m.res.nr_entries; i++) {
				strbuf_addstr(sb, "conflict ");
				quote_c_style(sb, m.res.entries[i].path.s,
					      m.res.entries[i].path.len, 1);
				strbuf_addch(sb, '\n');
			}
		} else {
			strbuf_addf(sb, "verdict: conflicts: merging it into "
				    "'%s' conflicts:\n", p->upstream.name);
			conflict_lines(sb, &m.res);
		}
		v = CONFLICTS;
		goto out;
	}

	parse_numstat(&clean_out, &clean, porcelain ? NULL : &clean_stat);
	stat_numstat_totals(&clean, &ct);
	if (porcelain) {
		strbuf_addf(sb, "clean %ld %ld %ld\n", ct.files,
			    ct.insertions, ct.deletions);
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

	nr = 0;
	if (rp_async) {
		int rc = run_git_finish(rp_async);

		rp_async = NULL;
		if (rc)
			die_with_git("git diff", rc, &rp_err);
	} else {
		request_pull_diff(&cp[1], p, bases.v[0], NULL, numstat);
		cp[1].out = &rp_out;
		cps[nr++] = &cp[1];
	}
	if (!porcelain && !described) {
		base_subject_cmd(&cp[2], bases.v[0], &desc);
		cps[nr++] = &cp[2];
	}
	run_git_all_or_die(cps, nr);
	parse_numstat(&rp_out, &rp, NULL);
	match_rows(req, &rp, &rpmt);
	stat_numstat_totals(&rp, &ct);
	if (!rpmt.differences && same_totals(req, &ct)) {
		v = MESSY;
		if (porcelain) {
			strbuf_addf(sb, "base %s\n", bases.v[0]);
			add_differences(sb, req, &clean, &mt, 1, 1);
			goto out;
		}
		strbuf_trim_newlines(&desc);
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
		if (!strcmp(how, "moved"))
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
			!porcelain && quote_path_config());

out:
	run_git_abandon(rp_async);
	if (porcelain)
		strbuf_addf(sb, "verdict %s\n", verdict_name[v]);
	match_release(&mt);
	match_release(&rpmt);
	numstat_release(&clean);
	numstat_release(&rp);
	strbuf_release(&clean_out);
	strbuf_release(&clean_stat);
	strbuf_release(&rp_out);
	strvec_clear(&bases);
	merge_release(&m);
	strbuf_release(&desc);
	strbuf_release(&subjects);
	strbuf_release(&rp_err);
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
	struct ahead ahead = { NULL, STRBUF_INIT, STRBUF_INIT };
	struct strbuf local = STRBUF_INIT;
	struct child_process cp[2] = { CHILD_PROCESS_INIT, CHILD_PROCESS_INIT };
	struct child_process *cps[2] = { &cp[0], &cp[1] };
	const struct rewrite *rw;
	const char *why;
	enum verdict v = FAILED;
	int rcs[2], resolved = 0, ahead_v;
	size_t nr;

	add_str(&vf.url, &req->url);
	add_str(&vf.ref, &req->ref);
	add_str(&vf.want, &req->tip);
	/* untrusted: checked before anything runs */
	if (pullmsg_check_url(vf.url.buf, vf.url.len, opts->allow_local, NULL,
			      &why)) {
		strbuf_addstr(&fail->why, "refusing to fetch from ");
		quote_arg(&fail->why, vf.url.buf, vf.url.len);
		strbuf_addf(&fail->why, ": %s", why);
		goto out;
	}
	if (vf.ref.len && pullmsg_check_ref(vf.ref.buf, vf.ref.len, &why)) {
		strbuf_addstr(&fail->why, "refusing to fetch ");
		quote_arg(&fail->why, vf.ref.buf, vf.ref.len);
		strbuf_addf(&fail->why, ": %s", why);
		goto out;
	}
	/*
	 * Beside resolve()'s rev-parse: whether the tip is in this
	 * repository, and the receiver's url.<base>.insteadOf (the first
	 * time), which gives the URL the fetch would use.
	 */
	commit_id_cmd(&cp[0], vf.want.buf, NULL, &local);
	nr = 1 + (size_t)rewrites_cmd(&cp[1]);
	resolve_beside(&vf.p, opts->upstream, opts->upstream, cps, rcs, nr);
	resolved = 1;
	if (nr > 1)
		parse_rewrites(rcs[1]);
	if ((rw = rewrite_of(vf.url.buf))) {
		struct strbuf used = STRBUF_INIT;

		strbuf_addf(&used, "%s%s", rw->base,
			    vf.url.buf + strlen(rw->prefix));
		if (pullmsg_check_url(used.buf, used.len, opts->allow_local,
				      NULL, &why)) {
			strbuf_addstr(&fail->why, "refusing to fetch from ");
			quote_arg(&fail->why, used.buf, used.len);
			strbuf_addstr(&fail->why, " (url.");
			quote_shown(&fail->why, rw->base, strlen(rw->base));
			strbuf_addf(&fail->why, ".insteadOf of '%s'): %s",
				    vf.url.buf, why);
		}
		strbuf_release(&used);
	}
	if (fail->why.len)
		;			/* refused: no tip */
	else if (!commit_id(rcs[0], &local, &vf.tip, &vf.subject))
		vf.how = "local";
	else if (opts->no_fetch)
		strbuf_addf(&fail->why, "the tip %s is not in this repository, "
			    "and --no-fetch forbids fetching '%s' from '%s'",
			    vf.want.buf, vf.ref.len ? vf.ref.buf : "HEAD",
			    vf.url.buf);
	else if (!fetch_tip(&vf, &ahead, fail))
		vf.how = strncmp(vf.tip.buf, vf.want.buf, vf.want.len) ?
			 "moved" : "fetched";
	if (!vf.how) {
		run_git_abandon(ahead.child);
		goto out;
	}
	ahead_v = use_ahead(&ahead, &vf, sb);
	v = ahead_v >= 0 ? (enum verdict)ahead_v : report(&vf, sb);
out:
	if (resolved)
		pull_release(&vf.p);
	strbuf_release(&local);
	strbuf_release(&ahead.out);
	strbuf_release(&ahead.err);
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
		fputs(sb.buf, stdout);
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
	pullmsg_release(&list);
	return status;
}
