#ifndef FETCHGATE_H
#define FETCHGATE_H

#include <stddef.h>

/*
 * What a pull request says to fetch is untrusted
 * ----------------------------------------------
 *
 * pullmsg_check_url() accepts the transports a maintainer pulls over:
 * "https://", "http://", "git://", "ssh://" and scp-like "[user@]host:path"
 * (ssh; git's rule: a ':' with no '/' before it), and with allow_local
 * also "file://" and local paths.  It refuses: an empty URL, a space or
 * control character anywhere, a leading '-' (the URL, the host, an
 * scp-like path: option injection into git or ssh), "<transport>::"
 * (remote helpers such as ext::, which run commands) and every other
 * scheme.  Scheme names are lowercase, as git's transport code wants.
 *
 * pullmsg_check_ref() applies git's check_refname_format() with
 * --allow-onelevel (request-pull writes "master", "tags/v1.0": refs/
 * and heads/ are taken off), and refuses besides a ref starting with
 * '-' (an option to git fetch) or '+' (a forced refspec).  An absent
 * ref (empty) means the remote's HEAD and needs no check.
 *
 * The split with the caller: these are the first gate, before anything
 * runs.  The caller still passes URL and ref after "--" or
 * --end-of-options to git fetch, restricts transports for git itself
 * (GIT_ALLOW_PROTOCOL=https:http:git:ssh, plus file with allow_local),
 * never through a shell, and may run `git check-ref-format
 * --allow-onelevel <ref>` as a second opinion.  That command takes
 * neither "--" nor --end-of-options (an argument starting with '-' is
 * always a usage error there), so only a ref this function accepted,
 * which cannot start with '-', may be handed to it.
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
int pullmsg_check_url(const char *url, size_t len, int allow_local,
		      enum fetchgate_transport *kind, const char **err);
int pullmsg_check_ref(const char *ref, size_t len, const char **err);

#endif
