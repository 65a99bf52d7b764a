/*
 * git clean-diffstat: the diffstat of what pulling <head> into
 * <upstream> really changes, for pull requests whose history has more
 * than one merge base.
 *
 * It is the procedure of the kernel's "Handling messy pull-request
 * diffstats" (merge on a throwaway TEMP branch, then
 * "git diff -C --stat --summary upstream..TEMP") without the branch, the
 * checkout or any object written to the repository:
 *
 *	parse	  the command line (lib/options.c)
 *	resolve	  both revisions to commit ids with one git rev-parse
 *	merge	  with git merge-tree --write-tree, its objects quarantined
 *	diff	  the two trees with git diff, straight to our stdout
 *	report	  conflicts, or that there is nothing to pull
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/mtree.h"
#include "lib/options.h"
#include "lib/quarantine.h"
#include "lib/quote.h"
#include "lib/report.h"
#include "lib/run.h"
#include "lib/signals.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

struct revs {
	const char *name[2];		/* <upstream>, <head> as spelled */
	int default_upstream;		/* name[0] is our "@{upstream}" */
	struct strbuf oid[2];
	struct strbuf upstream_tree;
	struct strbuf objdir;		/* the repository's object directory */
};

/* Pass on what git said and stop as it would. */
NORETURN static void die_with_git(const char *what, int status,
				  const struct strbuf *err)
{
	if (err->len) {
		fwrite(err->buf, 1, err->len, stderr);
		if (err->buf[err->len - 1] != '\n')
			fputc('\n', stderr);
		exit(128);
	}
	die("%s failed (%s)", what, run_describe(status));
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
NORETURN static void die_unresolved(const struct revs *r)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int i, rc;

	for (i = 0; i < 2; i++) {
		const char *argv[] = { "git", "rev-parse", "--verify", "-q",
				 "--end-of-options", NULL, NULL };
		struct strbuf spec = STRBUF_INIT;

		strbuf_addf(&spec, "%s^{commit}", r->name[i]);
		argv[5] = spec.buf;
		strbuf_reset(&out);
		strbuf_reset(&err);
		rc = run_git(argv, NULL, &out, &err);
		if (!rc)
			continue;
		if (i == 0 && r->default_upstream)
			die("%s; name the branch to be pulled into: "
			    "git clean-diffstat <upstream> [<head>]",
			    err.len ? git_reason(&err) :
			    "no upstream configured");
		if (rc != 1)
			die_with_git("git rev-parse", rc, &err);

		argv[5] = r->name[i];
		strbuf_reset(&out);
		if (!run_git(argv, NULL, &out, &err)) {
			const char *type[] = { "git", "cat-file", "-t", NULL, NULL };

			strbuf_trim_newlines(&out);
			type[3] = out.buf;
			strbuf_reset(&spec);
			if (!run_git(type, NULL, &spec, &err)) {
				strbuf_trim_newlines(&spec);
				die("'%s' is a %s, not a commit", r->name[i],
				    spec.buf);
			}
		}
		die("not a valid revision: '%s'", r->name[i]);
	}
	die("cannot resolve '%s' and '%s' to two commits", r->name[0],
	    r->name[1]);
}

/*
 * One git rev-parse gives the object directory, both commits and the
 * upstream tree.  "--end-of-options" keeps a revision spelled like an
 * option from being taken as one, and the final "--" keeps a revision
 * from being taken as a file name.
 */
static void resolve(const struct options *opts, struct revs *r)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	char *line[6];
	int i;

	r->default_upstream = !opts->rev[0];
	r->name[0] = opts->rev[0] ? opts->rev[0] : "@{upstream}";
	r->name[1] = opts->rev[1] ? opts->rev[1] : "HEAD";

	strvec_push(&argv, "git");
	strvec_push(&argv, "rev-parse");
	strvec_push(&argv, "--path-format=absolute");
	strvec_push(&argv, "--git-path");
	strvec_push(&argv, "objects");
	strvec_push(&argv, "--end-of-options");
	strvec_pushf(&argv, "%s^{commit}", r->name[0]);
	strvec_pushf(&argv, "%s^{tree}", r->name[0]);
	strvec_pushf(&argv, "%s^{commit}", r->name[1]);
	strvec_push(&argv, "--");
	if (run_git(argv.v, NULL, &out, &err) ||
	    split_lines(&out, line, 6) != 6 || line[0][0] != '/' ||
	    strcmp(line[1], "--end-of-options") || strcmp(line[5], "--"))
		die_unresolved(r);
	for (i = 2; i < 5; i++)
		if (!is_hex(line[i], strlen(line[i])))
			die_unresolved(r);
	strbuf_addstr(&r->objdir, line[0]);
	strbuf_addstr(&r->oid[0], line[2]);
	strbuf_addstr(&r->upstream_tree, line[3]);
	strbuf_addstr(&r->oid[1], line[4]);
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
 * Merge in memory.  Returns 0 for a clean merge and 1 for conflicts,
 * with merge-tree's output in out and parsed into res.
 */
