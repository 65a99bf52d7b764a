#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	strbuf_init(&m->output);
	strbuf_init(&m->tree);
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
	return (len == 40 || len == 64) && strspn(s, "0123456789abcdef") == len;
}

/* Split the lines of sb in place; returns how many, at most max. */
static int split_lines(struct strbuf *sb, char **line, int max)
{
	char *p = sb->buf, *nl;
	int n = 0;

	while (*p && (nl = strchr(p, '\n'))) {
		*nl = '\0';
		if (n == max)
			return max + 1;
		line[n++] = p;
		p = nl + 1;
	}
	return *p ? max + 1 : n;
}

/*
 * The slow path, taken only when the quick resolution fails: find out
 * which revision is wrong and say why, as precisely as git can tell.
 */
NORETURN static void die_unresolved(const struct merge *m)
{
	/* static: still reachable when die() exits, for leak checkers */
	static struct strbuf spec = STRBUF_INIT, out = STRBUF_INIT,
			     err = STRBUF_INIT;
	int i, rc;

	for (i = 0; i < 2; i++) {
		const char *argv[] = { "git", "rev-parse", "--verify", "-q",
				 "--end-of-options", NULL, NULL };

		strbuf_reset(&spec);
		strbuf_addf(&spec, "%s^{commit}", m->name[i]);
		argv[5] = spec.buf;
		strbuf_reset(&out);
		strbuf_reset(&err);
		rc = run_git(argv, NULL, &out, &err);
		if (!rc)
			continue;
		if (i == 0 && m->default_upstream)
			die("%s; name the branch to be pulled into: "
			    "git clean-diffstat <upstream> [<head>]",
			    err.len ? git_reason(&err) :
			    "no upstream configured");
		if (rc != 1)
			die_with_git("git rev-parse", rc, &err);

		argv[5] = m->name[i];
		strbuf_reset(&out);
		if (!run_git(argv, NULL, &out, &err)) {
			const char *type[] = { "git", "cat-file", "-t", NULL, NULL };

			strbuf_trim_newlines(&out);
			type[3] = out.buf;
			strbuf_reset(&spec);
			if (!run_git(type, NULL, &spec, &err)) {
				strbuf_trim_newlines(&spec);
				die("'%s' is a %s, not a commit", m->name[i],
				    spec.buf);
			}
		}
		die("not a valid revision: '%s'", m->name[i]);
	}
	die("cannot resolve '%s' and '%s' to two commits", m->name[0],
	    m->name[1]);
}

/*
 * One git rev-parse gives the object directory, both commits and the
 * upstream tree.  "--end-of-options" keeps a revision spelled like an
 * option from being taken as one, and the final "--" keeps a revision
 * from being taken as a file name.
 */
void merge_resolve(struct merge *m)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	char *line[6];
	int i;

	strvec_push(&argv, "git");
	strvec_push(&argv, "rev-parse");
	strvec_push(&argv, "--path-format=absolute");
	strvec_push(&argv, "--git-path");
	strvec_push(&argv, "objects");
	strvec_push(&argv, "--end-of-options");
	strvec_pushf(&argv, "%s^{commit}", m->name[0]);
	strvec_pushf(&argv, "%s^{tree}", m->name[0]);
	strvec_pushf(&argv, "%s^{commit}", m->name[1]);
	strvec_push(&argv, "--");
	if (run_git(argv.v, NULL, &out, &err) ||
	    split_lines(&out, line, 6) != 6 || line[0][0] != '/' ||
	    strcmp(line[1], "--end-of-options") || strcmp(line[5], "--"))
		die_unresolved(m);
	for (i = 2; i < 5; i++)
		if (!is_hex(line[i], strlen(line[i])))
			die_unresolved(m);
	strbuf_addstr(&m->objdir, line[0]);
	strbuf_addstr(&m->oid[0], line[2]);
	strbuf_addstr(&m->upstream_tree, line[3]);
	strbuf_addstr(&m->oid[1], line[4]);
	strvec_clear(&argv);
	strbuf_release(&out);
	strbuf_release(&err);
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
 * Merge in memory; a conflict is no failure (git merge-tree exits 1).
 */
void merge_run(struct merge *m)
{
	struct strbuf err = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	const char *why;
	int rc;

	strvec_push(&argv, "git");
	strvec_push(&argv, "merge-tree");
	strvec_push(&argv, "--write-tree");
	strvec_push(&argv, "-z");
	strvec_push(&argv, "--messages");
	quarantine_create();
	quarantine_env(&m->env, m->objdir.buf);
	if (m->allow_unrelated)
		strvec_push(&argv, "--allow-unrelated-histories");
	strvec_push(&argv, m->oid[0].buf);
	strvec_push(&argv, m->oid[1].buf);
	rc = run_git(argv.v, m->env.v, &m->output, &err);
	strvec_clear(&argv);

	if (rc == 129)
		check_git_version();
	if (rc != 0 && rc != 1) {
		if (!strstr(err.buf, "refusing to merge unrelated histories"))
			die_with_git("git merge-tree", rc, &err);
		if (is_shallow()) {
			fprintf(stderr, "fatal: the merge base of '%s' and '%s' "
				"is missing from this shallow clone\n",
				m->name[0], m->name[1]);
			hint("deepen it with 'git fetch --deepen=<depth>'");
		} else {
			fputs("fatal: refusing to merge unrelated histories\n",
			      stderr);
			hint("pass --allow-unrelated-histories to merge them "
			     "all the same");
		}
		exit(128);
	}
	if (mtree_parse(m->output.buf, m->output.len, &m->res, &why))
		die("cannot parse the output of git merge-tree: %s", why);
	strbuf_add(&m->tree, m->res.tree.s, m->res.tree.len);
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
	strvec_clear(&m->env);
	mtree_release(&m->res);
	strbuf_release(&m->output);
	strbuf_release(&m->tree);
}
