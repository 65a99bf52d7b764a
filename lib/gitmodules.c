// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gitmodules.h"
#include "run.h"
#include "strbuf.h"

/* What a .gitmodules, or the configuration, says of one submodule. */
struct submodule {
	char *name;
	char *path, *ignore;		/* NULL when not said */
};

struct gitmodules {
	struct submodule *sub;
	size_t nr, alloc;
	char *diff_ignore;		/* diff.ignoreSubmodules */
};

static void set(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

static struct submodule *named(struct gitmodules *g, const char *name,
			       size_t len)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		if (strlen(g->sub[i].name) == len &&
		    !memcmp(g->sub[i].name, name, len))
			return &g->sub[i];
	ALLOC_GROW(g->sub, g->nr, g->alloc);
	memset(&g->sub[g->nr], 0, sizeof(*g->sub));
	g->sub[g->nr].name = xmalloc(len + 1);
	memcpy(g->sub[g->nr].name, name, len);
	g->sub[g->nr].name[len] = '\0';
	return &g->sub[g->nr++];
}

/*
 * git config -z --get-regexp's "<key>\n<value>\0" entries, the last
 * one winning as in git: submodule.<name>.path and .ignore, and
 * diff.ignoresubmodules.
 */
static void parse(const struct strbuf *out, struct gitmodules *g)
{
	const char *p = out->buf, *end = out->buf + out->len;

	while (p < end) {
		const char *key = p, *nl = strchr(key, '\n'), *dot;

		p += strlen(p) + 1;
		if (!nl)
			continue;		/* no value */
		if (nl - key == 21 && !memcmp(key, "diff.ignoresubmodules", 21)) {
			set(&g->diff_ignore, nl + 1);
			continue;
		}
		if (strncmp(key, "submodule.", 10))
			continue;
		for (dot = nl; dot > key + 10 && dot[-1] != '.'; dot--)
			;
		if (dot <= key + 10)
			continue;
		if (nl - dot == 4 && !memcmp(dot, "path", 4))
			set(&named(g, key + 10, dot - 1 - (key + 10))->path, nl + 1);
		else if (nl - dot == 6 && !memcmp(dot, "ignore", 6))
			set(&named(g, key + 10, dot - 1 - (key + 10))->ignore, nl + 1);
	}
}

/* git config -z <source...> --get-regexp <regex>, parsed into g */
static void read_config(const char *const *source, const char *const *env,
			const char *regex, struct gitmodules *g)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;

	strvec_pushl(&cp.args, "config", "-z", NULL);
	for (; *source; source++)
		strvec_push(&cp.args, *source);
	strvec_pushl(&cp.args, "--get-regexp", regex, NULL);
	for (; env && *env; env++)
		strvec_push(&cp.env, *env);
	cp.out = &out;
	cp.no_stderr = 1;
	if (!run_git(&cp))
		parse(&out, g);
	strbuf_release(&out);
}

static void clear(struct gitmodules *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++) {
		free(g->sub[i].name);
		free(g->sub[i].path);
		free(g->sub[i].ignore);
	}
	free(g->sub);
	free(g->diff_ignore);
}

static const struct submodule *at_path(const struct gitmodules *g,
				       const char *path)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		if (g->sub[i].path && !strcmp(g->sub[i].path, path))
			return &g->sub[i];
	return NULL;
}

/* The setting git diff takes for a submodule s of this .gitmodules. */
static const char *ignore_of(const struct submodule *s,
			     const struct gitmodules *config)
{
	const struct submodule *c;
	size_t i;

	if (!s)
		return config->diff_ignore;
	for (i = 0; i < config->nr; i++) {
		c = &config->sub[i];
		if (c->ignore && !strcmp(c->name, s->name))
			return c->ignore;
	}
	return s->ignore ? s->ignore : config->diff_ignore;
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int read_gitmodules(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	do {
		strbuf_grow(sb, 4096);
		n = fread(sb->buf + sb->len, 1, sb->alloc - sb->len - 1, f);
		strbuf_setlen(sb, sb->len + n);
	} while (n);
	n = (size_t)ferror(f);
	fclose(f);
	return n ? -1 : 0;
}

void gitmodules_config(struct strvec *out, const char *const *env,
		       const char *tree, const char *cdup)
{
	static const char *const regex = "^submodule\\..*\\.(path|ignore)$";
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf file = STRBUF_INIT, blob = STRBUF_INIT, spec = STRBUF_INIT,
		      path = STRBUF_INIT;
	struct gitmodules merged = { NULL, 0, 0, NULL },
			  ours = { NULL, 0, 0, NULL },
			  config = { NULL, 0, 0, NULL };
	const char *source[3] = { NULL, NULL, NULL };
	const char *count = getenv("GIT_CONFIG_COUNT");
	char *end = NULL;
	long nr = count && *count ? strtol(count, &end, 10) : 0;
	size_t i, added = 0;

	if (nr < 0 || (end && *end))
		goto out;	/* git will say what is wrong with it */
	strbuf_addf(&path, "%s.gitmodules", cdup);
	if (read_gitmodules(path.buf, &file))
		goto out;	/* git diff looks no name up: nothing to say */
	strbuf_addf(&spec, "%s:.gitmodules", tree);
	strvec_pushl(&cp.args, "cat-file", "blob", spec.buf, NULL);
	for (i = 0; env && env[i]; i++)
		strvec_push(&cp.env, env[i]);
	cp.out = &blob;
	cp.no_stderr = 1;
	if (!run_git(&cp) && blob.len == file.len &&
	    !memcmp(blob.buf, file.buf, file.len))
		goto out;	/* the same .gitmodules */

	strbuf_reset(&blob);
	strbuf_addf(&blob, "--blob=%s", spec.buf);
	source[0] = blob.buf;
	read_config(source, env, regex, &merged);
	source[0] = "-f";
	source[1] = path.buf;
	read_config(source, NULL, regex, &ours);
	source[0] = NULL;
	read_config(source, NULL,
		    "^(submodule\\..*\\.ignore|diff\\.ignoresubmodules)$",
		    &config);

	for (i = 0; i < ours.nr; i++) {
		const struct submodule *s = &ours.sub[i];
		const char *want, *have = ignore_of(s, &config);

		if (!s->path)
			continue;
		want = ignore_of(at_path(&merged, s->path), &config);
		if (same(want, have))
			continue;
		strvec_pushf(out, "GIT_CONFIG_KEY_%ld=submodule.%s.ignore",
			     nr + (long)added, s->name);
		strvec_pushf(out, "GIT_CONFIG_VALUE_%ld=%s", nr + (long)added,
			     want ? want : "none");
		added++;
	}
	if (added)
		strvec_pushf(out, "GIT_CONFIG_COUNT=%ld", nr + (long)added);
out:
	clear(&merged);
	clear(&ours);
	clear(&config);
	strbuf_release(&file);
	strbuf_release(&blob);
	strbuf_release(&spec);
	strbuf_release(&path);
}
