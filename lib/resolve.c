// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "quarantine.h"
#include "resolve.h"
#include "run.h"
#include "str.h"

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
static int split_paths(struct pull *p, const char *s, size_t len)
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
		strbuf_add(&p->objdir, s, len - 2 - n);
		strbuf_add(&p->prefix, cwd.buf + at, n);
		rc = 0;
		break;
	}
out:
	strbuf_release(&cwd);
	return rc;
}

/*
 * No git of resolve() may fetch: it runs before the quarantine
 * (quarantine_enter()), and a lazy fetch of a partial clone, for an
 * object a revision names (a blob, "topic:file"), would write its pack
 * into the repository.  Only the objects the repository has are looked
 * at: commits, tags and trees are there in a partial clone, which
 * lacks blobs.  GIT_NO_LAZY_FETCH says so from git 2.39.4 and 2.43.4
 * on; GIT_ALLOW_PROTOCOL set to no protocol at all keeps any git
 * (2.38 too) from fetching, lazily or not.
 */
static void lazy_fetch_off(struct child_process *cp)
{
	strvec_pushl(&cp->env, "GIT_NO_LAZY_FETCH=1", "GIT_ALLOW_PROTOCOL=",
		     NULL);
}

/*
 * git rev-parse --verify -q --end-of-options <spec>: 0 and the id in oid.
 * In English when english is set: git's reason then goes into a message
 * of ours, and git_reason() knows only its English "fatal: ".
 */
static int verify_rev(const char *spec, struct strbuf *oid,
		      struct strbuf *err, int english)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int rc;

	strvec_pushl(&cp.args, "rev-parse", "--verify", "-q",
		     "--end-of-options", spec, NULL);
	lazy_fetch_off(&cp);
	if (english)
		strvec_push(&cp.env, "LC_ALL=C");
	strbuf_reset(oid);
	strbuf_reset(err);
	cp.out = oid;
	cp.err = err;
	rc = run_git(&cp);
	strbuf_trim_newlines(oid);
	return rc;
}

/* The type of an object, "tree", "tag"...: 1 and it in type, or 0. */
static int object_type(const char *oid, struct strbuf *type)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	strvec_pushl(&cp.args, "cat-file", "-t", oid, NULL);
	lazy_fetch_off(&cp);
	strbuf_reset(type);
	cp.out = type;
	cp.no_stderr = 1;
	if (run_git(&cp))
		return 0;
	strbuf_trim_newlines(type);
	return 1;
}

/*
 * Why the current branch's @{upstream} does not resolve, and stop.  git
 * says why only without -q from 2.41 on (in English, for a message of
 * ours), and for an upstream whose remote-tracking ref is gone (git
 * status's "[gone]") just "Needed a single revision": name that one
 * ourselves.
 */
static NORETURN void die_no_upstream(void)
{
	static const char how[] = "name the branch to be pulled into: "
				  "git clean-diffstat <upstream> [<head>]";
	struct child_process cp = CHILD_PROCESS_INIT;
	/* static: still reachable when die() exits, for leak checkers */
	static struct strbuf branch = STRBUF_INIT, up = STRBUF_INIT,
			     err = STRBUF_INIT;

	strvec_pushl(&cp.args, "symbolic-ref", "-q", "HEAD", NULL);
	cp.out = &branch;
	cp.no_stderr = 1;
	if (!run_git(&cp)) {
		const char *name;
		size_t n;

		strbuf_trim_newlines(&branch);
		strvec_pushl(&cp.args, "for-each-ref",
			     "--format=%(refname)%00%(upstream:short)",
			     branch.buf, NULL);
		cp.out = &up;
		n = branch.len;
		if (!run_git(&cp) && up.len > n + 1 &&
		    !memcmp(up.buf, branch.buf, n) && !up.buf[n] &&
		    up.buf[n + 1] != '\n') {
			name = branch.buf;
			if (!strncmp(name, "refs/heads/", 11))
				name += 11;
			strbuf_trim_newlines(&up);
			die("the upstream '%s' of branch '%s' is gone; %s",
			    up.buf + n + 1, name, how);
		}
	}
	strvec_pushl(&cp.args, "rev-parse", "--verify", "--end-of-options",
		     "@{upstream}^{commit}", NULL);
	lazy_fetch_off(&cp);
	strvec_push(&cp.env, "LC_ALL=C");
	strbuf_reset(&up);
	cp.out = &up;
	cp.no_stderr = 0;
	cp.err = &err;
	run_git(&cp);
	die("%s; %s", err.len ? git_reason(&err) : "no upstream configured",
	    how);
}

