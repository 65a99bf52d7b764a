#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gitmodules.h"
#include "merge.h"
#include "quarantine.h"
#include "run.h"

void merge_init(struct merge *m, const char *upstream, const char *head,
		int allow_unrelated)
{
	memset(m, 0, sizeof(*m));
	m->default_upstream = !upstream;
	m->name[0] = upstream ? upstream : "@{upstream}";
	m->name[1] = head ? head : "HEAD";
	m->allow_unrelated = allow_unrelated;
	strbuf_init(&m->oid[0]);
	strbuf_init(&m->oid[1]);
	strbuf_init(&m->upstream_tree);
	strbuf_init(&m->objdir);
	strbuf_init(&m->prefix);
	strbuf_init(&m->output);
	strbuf_init(&m->tree);
	strbuf_init(&m->paths);
}

/* git's own reason, the first line of what it said less its "fatal: ". */
static const char *git_reason(struct strbuf *err)
{
	char *nl = strchr(err->buf, '\n');

	if (nl)
		strbuf_setlen(err, (size_t)(nl - err->buf));
	if (!strncmp(err->buf, "fatal: ", 7))
		return err->buf + 7;
	if (!strncmp(err->buf, "error: ", 7))
		return err->buf + 7;
	return err->buf;
}

static int is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return 0;
	return len == 40 || len == 64;
}

/*
 * Take the last line off the text from start to *end, which must end
 * with a newline: its length in *len, *end moved to its start.
 */
static const char *pop_line(const char *start, const char **end, size_t *len)
{
	const char *p = *end;

	if (p == start || p[-1] != '\n')
		return NULL;
	for (p--; p > start && p[-1] != '\n'; p--)
		;
	*len = (size_t)(*end - 1 - p);
	*end = p;
	return p;
}

/* The current directory, as git finds it: with symbolic links resolved. */
static int current_directory(struct strbuf *cwd)
{
	size_t size = 256;

	for (;;) {
		strbuf_grow(cwd, size);
		if (getcwd(cwd->buf, cwd->alloc)) {
			strbuf_setlen(cwd, strlen(cwd->buf));
			return 0;
		}
		if (errno != ERANGE)
			return -1;
		size *= 2;
	}
}

/*
 * Split "<objdir>\n<prefix>\n" (len bytes at s), either path with
 * newlines in it maybe.  The prefix is "" or the last components of
 * the current directory's path with a slash after them, and just one
 * of those ends the text after a newline: the one for a longer (or
 * shorter, but not empty) prefix would need a slash where the newline
 * before the prefix (or after it) is.
 */
static int split_paths(struct merge *m, const char *s, size_t len)
{
	struct strbuf cwd = STRBUF_INIT;
	size_t at;
	int rc = -1;

	if (current_directory(&cwd) || !cwd.len || cwd.buf[0] != '/')
		goto out;
	strbuf_addch(&cwd, '/');
	for (at = cwd.len; at; at--) {
		size_t n = cwd.len - at;	/* "" or "c/", "b/c/", ... */

		if (at < cwd.len && cwd.buf[at - 1] != '/')
			continue;
		if (len < n + 3 || s[len - 1] != '\n' || s[len - 2 - n] != '\n' ||
		    memcmp(s + len - 1 - n, cwd.buf + at, n) || s[0] != '/')
			continue;
		strbuf_add(&m->objdir, s, len - 2 - n);
		strbuf_add(&m->prefix, cwd.buf + at, n);
		rc = 0;
		break;
	}
out:
	strbuf_release(&cwd);
	return rc;
}

/*
 * git rev-parse --verify -q --end-of-options <spec>: 0 and the id in oid.
 * In English when english is set: git's reason then goes into a message
 * of ours, and git_reason() knows only its English "fatal: ".
 */
static int verify(const char *spec, struct strbuf *oid, struct strbuf *err,
		  int english)
{
	const char *argv[] = { "git", "rev-parse", "--verify", "-q",
			       "--end-of-options", spec, NULL };
	static const char *c_locale[] = { "LC_ALL=C", NULL };
	int rc;

	strbuf_reset(oid);
	strbuf_reset(err);
	rc = run_git(argv, english ? c_locale : NULL, oid, err);
	strbuf_trim_newlines(oid);
	return rc;
}