static int merge(const struct options *opts, const struct revs *r,
		 const char **env, struct strbuf *out,
		 struct mtree_result *res)
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
	if (opts->allow_unrelated)
		strvec_push(&argv, "--allow-unrelated-histories");
	strvec_push(&argv, r->oid[0].buf);
	strvec_push(&argv, r->oid[1].buf);
	rc = run_git(argv.v, env, out, &err);
	strvec_clear(&argv);

	if (rc == 129)
		check_git_version();
	if (rc != 0 && rc != 1) {
		if (!strstr(err.buf, "refusing to merge unrelated histories"))
			die_with_git("git merge-tree", rc, &err);
		if (is_shallow()) {
			fprintf(stderr, "fatal: the merge base of '%s' and '%s' "
				"is missing from this shallow clone\n",
				r->name[0], r->name[1]);
			hint("deepen it with 'git fetch --deepen=<depth>'");
		} else {
			fputs("fatal: refusing to merge unrelated histories\n",
			      stderr);
			hint("pass --allow-unrelated-histories to merge them "
			     "all the same");
		}
		exit(128);
	}
	if (mtree_parse(out->buf, out->len, res, &why))
		die("cannot parse the output of git merge-tree: %s", why);
	strbuf_release(&err);
	return rc;
}

/*
 * Diff upstream against the merged tree with the porcelain git diff,
 * as the procedure does, so that diff.* and color.* configuration and
 * the terminal's width apply exactly as there.  Its output goes
 * straight to our stdout.
 */
static void diff(const struct options *opts, const struct revs *r,
		 const char *tree, const char **env)
{
	struct strbuf err = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	int rc;

	strvec_push(&argv, "git");
	strvec_push(&argv, "--no-pager");
	strvec_push(&argv, "diff");
	strvec_push(&argv, "-C");
	if (!opts->diff_format) {
		strvec_push(&argv, "--stat");
		strvec_push(&argv, "--summary");
	}
	strvec_pushv(&argv, opts->diff.v, opts->diff.nr);
	strvec_push(&argv, "--end-of-options");
	strvec_push(&argv, r->oid[0].buf);
	strvec_push(&argv, tree);
	strvec_push(&argv, "--");
	strvec_pushv(&argv, (const char *const *)opts->pathspec,
		     (size_t)opts->nr_pathspec);
	fflush(stdout);
	rc = run_git(argv.v, env, NULL, NULL);
	strvec_clear(&argv);
	if (rc == -SIGPIPE)
		signals_die(-rc);
	if (rc < 0)
		die("git diff died of %s", run_describe(rc));
	if (rc)
		exit(rc == 129 ? 129 : 128);
	strbuf_release(&err);
}

static void note_if_merged(const struct revs *r, const char *tree)
{
	const char *argv[] = { "git", "merge-base", "--is-ancestor", NULL, NULL,
			 NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	if (strcmp(tree, r->upstream_tree.buf))
		return;
	argv[3] = r->oid[1].buf;
	argv[4] = r->oid[0].buf;
	if (!run_git(argv, NULL, &out, &err))
		note("'%s' is already merged into '%s'", r->name[1],
		     r->name[0]);
}

static int quote_path_config(void)
{
	const char *argv[] = { "git", "config", "--type=bool", "--default=true",
			 "core.quotepath", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	return run_git(argv, NULL, &out, &err) || strcmp(out.buf, "false\n");
}

int main(int argc, char **argv)
{
	struct options opts;
	struct revs r = { { NULL, NULL }, 0, { STRBUF_INIT, STRBUF_INIT },
			  STRBUF_INIT, STRBUF_INIT };
	struct strbuf merged = STRBUF_INIT;
	struct mtree_result res = MTREE_RESULT_INIT;
	struct strvec env = STRVEC_INIT;
	struct strbuf tree = STRBUF_INIT;
	int conflicted;

	signals_init();
	parse_options(argc, argv, &opts);
	if (opts.help) {
		execlp("git", "git", "help", "clean-diffstat", (char *)NULL);
		die_errno("cannot run git help");
	}

	resolve(&opts, &r);
	quarantine_create();
	quarantine_env(&env, r.objdir.buf);
	conflicted = merge(&opts, &r, env.v, &merged, &res);
	strbuf_add(&tree, res.tree.s, res.tree.len);
	diff(&opts, &r, tree.buf, env.v);

	if (conflicted)
		report_conflicts(r.name[0], r.name[1], &res,
				 quote_path_config());
	else
		note_if_merged(&r, tree.buf);

	mtree_release(&res);
	strbuf_release(&merged);
	strbuf_release(&tree);
	strvec_clear(&env);
	strvec_clear(&opts.diff);
	return conflicted;
}