/*
 * The slow path for one revision: <name>^{commit}, else <name> peeled
 * in a second step (":/<regex>" takes a suffix into its regex), else
 * die saying why, as precisely as git can tell.
 */
static void resolve_one(const struct pull *p, const struct revision *rev,
			struct strbuf *oid)
{
	/* static: still reachable when die() exits, for leak checkers */
	static struct strbuf spec = STRBUF_INIT, raw = STRBUF_INIT,
			     err = STRBUF_INIT;
	int rc;

	strbuf_reset(&spec);
	strbuf_addf(&spec, "%s^{commit}", rev->name);
	rc = verify_rev(spec.buf, oid, &err,
			rev == &p->upstream && p->default_upstream);
	if (!rc)
		return;
	if (rev == &p->upstream && p->default_upstream)
		die_no_upstream();
	if (rc != 1)
		die_with_git("git rev-parse", rc, &err);
	if (verify_rev(rev->name, &raw, &err, 0))
		die("not a valid revision: '%s'", rev->name);
	strbuf_reset(&spec);
	strbuf_addf(&spec, "%s^{commit}", raw.buf);
	if (!verify_rev(spec.buf, oid, &err, 0))
		return;
	/* a partial clone's, not fetched (lazy_fetch_off()), or lost */
	if (!object_type(raw.buf, &spec))
		die("'%s' names an object missing from this repository",
		    rev->name);
	if (strcmp(spec.buf, "tag"))
		die("'%s' is a %s, not a commit", rev->name, spec.buf);
	/* what the tag (of a tag...) is of, at the end of the chain */
	strbuf_addstr(&raw, "^{}");
	if (!object_type(raw.buf, &spec))
		die("'%s' is a tag, not a commit", rev->name);
	die("'%s' is a tag of a %s, not a commit", rev->name, spec.buf);
}

/*
 * What one git rev-parse prints for the object directory, the prefix of
 * the current directory, and after --end-of-options the ids asked for
 * and "--"; 0 when the output is just that, with the ids in id[].  The
 * paths may have newlines in them: the rest is taken from the end.
 */
static int parse_resolution(struct pull *p, struct strbuf *out, int nr_ids,
			    struct strbuf **id)
{
	const char *end = out->buf + out->len, *line[3];
	size_t len[3], n;
	int i;

	if (nr_ids > 3)
		BUG("parse_resolution() of %d ids", nr_ids);
	if (!pop_line(out->buf, &end, &n) || n != 2 || memcmp(end, "--", 2))
		return -1;
	for (i = nr_ids - 1; i >= 0; i--) {
		line[i] = pop_line(out->buf, &end, &len[i]);
		if (!line[i] || !is_oid(line[i], len[i]))
			return -1;
	}
	if (!pop_line(out->buf, &end, &n) || n != strlen("--end-of-options") ||
	    memcmp(end, "--end-of-options", n) ||
	    split_paths(p, out->buf, (size_t)(end - out->buf)))
		return -1;
	for (i = 0; i < nr_ids; i++)
		strbuf_add(id[i], line[i], len[i]);
	return 0;
}

/*
 * A setting's value as git reads a boolean: "false", "no", "off", ""
 * and a number that is 0 (with git's k, m or g after it) are false.  A
 * key without a value ("[core] quotePath" alone) is true: NULL here,
 * as later gits write it (2.50: no "="), "(null)" as git 2.47 and those
 * before it did.  A value git refuses, as any other, is true.
 */
static int config_bool(const char *value)
{
	char *end;
	long n;

	if (!value)
		return 1;
	if (!*value || !strcasecmp(value, "false") || !strcasecmp(value, "no") ||
	    !strcasecmp(value, "off"))
		return 0;
	n = strtol(value, &end, 10);
	if (end != value && (!*end || (strchr("kKmMgG", *end) && !end[1])))
		return n != 0;
	return 1;
}

/*
 * The settings where git merge and git merge-tree differ from one
 * version to the next, and those of the receiver and of the paths
 * shown: what rev_parse_cmd() asks trace2 for, read_settings() git
 * config.
 */
static const char SETTINGS[] = "diff.algorithm,extensions.partialclone,"
			       "remote.*.promisor,core.quotepath,"
			       "clean-diffstat.maxmessagesize";
