// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gitmodules.h"
#include "merge.h"
#include "quarantine.h"
#include "run.h"

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
static void entries_from_top(struct merge *m, const char *prefix)
{
	size_t i, *at = xmalloc((m->res.nr_entries + 1) * sizeof(*at));

	for (i = 0; i < m->res.nr_entries; i++) {
		at[i] = m->paths.len;
		path_from_top(&m->paths, prefix, m->res.entries[i].path.s,
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
static int no_merge_base(const struct pull *p)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	strvec_pushl(&cp.args, "merge-base", p->upstream.oid.buf,
		     p->head.oid.buf, NULL);
	cp.no_stdout = 1;
	cp.no_stderr = 1;
	return run_git(&cp) == 1;
}

/*
 * In a shallow clone, no merge base may only mean that the history is
 * cut off before it: then the reason, whose two commits are named by
 * a and b (as they are to be shown), into why, and 1; else 0.  Both
 * sides say it, the sender's (die_unrelated()) and the receiver's
 * (parse_bases()), with how to deepen it.
 */
static const char deepen_hint[] = "deepen it with 'git fetch --deepen=<depth>'";

static int shallow_reason(struct strbuf *why, const char *a, const char *b)
{
	if (!repo_is_shallow())
		return 0;
	strbuf_addf(why, "the merge base of %s and %s is missing from this "
		    "shallow clone", a, b);
	return 1;
}

/*
 * Why there is no merge base, and stop: for the merge, with a hint that
 * --allow-unrelated-histories would do; for git request-pull's diffstat,
 * which needs one whatever the options, without.
 */
static NORETURN void die_unrelated(const struct pull *p, int for_merge)
{
	/* static: still reachable when exit() comes, for leak checkers */
	static struct strbuf why = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	int code;

	strbuf_addf(&a, "'%s'", p->upstream.name);
	strbuf_addf(&b, "'%s'", p->head.name);
	if (shallow_reason(&why, a.buf, b.buf)) {
		code = die_message("%s", why.buf);
		hint("%s", deepen_hint);
	} else if (for_merge) {
		code = die_message("refusing to merge unrelated histories");
		hint("pass --allow-unrelated-histories to merge them all the same");
	} else {
		code = die_message("no commits in common between '%s' and '%s', "
				   "so git request-pull has no diffstat",
				   p->upstream.name, p->head.name);
	}
	exit(code);
}

/* Prepare cp to run git merge-base --all <upstream> <head>. */
static void merge_base_cmd(struct child_process *cp, const struct pull *p,
			   struct strbuf *out, struct strbuf *err)
{
	strvec_pushl(&cp->args, "merge-base", "--all", p->upstream.oid.buf,
		     p->head.oid.buf, NULL);
	cp->out = out;
	cp->err = err;
}

/*
 * The merge bases git merge-base --all printed (out; it exited rc),
 * in its order, into oids: 0.  When there is none, or it failed, die in
 * one line; or, when why is not NULL, say so there: -1.
 */
static int parse_bases(const struct pull *p, int rc, struct strbuf *out,
		       const struct strbuf *err, struct strvec *oids,
		       struct strbuf *why)
{
	struct strbuf upstream = STRBUF_INIT;
	char *line, *nl;

	if ((rc > 1 || rc < 0) && !why)
		die_with_git("git merge-base", rc, err);
	if (rc > 1 || rc < 0)
		return run_reason(why, "git merge-base", rc, err);
	for (line = out->buf; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		strvec_push(oids, line);
	}
	if (oids->nr)
		return 0;
	if (!why)
		die_unrelated(p, 0);
	strbuf_addf(&upstream, "'%s'", p->upstream.name);
	if (shallow_reason(why, "the tip", upstream.buf))
		strbuf_addf(why, "; %s", deepen_hint);
	else
		strbuf_addf(why, "unrelated: the tip has no commit in common "
			    "with %s", upstream.buf);
	strbuf_release(&upstream);
	return -1;
}

static void merge_init(struct merge *m, const struct pull *p,
		       int allow_unrelated)
{
	memset(m, 0, sizeof(*m));
	m->pull = p;
	m->allow_unrelated = allow_unrelated;
	strbuf_init(&m->output);
	strbuf_init(&m->err);
	strbuf_init(&m->tree);
	strbuf_init(&m->paths);
	quarantine_create();
	quarantine_env(&m->env, p->objdir.buf);
}

/*
 * The merged tree is m->tree: its .gitmodules, against the work
 * tree's, for the diff (the procedure's checkout has the merged one).
 */
static void merged_gitmodules(struct merge *m)
{
	struct strbuf cdup = STRBUF_INIT;

	cdup_of(&cdup, m->pull->prefix.buf);
	gitmodules_config(&m->gitmodules, m->env.v, m->tree.buf, cdup.buf);
	strbuf_release(&cdup);
}

void merge_cmd(struct merge *m, const struct pull *p, int allow_unrelated,
	       struct child_process *cp)
{
	merge_init(m, p, allow_unrelated);
	strvec_pushl(&cp->args, "merge-tree", "--write-tree", "-z",
		     "--messages", NULL);
	/*
	 * git merge's content merges follow diff.algorithm from 2.50 on
	 * (it reads it from 2.47, but merge-ort kept to histogram until
	 * 2.50), git merge-tree's never (it reads it in 2.47 and 2.48
	 * only, to no effect): say it (merge-tree takes -X from 2.43).
	 */
	if (p->git_version >= 250 && p->diff_algorithm.len)
		strvec_pushf(&cp->args, "-Xdiff-algorithm=%s",
			     p->diff_algorithm.buf);
	if (allow_unrelated)
		strvec_push(&cp->args, "--allow-unrelated-histories");
	strvec_pushl(&cp->args, p->upstream.oid.buf, p->head.oid.buf, NULL);
	strvec_pushv(&cp->env, m->env.v, m->env.nr);
	/*
	 * Attributes (merge drivers, text, eol) as the procedure has them:
	 * its merge runs in a checkout of <upstream>.  Git before 2.41 knows
	 * no GIT_ATTR_SOURCE and takes the work tree's.
	 */
	strvec_pushf(&cp->env, "GIT_ATTR_SOURCE=%s", p->upstream.oid.buf);
	cp->out = &m->output;
	cp->err = &m->err;
}

/*
 * git merge-tree exited rc: a conflict is no failure (it exits 1), but
 * no tree is.  Die of a failure, or with why, say why in it: -1.
 */
static int merge_failed(struct merge *m, int rc, struct strbuf *why)
{
	const struct pull *p = m->pull;

	if (rc == 129)
		check_git_version();
	if (rc != 0 && rc != 1 && !m->allow_unrelated && !why &&
	    no_merge_base(p))
		die_unrelated(p, 1);
	if (!rc || (rc == 1 && memchr(m->output.buf, '\0', m->output.len)))
		return 0;
	/*
	 * It failed, or exited 1 with no tree: it could not merge at all
	 * ("not something we can merge" when a commit cannot be read).
	 * Pass on what it and its merge drivers said, unless a signal cut
	 * it short: half a tree id is nobody's message.
	 */
	if (why)
		return run_reason(why, "git merge-tree", rc, &m->err);
	if (rc > 0)
		fwrite(m->output.buf, 1, m->output.len, stderr);
	die_with_git("git merge-tree", rc, &m->err);
}

int merge_result(struct merge *m, int rc, struct strbuf *why)
{
	const struct pull *p = m->pull;
	const char *bad;

	if (merge_failed(m, rc, why))
		return -1;
	strbuf_release(&m->err);
	if (mtree_parse(m->output.buf, m->output.len, p->upstream.oid.len,
			&m->res, &bad)) {
		if (!why)
			die("cannot parse the output of git merge-tree: %s", bad);
		strbuf_addf(why, "cannot parse the output of git merge-tree: %s",
			    bad);
		return -1;
	}
	/* what merge drivers said on merge-tree's stdout: ours is the diff's */
	fwrite(m->res.prelude.s, 1, m->res.prelude.len, stderr);
	if (p->prefix.len)
		entries_from_top(m, p->prefix.buf);
	strbuf_add(&m->tree, m->res.tree.s, m->res.tree.len);
	m->conflicted = rc;
	merged_gitmodules(m);
	return 0;
}

void merge_fast_forward(struct merge *m, const struct pull *p,
			const char *tree)
{
	merge_init(m, p, 0);
	strbuf_addstr(&m->tree, tree);
	merged_gitmodules(m);
}

/*
 * The merge, and the merge bases when asked for, found by a git
 * merge-base run beside it: without them, nothing else can be told.
 */
void merge_run(struct merge *m, const struct pull *p, int allow_unrelated,
	       struct strvec *bases)
{
	struct child_process cp = CHILD_PROCESS_INIT, mb = CHILD_PROCESS_INIT;
	struct child_process *cps[2] = { &cp, &mb };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int rcs[2];

	merge_cmd(m, p, allow_unrelated, &cp);
	if (bases)
		merge_base_cmd(&mb, p, &out, &err);
	run_git_all(cps, rcs, bases ? 2 : 1);
	if (bases)
		parse_bases(p, rcs[1], &out, &err, bases, NULL);
	strbuf_release(&out);
	strbuf_release(&err);
	merge_result(m, rcs[0], NULL);
}

int merge_bases(const struct pull *p, struct strvec *bases, struct strbuf *why)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int rc;

	merge_base_cmd(&cp, p, &out, &err);
	rc = parse_bases(p, run_git(&cp), &out, &err, bases, why);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}

int merge_nothing_to_pull(const struct merge *m)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	/* only then can <head> be an ancestor: spare the walk otherwise */
	if (strcmp(m->tree.buf, m->pull->upstream_tree.buf))
		return 0;
	strvec_pushl(&cp.args, "merge-base", "--is-ancestor",
		     m->pull->head.oid.buf, m->pull->upstream.oid.buf, NULL);
	cp.no_stdout = 1;
	cp.no_stderr = 1;
	return !run_git(&cp);
}

void merge_release(struct merge *m)
{
	strvec_clear(&m->env);
	strvec_clear(&m->gitmodules);
	mtree_release(&m->res);
	strbuf_release(&m->output);
	strbuf_release(&m->err);
	strbuf_release(&m->tree);
	strbuf_release(&m->paths);
}