/*
 * The slow path for one revision: <name>^{commit}, else <name> peeled
 * in a second step (":/<regex>" takes a suffix into its regex), else
 * die saying why, as precisely as git can tell.
 */
static void resolve_one(const struct merge *m, int i, struct strbuf *oid)
{
	/* static: still reachable when die() exits, for leak checkers */
	static struct strbuf spec = STRBUF_INIT, raw = STRBUF_INIT,
			     err = STRBUF_INIT;
	int rc;

	strbuf_reset(&spec);
	strbuf_addf(&spec, "%s^{commit}", m->name[i]);
	rc = verify(spec.buf, oid, &err, i == 0 && m->default_upstream);
	if (!rc)
		return;
	if (i == 0 && m->default_upstream)
		die("%s; name the branch to be pulled into: "
		    "git clean-diffstat <upstream> [<head>]",
		    err.len ? git_reason(&err) : "no upstream configured");
	if (rc != 1)
		die_with_git("git rev-parse", rc, &err);
	if (verify(m->name[i], &raw, &err, 0))
		die("not a valid revision: '%s'", m->name[i]);
	strbuf_reset(&spec);
	strbuf_addf(&spec, "%s^{commit}", raw.buf);
	if (!verify(spec.buf, oid, &err, 0))
		return;
	{
		const char *type[] = { "git", "cat-file", "-t", raw.buf, NULL };

		strbuf_reset(&spec);
		if (run_git(type, NULL, &spec, &err))
			die("not a valid revision: '%s'", m->name[i]);
		strbuf_trim_newlines(&spec);
		die("'%s' is a %s, not a commit", m->name[i], spec.buf);
	}
}

/*
 * What one git rev-parse prints for the object directory, the prefix of
 * the current directory, and after --end-of-options the ids asked for
 * and "--"; 0 when the output is just that, with the ids in id[].  The
 * paths may have newlines in them: the rest is taken from the end.
 */
static int parse_resolution(struct merge *m, struct strbuf *out, int nr_ids,
			    struct strbuf **id)
{
	const char *end = out->buf + out->len, *line[3];
	size_t len[3], n;
	int i;

	if (!pop_line(out->buf, &end, &n) || n != 2 || memcmp(end, "--", 2))
		return -1;
	for (i = nr_ids - 1; i >= 0; i--) {
		line[i] = pop_line(out->buf, &end, &len[i]);
		if (!line[i] || !is_hex(line[i], len[i]))
			return -1;
	}
	if (!pop_line(out->buf, &end, &n) || n != strlen("--end-of-options") ||
	    memcmp(end, "--end-of-options", n) ||
	    split_paths(m, out->buf, (size_t)(end - out->buf)))
		return -1;
	for (i = 0; i < nr_ids; i++)
		strbuf_add(id[i], line[i], len[i]);
	return 0;
}

static int rev_parse(struct merge *m, const char *const *spec, int nr,
		     struct strbuf **id)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	int i, rc;

	strvec_push(&argv, "git");
	strvec_push(&argv, "rev-parse");
	strvec_push(&argv, "--path-format=absolute");
	strvec_push(&argv, "--git-path");
	strvec_push(&argv, "objects");
	strvec_push(&argv, "--show-prefix");
	strvec_push(&argv, "--end-of-options");
	for (i = 0; i < nr; i++)
		strvec_push(&argv, spec[i]);
	strvec_push(&argv, "--");
	rc = run_git(argv.v, NULL, &out, &err) ||
	     parse_resolution(m, &out, nr, id);
	strvec_clear(&argv);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}

/*
 * One git rev-parse gives the object directory, the current directory's
 * prefix, both commits and the upstream tree.  "--end-of-options" keeps
 * a revision spelled like an option from being taken as one, and the
 * final "--" keeps a revision from being taken as a file name.  When it
 * fails, each revision is tried on its own, to use it after all or to
 * say what is wrong with it.
 */
