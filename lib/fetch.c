// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch.h"
#include "quarantine.h"
#include "quote.h"
#include "relay.h"

/* The scratch repository, in the quarantine; empty until made. */
static struct strbuf scratch = STRBUF_INIT;
/* GIT_ALTERNATE_OBJECT_DIRECTORIES before the scratch objects joined it */
static struct strbuf user_alternates = STRBUF_INIT;

void fetch_settings_cmd(struct child_process *cp, struct strbuf *out)
{
	strvec_pushl(&cp->args, "config", "-z", "--show-scope", "--includes",
		     "--list", NULL);
	cp->out = out;
	cp->no_stderr = 1;
}

/* Settings that make the scratch repository what it is: not handed on. */
static int own_setting(const char *key)
{
	static const char *const kept_out[] = {
		"core.repositoryformatversion", "core.bare", "core.worktree",
		"core.hookspath", "core.fsmonitor"
	};
	size_t i;

	for (i = 0; i < sizeof(kept_out) / sizeof(*kept_out); i++)
		if (!strcmp(key, kept_out[i]))
			return 0;
	return strncmp(key, "extensions.", 11) && strncmp(key, "include.", 8) &&
	       strncmp(key, "includeif.", 10);
}

/* A number of the configuration, from 0 to max; what names it in an error. */
static int config_number(const char *value, long max, const char *what)
{
	char *end;
	long n = value ? strtol(value, &end, 10) : -1;

	if (!value || end == value || *end || n < 0 || n > max)
		die("bad %s in the configuration: '%s'", what,
		    value ? value : "");
	return (int)n;
}

void fetch_settings_parse(struct fetch_settings *fs, int rc,
			  const struct strbuf *out)
{
	const char *p = out->buf, *end = out->buf + out->len;

	if (rc)				/* 1: there is none */
		return;
	/* <scope> NUL <key> [LF <value>] NUL ... */
	while (p < end) {
		const char *scope = p, *entry, *stop;
		char *key, *value;

		entry = memchr(p, '\0', (size_t)(end - p));
		if (!entry)
			break;
		entry++;
		stop = memchr(entry, '\0', (size_t)(end - entry));
		if (!stop)
			break;
		p = stop + 1;
		key = xstrdup(entry);
		value = strchr(key, '\n');
		if (value)
			*value++ = '\0';
		if (!strncmp(key, "url.", 4) && strlen(key) > 14 &&
		    !strcmp(key + strlen(key) - 10, ".insteadof") && value) {
			key[strlen(key) - 10] = '\0';
			fetchgate_add_rewrite(&fs->rewrites, key + 4, value);
			key[strlen(key)] = '.';
		} else if (!strcmp(key, "clean-diffstat.fetchtimeout")) {
			fs->timeout = config_number(value, 86400L * 365,
						    "number of seconds");
		} else if (!strcmp(key, "clean-diffstat.fetchstall")) {
			fs->stall = config_number(value, 86400L * 365,
						  "number of seconds");
		} else if (!strcmp(key, "clean-diffstat.jobs")) {
			fs->jobs = config_number(value, 1024,
						 "clean-diffstat.jobs");
		} else if (!strcmp(key, "core.gitproxy")) {
			fs->git_proxy = 1;
		}
		if ((!strcmp(scope, "local") || !strcmp(scope, "worktree")) &&
		    own_setting(key)) {
			strvec_push(&fs->own, key);
			/* a key alone is a boolean's true */
			strvec_push(&fs->own, value ? value : "true");
		}
		free(key);
	}
}

void fetch_settings_release(struct fetch_settings *fs)
{
	fetchgate_rewrites_release(&fs->rewrites);
	strvec_clear(&fs->own);
}

/* The repository's own settings, after any the environment has. */
static void own_settings_env(struct strvec *env, const struct strvec *own)
{
	const char *count = getenv("GIT_CONFIG_COUNT");
	long n = count ? strtol(count, NULL, 10) : 0;
	size_t i;

	if (n < 0)
		n = 0;
	for (i = 0; i + 1 < own->nr; i += 2, n++) {
		strvec_pushf(env, "GIT_CONFIG_KEY_%ld=%s", n, own->v[i]);
		strvec_pushf(env, "GIT_CONFIG_VALUE_%ld=%s", n, own->v[i + 1]);
	}
	strvec_pushf(env, "GIT_CONFIG_COUNT=%ld", n);
}

static void scratch_env(struct strvec *env, const char *objdir)
{
	strvec_pushf(env, "GIT_DIR=%s", scratch.buf);
	strvec_pushf(env, "GIT_OBJECT_DIRECTORY=%s/objects", scratch.buf);
	/* its refs are written: it is inside the quarantine, not in it */
	strvec_push(env, "GIT_QUARANTINE_PATH");
	alternates_env(env, objdir);
}

/* git init's error, between fetch_prepare_cmd() and fetch_prepared() */
static struct strbuf init_err = STRBUF_INIT;

