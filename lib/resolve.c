#include <stdio.h>
#include <string.h>

#include "resolve.h"
#include "run.h"

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

/* git rev-parse --verify -q --end-of-options <spec>: 0 and the id in oid */
static int verify(const char *spec, struct strbuf *oid, struct strbuf *err)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int rc;

	strvec_pushl(&cp.args, "rev-parse", "--verify", "-q",
		     "--end-of-options", spec, NULL);
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
	strbuf_reset(type);
	cp.out = type;
	cp.no_stderr = 1;
	if (run_git(&cp))
		return 0;
	strbuf_trim_newlines(type);
	return 1;
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
	rc = verify(spec.buf, oid, &err);
	if (!rc)
		return;
	if (rev == &p->upstream && p->default_upstream)
		die("%s; name the branch to be pulled into: "
		    "git clean-diffstat <upstream> [<head>]",
		    err.len ? git_reason(&err) : "no upstream configured");
	if (rc != 1)
		die_with_git("git rev-parse", rc, &err);
	if (verify(rev->name, &raw, &err))
		die("not a valid revision: '%s'", rev->name);
	strbuf_reset(&spec);
	strbuf_addf(&spec, "%s^{commit}", raw.buf);
	if (!verify(spec.buf, oid, &err))
		return;
	if (!object_type(raw.buf, &spec))
		die("not a valid revision: '%s'", rev->name);
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
 * and "--"; 0 when the output is just that, with the ids in id[].
 */
static int parse_resolution(struct pull *p, struct strbuf *out, int nr_ids,
			    struct strbuf **id)
{
	char *line[7];
	int i, nr = 4 + nr_ids;

	if (split_lines(out, line, nr) != nr || line[0][0] != '/' ||
	    strcmp(line[2], "--end-of-options") || strcmp(line[nr - 1], "--"))
		return -1;
	for (i = 0; i < nr_ids; i++)
		if (!is_hex(line[3 + i], strlen(line[3 + i])))
			return -1;
	strbuf_addstr(&p->objdir, line[0]);
	strbuf_addstr(&p->prefix, line[1]);
	for (i = 0; i < nr_ids; i++)
		strbuf_addstr(id[i], line[3 + i]);
	return 0;
}

static int rev_parse(struct pull *p, const char *const *spec, int nr,
		     struct strbuf **id)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	int rc;

	strvec_pushl(&cp.args, "rev-parse", "--path-format=absolute",
		     "--git-path", "objects", "--show-prefix",
		     "--end-of-options", NULL);
	strvec_pushv(&cp.args, spec, (size_t)nr);
	strvec_push(&cp.args, "--");
	cp.out = &out;
	cp.no_stderr = 1;
	rc = run_git(&cp) || parse_resolution(p, &out, nr, id);
	strbuf_release(&out);
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
void resolve(struct pull *p, const char *upstream, const char *head)
{
	struct strbuf spec[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf *id[3] = { &p->upstream.oid, &p->upstream_tree,
				 &p->head.oid };
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

	strbuf_addf(&spec[0], "%s^{commit}", p->upstream.name);
	strbuf_addf(&spec[1], "%s^{tree}", p->upstream.name);
	strbuf_addf(&spec[2], "%s^{commit}", p->head.name);
	for (i = 0; i < 3; i++)
		v[i] = spec[i].buf;
	if (rev_parse(p, v, 3, id)) {
		for (i = 0; i < 3; i++)
			strbuf_reset(id[i]);
		strbuf_reset(&p->objdir);
		strbuf_reset(&p->prefix);
		resolve_one(p, &p->upstream, &p->upstream.oid);
		resolve_one(p, &p->head, &p->head.oid);
		strbuf_reset(&spec[1]);
		strbuf_addf(&spec[1], "%s^{tree}", p->upstream.oid.buf);
		v[0] = spec[1].buf;
		if (rev_parse(p, v, 1, &id[1]))
			die("cannot resolve '%s' and '%s' to two commits",
			    p->upstream.name, p->head.name);
	}
	for (i = 0; i < 3; i++)
		strbuf_release(&spec[i]);
}

void pull_release(struct pull *p)
{
	strbuf_release(&p->upstream.oid);
	strbuf_release(&p->head.oid);
	strbuf_release(&p->upstream_tree);
	strbuf_release(&p->objdir);
	strbuf_release(&p->prefix);
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