void merge_resolve(struct merge *m)
{
	struct strbuf spec[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf *id[3] = { &m->oid[0], &m->upstream_tree, &m->oid[1] };
	const char *v[3];
	int i;

	strbuf_addf(&spec[0], "%s^{commit}", m->name[0]);
	strbuf_addf(&spec[1], "%s^{tree}", m->name[0]);
	strbuf_addf(&spec[2], "%s^{commit}", m->name[1]);
	for (i = 0; i < 3; i++)
		v[i] = spec[i].buf;
	if (rev_parse(m, v, 3, id)) {
		for (i = 0; i < 3; i++)
			strbuf_reset(id[i]);
		strbuf_reset(&m->objdir);
		strbuf_reset(&m->prefix);
		resolve_one(m, 0, &m->oid[0]);
		resolve_one(m, 1, &m->oid[1]);
		strbuf_reset(&spec[1]);
		strbuf_addf(&spec[1], "%s^{tree}", m->oid[0].buf);
		v[0] = spec[1].buf;
		if (rev_parse(m, v, 1, &id[1]))
			die("cannot resolve '%s' and '%s' to two commits",
			    m->name[0], m->name[1]);
	}
	for (i = 0; i < 3; i++)
		strbuf_release(&spec[i]);
}

/* Is the git on PATH older than 2.38?  Then say so and stop. */
static void check_git_version(void)
{
	const char *argv[] = { "git", "version", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int major = 0, minor = 0;

	if (run_git(argv, NULL, &out, &err) ||
	    sscanf(out.buf, "git version %d.%d", &major, &minor) != 2)
		return;
	if (major < 2 || (major == 2 && minor < 38)) {
		strbuf_trim_newlines(&out);
		die("git clean-diffstat needs git 2.38 or later for "
		    "merge-tree --write-tree (found %s)",
		    out.buf + strlen("git version "));
	}
}

static int is_shallow(void)
{
	const char *argv[] = { "git", "rev-parse", "--is-shallow-repository", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	return !run_git(argv, NULL, &out, &err) &&
	       !strcmp(out.buf, "true\n");
}

/*
 * The path from the top of the work tree of rel, a path relative to
 * the directory prefix ("dir/sub/") as git's relative_path() writes it:
 * "../" to go up, "./" for the directory itself.
 */
static void path_from_top(struct strbuf *sb, const char *prefix,
			  const char *rel, size_t len)
{
	size_t keep = strlen(prefix);

	while (len >= 3 && !memcmp(rel, "../", 3)) {
		rel += 3;
		len -= 3;
		/* drop the last component of prefix[0..keep) */
		if (keep)
			keep--;
		while (keep && prefix[keep - 1] != '/')
			keep--;
	}
	if (len == 2 && !memcmp(rel, "./", 2)) {
		len = 0;
		if (keep)
			keep--;		/* the directory itself: no slash */
	}
	strbuf_add(sb, prefix, keep);
	strbuf_add(sb, rel, len);
}

/*
 * git merge-tree names its conflicted files relative to the current
 * directory, but its messages from the top: name them all from the top.
 */
static void entries_from_top(struct merge *m)
{
	size_t i, *at = xmalloc((m->res.nr_entries + 1) * sizeof(*at));

	for (i = 0; i < m->res.nr_entries; i++) {
		at[i] = m->paths.len;
		path_from_top(&m->paths, m->prefix.buf, m->res.entries[i].path.s,
			      m->res.entries[i].path.len);
	}
	for (i = 0; i < m->res.nr_entries; i++) {	/* the buffer has moved */
		m->res.entries[i].path.s = m->paths.buf + at[i];
		m->res.entries[i].path.len =
			(i + 1 < m->res.nr_entries ? at[i + 1] : m->paths.len) - at[i];
	}
	free(at);
}

/* The way up from the directory prefix ("a/b/") to the top ("../../"). */
static void cdup_of(struct strbuf *sb, const char *prefix)
{
	for (; *prefix; prefix++)
		if (*prefix == '/')
			strbuf_addstr(sb, "../");
}

/*
 * Have <upstream> and <head> no commit in common?  git merge-base then
 * exits 1, and git merge-tree refuses to merge them, in words of the
 * user's language that the tool cannot go by.
 */
static int no_merge_base(const struct merge *m)
{
	const char *argv[] = { "git", "merge-base", NULL, NULL, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int rc;

	argv[2] = m->oid[0].buf;
	argv[3] = m->oid[1].buf;
	rc = run_git(argv, NULL, &out, &err);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc == 1;
}

static NORETURN void die_unrelated(const struct merge *m)
{
	if (is_shallow()) {
		fprintf(stderr, "fatal: the merge base of '%s' and '%s' "
			"is missing from this shallow clone\n",
			m->name[0], m->name[1]);
		hint("deepen it with 'git fetch --deepen=<depth>'");
	} else {
		fputs("fatal: refusing to merge unrelated histories\n", stderr);
		hint("pass --allow-unrelated-histories to merge them all the "
		     "same");
	}
	exit(128);
}

/*
 * Merge in memory; a conflict is no failure (git merge-tree exits 1).
 */
void merge_run(struct merge *m)
{
	struct strbuf err = STRBUF_INIT, cdup = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT, merge_env = STRVEC_INIT;
	const char *why;
	int rc;

	strvec_push(&argv, "git");
	strvec_push(&argv, "merge-tree");
	strvec_push(&argv, "--write-tree");
	strvec_push(&argv, "-z");
	strvec_push(&argv, "--messages");
	quarantine_create();
	quarantine_env(&m->env, m->objdir.buf);
	strvec_pushv(&merge_env, m->env.v, m->env.nr);
	/*
	 * Attributes (merge drivers, text, eol) as the procedure has them:
	 * its merge runs in a checkout of <upstream>.  Git before 2.41 knows
	 * no GIT_ATTR_SOURCE and takes the work tree's.
	 */
	strvec_pushf(&merge_env, "GIT_ATTR_SOURCE=%s", m->oid[0].buf);
	if (m->allow_unrelated)
		strvec_push(&argv, "--allow-unrelated-histories");
	strvec_push(&argv, m->oid[0].buf);
	strvec_push(&argv, m->oid[1].buf);
	rc = run_git(argv.v, merge_env.v, &m->output, &err);
	strvec_clear(&merge_env);
	strvec_clear(&argv);

	if (rc == 129)
		check_git_version();
	if (rc != 0 && rc != 1 && !m->allow_unrelated && no_merge_base(m))
		die_unrelated(m);
	if ((rc != 0 && rc != 1) ||
	    (rc == 1 && !memchr(m->output.buf, '\0', m->output.len))) {
		/*
		 * It failed, or exited 1 with no tree: it could not merge at
		 * all ("not something we can merge" when a commit cannot be
		 * read).  Pass on what it and its merge drivers said.
		 */
		fwrite(m->output.buf, 1, m->output.len, stderr);
		die_with_git("git merge-tree", rc, &err);
	}
	if (mtree_parse(m->output.buf, m->output.len, m->oid[0].len, &m->res,
			&why))
		die("cannot parse the output of git merge-tree: %s", why);
	/* what merge drivers said on merge-tree's stdout: ours is the diff's */
	fwrite(m->res.prelude.s, 1, m->res.prelude.len, stderr);
	if (m->prefix.len)
		entries_from_top(m);
	strbuf_add(&m->tree, m->res.tree.s, m->res.tree.len);
	/* and the diff's as in the procedure's checkout of the merge */
	strvec_pushf(&m->env, "GIT_ATTR_SOURCE=%s", m->tree.buf);
	cdup_of(&cdup, m->prefix.buf);
	gitmodules_env(&m->env, m->tree.buf, cdup.buf);
	strbuf_release(&cdup);
	m->conflicted = rc;
	strbuf_release(&err);
}


int merge_nothing_to_pull(const struct merge *m)
{
	const char *argv[] = { "git", "merge-base", "--is-ancestor", NULL,
			       NULL, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int rc;

	/* only then can <head> be an ancestor: spare the walk otherwise */
	if (strcmp(m->tree.buf, m->upstream_tree.buf))
		return 0;
	argv[3] = m->oid[1].buf;
	argv[4] = m->oid[0].buf;
	rc = run_git(argv, NULL, &out, &err);
	strbuf_release(&out);
	strbuf_release(&err);
	return !rc;
}

void merge_release(struct merge *m)
{
	strbuf_release(&m->oid[0]);
	strbuf_release(&m->oid[1]);
	strbuf_release(&m->upstream_tree);
	strbuf_release(&m->objdir);
	strbuf_release(&m->prefix);
	strvec_clear(&m->env);
	mtree_release(&m->res);
	strbuf_release(&m->output);
	strbuf_release(&m->tree);
	strbuf_release(&m->paths);
}