static const char SETTINGS_RE[] = "^(diff\\.algorithm|extensions\\.partialclone|"
				  "remote\\..*\\.promisor|core\\.quotepath|"
				  "clean-diffstat\\.maxmessagesize)$";

/* One of SETTINGS, as git names it; value NULL for a key alone. */
static void take_setting(struct pull *p, const char *key, const char *value)
{
	if (!strcmp(key, "clean-diffstat.maxmessagesize")) {
		p->max_message_size = 1;
	} else if (!strcmp(key, "core.quotepath")) {
		p->quote_path = config_bool(value);
	} else if (!strncmp(key, "remote.", 7)) {	/* .promisor */
		p->partial_clone |= config_bool(value);
	} else if (!value) {
		;	/* git refuses it where it needs a value */
	} else if (!strcmp(key, "diff.algorithm")) {
		strbuf_reset(&p->diff_algorithm);
		strbuf_addstr(&p->diff_algorithm, value);
	} else if (!strcmp(key, "extensions.partialclone")) {
		p->partial_clone |= *value != '\0';
	}
}

/*
 * What git rev-parse's trace2 (GIT_TRACE2_BRIEF) says of the git that
 * runs ("version 2.50.1") and of the settings named in
 * GIT_TRACE2_CONFIG_PARAMS ("def_param scope:local diff.algorithm=myers",
 * one line per setting, the last one wins).
 */
static void parse_trace(struct pull *p, char *trace)
{
	char *line, *nl, *value;
	int major, minor;

	for (line = trace; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		if (sscanf(line, "version %d.%d", &major, &minor) == 2) {
			p->git_version = major * 100 + minor;
			continue;
		}
		if (strncmp(line, "def_param ", 10))
			continue;
		line += 10;
		if (!strncmp(line, "scope:", 6) && strchr(line, ' '))
			line = strchr(line, ' ') + 1;
		value = strchr(line, '=');
		if (value)
			*value++ = '\0';
		take_setting(p, line, value);
	}
}

/*
 * The settings, from git config, for a git rev-parse that could not
 * say them: gits 2.43 to 2.47 die of a key without a value among
 * GIT_TRACE2_CONFIG_PARAMS.  With -z, "<key>\n<value>" or "<key>" a
 * setting, each ended by a NUL.
 */
static void read_settings(struct pull *p)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	char *key, *end, *nl;

	strvec_pushl(&cp.args, "config", "-z", "--get-regexp", SETTINGS_RE,
		     NULL);
	cp.out = &out;
	cp.no_stderr = 1;
	if (run_git(&cp))
		strbuf_reset(&out);	/* none is set */
	for (key = out.buf; (end = memchr(key, '\0', out.buf + out.len - key));
	     key = end + 1) {
		nl = strchr(key, '\n');
		if (nl)
			*nl = '\0';
		take_setting(p, key, nl ? nl + 1 : NULL);
	}
	strbuf_release(&out);
}

/*
 * Prepare cp to run the git rev-parse of resolve() for the nr specs,
 * its output into out and its trace2 into trace, on its stderr: the
 * version and (with settings) SETTINGS come with the ids, at no cost
 * of another git.  It peels a commit or two, which the commit-graph
 * does not speed up: loading it would cost more than the peeling (1 to
 * 3 ms in U-Boot's), so it is left unread.
 */
static void rev_parse_cmd(struct child_process *cp, const char *const *spec,
			  int nr, int settings, struct strbuf *out,
			  struct strbuf *trace)
{
	strvec_pushl(&cp->args, "-c", "core.commitGraph=false",
		     "rev-parse", "--path-format=absolute",
		     "--git-path", "objects", "--show-prefix",
		     "--end-of-options", NULL);
	strvec_pushv(&cp->args, spec, (size_t)nr);
	strvec_push(&cp->args, "--");
	lazy_fetch_off(cp);
	strvec_pushl(&cp->env, "GIT_TRACE2=2", "GIT_TRACE2_BRIEF=1", NULL);
	if (settings)
		strvec_pushf(&cp->env, "GIT_TRACE2_CONFIG_PARAMS=%s", SETTINGS);
	cp->out = out;
	cp->err = trace;
}

/* What it gave (it exited rc): 0 and the nr ids in id[], or -1. */
static int rev_parse_result(struct pull *p, int rc, struct strbuf *out,
			    struct strbuf *trace, int nr, struct strbuf **id)
{
	if (rc || parse_resolution(p, out, nr, id))
		return -1;
	parse_trace(p, trace->buf);
	return 0;
}

