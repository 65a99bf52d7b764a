/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FETCHGATE_H
#define FETCHGATE_H

#include <stddef.h>

#include "strbuf.h"

/*
 * What a pull request says to fetch is untrusted: the gate it passes
 * before anything runs.
 *
 * fetchgate_check_url() accepts the transports a maintainer pulls over:
 * "https://", "http://", "git://", "ssh://" and scp-like
 * "[user@]host:path" (ssh; git's rule: a ':' with no '/' before it),
 * and with allow_local also "file://" and local paths.  It refuses: an
 * empty URL, a space or control character anywhere, a leading '-' (the
 * URL, a user, host or port, also inside "[...]", an scp-like path:
 * option injection into git or ssh), a '%' escape in the user, host or
 * port (what it decodes to is not what was checked),
 * "<transport>::" (remote helpers such as ext::, which run commands)
 * and every other scheme.  Scheme names are lowercase, as git's
 * transport code wants.  It does not rely on git or ssh refusing what
 * it lets through.
 *
 * fetchgate_check_ref() applies git's check_refname_format() with
 * --allow-onelevel (request-pull writes "master", "tags/v1.0"), and
 * refuses besides a ref starting with '-' (an option to git fetch) or
 * '+' (a forced refspec).  An absent ref (empty) means the remote's
 * HEAD and needs no check.
 *
 * The receiver's url.<base>.insteadOf rewrite what git fetch uses: the
 * URL they make of the request's must pass too (fetchgate_rewrite()
 * gives it, as git's remote.c alias_url() does).
 *
 * The caller still passes URL and ref after --end-of-options, restricts
 * transports for git itself (GIT_ALLOW_PROTOCOL) and never uses a shell.
 */
enum fetchgate_transport {
	FETCHGATE_HTTPS,
	FETCHGATE_HTTP,
	FETCHGATE_GIT,
	FETCHGATE_SSH,			/* ssh://... */
	FETCHGATE_SCP,			/* [user@]host:path, ssh too */
	FETCHGATE_FILE,			/* file://..., only with allow_local */
	FETCHGATE_LOCAL			/* a path, only with allow_local */
};

/* 0 and *kind (when kind is not NULL); -1 and *err (when err is not NULL). */
int fetchgate_check_url(const char *url, size_t len, int allow_local,
			enum fetchgate_transport *kind, const char **err);
int fetchgate_check_ref(const char *ref, size_t len, const char **err);

/* The receiver's url.<base>.insteadOf, in the order git reads them. */
struct fetchgate_rewrite {
	char *base, *prefix;
	size_t rank;			/* of the first entry with this base */
};

struct fetchgate_rewrites {
	struct fetchgate_rewrite *v;
	size_t nr, alloc;
};

#define FETCHGATE_REWRITES_INIT { NULL, 0, 0 }

void fetchgate_add_rewrite(struct fetchgate_rewrites *rw, const char *base,
			   const char *prefix);
void fetchgate_rewrites_release(struct fetchgate_rewrites *rw);

/*
 * The whole gate for url and ref (ref empty: none): 0, with the
 * transport of the URL git fetch uses (rewritten, or url itself) in
 * *kind when kind is not NULL; or -1 with the reason in why, the URL
 * named as it was refused (the request's, or the one an insteadOf
 * makes of it).
 */
int fetchgate_check(const struct fetchgate_rewrites *rw, const char *url,
		    const char *ref, int allow_local,
		    enum fetchgate_transport *kind, struct strbuf *why);

#endif