void fetch_prepare_cmd(const struct pull *p, struct child_process *cp)
{
	if (scratch.len)
		BUG("the scratch repository is made twice");
	quarantine_create();
	strbuf_addf(&scratch, "%s/fetch.git", quarantine_path());
	strvec_pushl(&cp->args, "-c", "init.defaultRefFormat=files", "init", "-q",
		     "--bare", "--template=", "--initial-branch=main", NULL);
	strvec_pushf(&cp->args, "--object-format=%s",
		     p->upstream.oid.len == 64 ? "sha256" : "sha1");
	/* there, whatever the caller's environment names */
	strvec_pushf(&cp->env, "GIT_DIR=%s", scratch.buf);
	strvec_pushl(&cp->env, "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY",
		     "GIT_COMMON_DIR", "GIT_QUARANTINE_PATH", NULL);
	cp->err = &init_err;
}

void fetch_prepared(int rc)
{
	struct strbuf alt = STRBUF_INIT, path = STRBUF_INIT;

	if (rc)
		die_with_git("git init", rc, &init_err);
	strbuf_release(&init_err);
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

static void commit_cmd(struct child_process *cp, const char *spec,
		       struct strbuf *out)
{
	strvec_pushl(&cp->args, "log", "-1", "--no-walk", "--no-show-signature",
		     "--format=%H%n%s", "--end-of-options", NULL);
	strvec_pushf(&cp->args, "%s^{commit}", spec);
	cp->out = out;
	cp->no_stderr = 1;
}

void fetch_local_commit_cmd(struct child_process *cp, const char *spec,
			    struct strbuf *out)
{
	commit_cmd(cp, spec, out);
	if (scratch.len)		/* empty: none, as when unset */
		strvec_pushf(&cp->env, "GIT_ALTERNATE_OBJECT_DIRECTORIES=%s",
			     user_alternates.buf);
}

int commit_found(int rc, const struct strbuf *out, struct strbuf *oid,
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

void fetch_cmd(const struct fetch_settings *fs, const struct pull *p,
	       const struct fetch_request *rq, struct child_process *cp,
	       struct strbuf *err)
{
	const char *ref = *rq->ref ? rq->ref : "HEAD";

	if (!scratch.len)
		BUG("a fetch before the scratch repository is made");
	strvec_pushl(&cp->args, "-c", "gc.auto=0", "-c", "maintenance.auto=false",
		     "-c", "fetch.writeCommitGraph=false",
		     "-c", "transfer.fsckObjects=true",
		     "-c", "core.hooksPath=/dev/null", "fetch", "--progress",
		     "--no-tags", "--no-write-fetch-head",
		     "--no-recurse-submodules", "--end-of-options", rq->url, NULL);
	strvec_pushf(&cp->args, "+%s:refs/clean-diffstat/%zu", ref, rq->number);
	scratch_env(&cp->env, p->objdir.buf);
	own_settings_env(&cp->env, &fs->own);
	strvec_pushf(&cp->env, "GIT_ALLOW_PROTOCOL=https:http:git:ssh%s",
		     rq->allow_local ? ":file" : "");
	strvec_push(&cp->env, "GIT_TERMINAL_PROMPT=0");
	cp->err = err;
	cp->err_max = 65536;
	cp->timeout_ms = rq->timeout * 1000;
	cp->idle_ms = rq->stall * 1000;
	/*
	 * Over git://, through a relay of ours, unless the receiver has a
	 * proxy command of their own, which is then the fetch's as it
	 * would be git's.
	 */
	if (rq->stall && rq->transport == FETCHGATE_GIT && !fs->git_proxy &&
	    !getenv("GIT_PROXY_COMMAND")) {
		strvec_pushf(&cp->env, "GIT_PROXY_COMMAND=%s", relay_program());
		strvec_pushf(&cp->env, "%s=%d", RELAY_ENV, RUN_WATCH_FD);
		cp->watch = 1;
	}
	cp->no_stdout = 1;
}

int fetch_result(int rc, const struct strbuf *err, const struct pull *p,
		 const struct fetch_request *rq, struct strbuf *tip,
		 struct strbuf *subject, struct strbuf *why)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT, reason = STRBUF_INIT;
	const char *ref = *rq->ref ? rq->ref : "HEAD";

	if (rc) {
		run_said(&reason, err);
		strbuf_addf(why, "cannot fetch '%s' from '%s'", ref, rq->url);
		if (rc == RUN_TIMED_OUT)
			strbuf_addf(why, ": it took more than %d seconds",
				    rq->timeout);
		else if (rc == RUN_STALLED)
			strbuf_addf(why, ": nothing came for %d seconds",
				    rq->stall);
		else if (reason.len)
			strbuf_addf(why, ": %s", reason.buf);
		else
			strbuf_addf(why, ": git fetch failed (%s)",
				    run_describe(rc));
	} else {
		struct strbuf dst = STRBUF_INIT;

		strbuf_addf(&dst, "refs/clean-diffstat/%zu", rq->number);
		commit_cmd(&cp, dst.buf, &out);
		scratch_env(&cp.env, p->objdir.buf);
		if (commit_found(run_git(&cp), &out, tip, subject))
			strbuf_addf(why, "'%s' at '%s' is not a commit", ref,
				    rq->url);
		strbuf_release(&dst);
	}
	strbuf_release(&out);
	strbuf_release(&reason);
	return why->len ? -1 : 0;
}
