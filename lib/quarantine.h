/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef QUARANTINE_H
#define QUARANTINE_H

#include "strbuf.h"
#include "strvec.h"

/*
 * The quarantine: a private object directory for what merge-tree
 * writes, so that the repository itself never gains an object.
 *
 * quarantine_create() makes $TMPDIR/git-clean-diffstat.XXXXXX (TMPDIR
 * defaulting to /tmp) and arranges for it to be removed at exit and at
 * a fatal signal.  quarantine_env() pushes onto env the
 * GIT_OBJECT_DIRECTORY that sends new objects there, the
 * GIT_QUARANTINE_PATH that forbids ref updates, and the
 * GIT_ALTERNATE_OBJECT_DIRECTORIES that keep the repository's own
 * objects (objdir, an absolute path) and any alternates already named
 * in our environment readable.  quarantine_remove() may be called at
 * any time, more than once.  quarantine_create() again, before that,
 * keeps the one there is; quarantine_path() is its path (NULL: none).
 *
 * quarantine_enter() makes every git run after it, in every mode, run
 * in the quarantine: it creates it and sets in our own environment what
 * quarantine_env() would push, so that no git of ours can write an
 * object into the repository (a partial clone's lazy fetch included:
 * its pack lands in the quarantine) or update a ref.  A git that must
 * write elsewhere (the scratch repository of fetch.h) says so in its
 * own env, taking GIT_QUARANTINE_PATH away.
 *
 * alternates_list() appends to list a value for
 * GIT_ALTERNATE_OBJECT_DIRECTORIES: objdir first, quoted as git unquotes
 * it, then the alternates already named in our environment;
 * alternates_env() pushes that variable so set onto env.
 */

void quarantine_create(void);
void quarantine_env(struct strvec *env, const char *objdir);
void quarantine_enter(const char *objdir);
void quarantine_remove(void);
const char *quarantine_path(void);
void alternates_list(struct strbuf *list, const char *objdir);
void alternates_env(struct strvec *env, const char *objdir);

#endif
