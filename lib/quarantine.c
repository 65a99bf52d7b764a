// SPDX-License-Identifier: GPL-2.0-only
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "quarantine.h"
#include "quote.h"
#include "signals.h"
#include "strbuf.h"

static struct strbuf dir = STRBUF_INIT;

void quarantine_create(void)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf path = STRBUF_INIT;

	if (dir.len)
		return;		/* one for the whole run */
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (*tmp != '/') {
		char cwd[4096];

		if (!getcwd(cwd, sizeof(cwd)))
			die_errno("cannot find the current directory");
		strbuf_addf(&path, "%s/", cwd);
	}
	strbuf_addf(&path, "%s/git-clean-diffstat.XXXXXX", tmp);
	if (!mkdtemp(path.buf))
		die_errno("cannot create a temporary object directory in '%s'",
			  tmp);
	dir = path;
	at_cleanup(quarantine_remove);
}

const char *quarantine_path(void)
{
	return dir.len ? dir.buf : NULL;
}

void alternates_list(struct strbuf *list, const char *objdir)
{
	const char *old = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");

	/* git splits this list at ':' and unquotes entries that start with '"' */
	if (strchr(objdir, ':') || *objdir == '"')
		quote_c_always(list, objdir, strlen(objdir), 0);
	else
		strbuf_addstr(list, objdir);
	if (old && *old)
		strbuf_addf(list, ":%s", old);
}

void alternates_env(struct strvec *env, const char *objdir)
{
	struct strbuf alt = STRBUF_INIT;

	strbuf_addstr(&alt, "GIT_ALTERNATE_OBJECT_DIRECTORIES=");
	alternates_list(&alt, objdir);
	strvec_push(env, alt.buf);
	strbuf_release(&alt);
}

void quarantine_env(struct strvec *env, const char *objdir)
{
	strvec_pushf(env, "GIT_OBJECT_DIRECTORY=%s", dir.buf);
	/*
	 * As in receive-pack's quarantine: git then refuses every ref
	 * update, so that nothing (a textconv cache, say) can make a ref
	 * point to an object that goes away with this directory.
	 */
	strvec_pushf(env, "GIT_QUARANTINE_PATH=%s", dir.buf);
	alternates_env(env, objdir);
}

void quarantine_enter(const char *objdir)
{
	struct strvec env = STRVEC_INIT;
	struct strbuf name = STRBUF_INIT;
	size_t i;

	quarantine_create();
	quarantine_env(&env, objdir);
	for (i = 0; i < env.nr; i++) {
		const char *eq = strchr(env.v[i], '=');

		strbuf_reset(&name);
		strbuf_add(&name, env.v[i], (size_t)(eq - env.v[i]));
		if (setenv(name.buf, eq + 1, 1))
			die_errno("cannot set %s", name.buf);
	}
	strbuf_release(&name);
	strvec_clear(&env);
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP || flag == FTW_D || flag == FTW_DNR)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void quarantine_remove(void)
{
	if (!dir.len)
		return;
	nftw(dir.buf, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	strbuf_release(&dir);
}