/*
 * One git rev-parse gives the object directory, the current directory's
 * prefix, both commits and the upstream tree.  "--end-of-options" keeps
 * a revision spelled like an option from being taken as one, and the
 * final "--" keeps a revision from being taken as a file name.
 */
void resolve_cmd(struct pull *p, const char *upstream, const char *head,
		 struct child_process *cp, struct strbuf *out,
		 struct strbuf *err)
{
	struct strbuf spec[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	const char *v[3];
	int i;

	memset(p, 0, sizeof(*p));
	p->default_upstream = !upstream;
	p->upstream.name = upstream ? upstream : "@{upstream}";
	p->head.name = head ? head : "HEAD";
	strbuf_init(&p->upstream.oid);
	strbuf_init(&p->head.oid);
	strbuf_init(&p->upstream_tree);
	strbuf_init(&p->objdir);
	strbuf_init(&p->prefix);
	strbuf_init(&p->diff_algorithm);
	p->quote_path = 1;		/* git's default */

	strbuf_addf(&spec[0], "%s^{commit}", p->upstream.name);
	strbuf_addf(&spec[1], "%s^{tree}", p->upstream.name);
	strbuf_addf(&spec[2], "%s^{commit}", p->head.name);
	for (i = 0; i < 3; i++)
		v[i] = spec[i].buf;
	rev_parse_cmd(cp, v, 3, 1, out, err);
	for (i = 0; i < 3; i++)
		strbuf_release(&spec[i]);
}

/*
 * When the git rev-parse of resolve_cmd() fails, each revision is
 * tried on its own, to use it after all or to say what is wrong with
 * it; the settings are then read by git config (read_settings()).
 */
void resolve_result(struct pull *p, int rc, struct strbuf *out,
		    struct strbuf *err)
{
	struct strbuf *id[3] = { &p->upstream.oid, &p->upstream_tree,
				 &p->head.oid };
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf spec = STRBUF_INIT;
	const char *v[1];
	int i;

	if (rev_parse_result(p, rc, out, err, 3, id)) {
		for (i = 0; i < 3; i++)
			strbuf_reset(id[i]);
		strbuf_reset(&p->objdir);
		strbuf_reset(&p->prefix);
		resolve_one(p, &p->upstream, &p->upstream.oid);
		resolve_one(p, &p->head, &p->head.oid);
		strbuf_addf(&spec, "%s^{tree}", p->upstream.oid.buf);
		v[0] = spec.buf;
		strbuf_reset(out);
		strbuf_reset(err);
		rev_parse_cmd(&cp, v, 1, 0, out, err);
		if (rev_parse_result(p, run_git(&cp), out, err, 1, &id[1]))
			die("cannot resolve '%s' and '%s' to two commits",
			    p->upstream.name, p->head.name);
		strbuf_release(&spec);
		read_settings(p);
	}
	/* from now on, no git of ours can write into the repository */
	quarantine_enter(p->objdir.buf);
}

void resolve(struct pull *p, const char *upstream, const char *head)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	resolve_cmd(p, upstream, head, &cp, &out, &err);
	resolve_result(p, run_git(&cp), &out, &err);
	strbuf_release(&out);
	strbuf_release(&err);
}

void pull_release(struct pull *p)
{
	strbuf_release(&p->upstream.oid);
	strbuf_release(&p->head.oid);
	strbuf_release(&p->upstream_tree);
	strbuf_release(&p->objdir);
	strbuf_release(&p->prefix);
	strbuf_release(&p->diff_algorithm);
}

void check_git_version(void)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	int major = 0, minor = 0;

	strvec_push(&cp.args, "version");
	cp.out = &out;
	cp.no_stderr = 1;
	if (!run_git(&cp) &&
	    sscanf(out.buf, "git version %d.%d", &major, &minor) == 2 &&
	    (major < 2 || (major == 2 && minor < 38))) {
		strbuf_trim_newlines(&out);
		die("git clean-diffstat needs git 2.38 or later for "
		    "merge-tree --write-tree (found %s)",
		    out.buf + strlen("git version "));
	}
	strbuf_release(&out);
}

int repo_is_shallow(void)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	int shallow;

	strvec_pushl(&cp.args, "rev-parse", "--is-shallow-repository", NULL);
	cp.out = &out;
	cp.no_stderr = 1;
	shallow = !run_git(&cp) && !strcmp(out.buf, "true\n");
	strbuf_release(&out);
	return shallow;
}
