// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "fetchgate.h"
#include "quote.h"
#include "str.h"
#include "usage.h"

static int is_alnum(int ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z');
}

/*
 * "[user@]host[:port]" up to one of the stop bytes: a host, and no user,
 * host or port that starts with '-' (ssh would take it for an option),
 * also as an IPv6 "[...]", and no '%' escape in them.
 */
static const char *check_host(const char *s, size_t n, const char *stops)
{
	size_t end = 0, i, at = 0;
	int bracket = 0;

	while (end < n && (bracket || !is_in_set(s[end], stops))) {
		if (s[end] == '[')
			bracket = 1;
		else if (s[end] == ']')
			bracket = 0;
		end++;
	}
	for (i = 0; i < end; i++) {
		if ((!i || is_in_set(s[i - 1], "@:[")) && s[i] == '-')
			return "user, host or port in URL starts with '-'";
		if (s[i] == '%')
			return "'%' escape in the user, host or port of the URL";
		if (s[i] == '@')
			at = i + 1;
	}
	if (at == end)
		return "URL without a host";
	return NULL;
}

/* Refuse: -1, with why in *err when err is not NULL. */
static int refuse(const char **err, const char *why)
{
	if (err)
		*err = why;
	return -1;
}

int fetchgate_check_url(const char *url, size_t len, int allow_local,
			enum fetchgate_transport *kind, const char **err)
{
	static const struct {
		const char *scheme;
		enum fetchgate_transport kind;
	} schemes[] = {
		{ "https", FETCHGATE_HTTPS },
		{ "http", FETCHGATE_HTTP },
		{ "git", FETCHGATE_GIT },
		{ "ssh", FETCHGATE_SSH },
		{ "file", FETCHGATE_FILE },
	};
	const char *e = NULL, *colon, *slash;
	enum fetchgate_transport k = FETCHGATE_LOCAL;
	size_t i, run = 0;

	if (!len)
		return refuse(err, "empty URL");
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)url[i];

		if (ch < 0x20 || ch == 0x7f)
			return refuse(err, "control character in URL");
		if (ch == ' ')
			return refuse(err, "space in URL");
	}
	if (url[0] == '-')
		return refuse(err, "URL starts with '-'");
	/* transport.c: a run of scheme characters, then "::" or "://" */
	while (run < len && (is_alnum((unsigned char)url[run]) ||
			     (run && is_in_set(url[run], "+-."))))
		run++;
	if (len - run >= 2 && url[run] == ':' && url[run + 1] == ':') {
		e = "remote-helper URL (<transport>::<address>) refused";
	} else if (run && len - run >= 3 && !memcmp(url + run, "://", 3)) {
		const char *rest = url + run + 3;
		size_t n = len - run - 3;

		for (i = 0; i < sizeof(schemes) / sizeof(*schemes); i++)
			if (strlen(schemes[i].scheme) == run &&
			    !memcmp(url, schemes[i].scheme, run))
				break;
		if (i == sizeof(schemes) / sizeof(*schemes)) {
			e = "transport refused (https, http, git and ssh only)";
		} else if ((k = schemes[i].kind) == FETCHGATE_FILE) {
			if (!allow_local)
				e = "local repository (file://) refused without allow-local";
			else if (n && rest[0] == '-')
				e = "path in URL starts with '-'";
		} else {
			e = check_host(rest, n, "/");
		}
	} else if ((colon = memchr(url, ':', len)) &&
		   (!(slash = memchr(url, '/', len)) || slash > colon)) {
		k = FETCHGATE_SCP;		/* [user@]host:path */
		e = check_host(url, len, ":");
		if (!e && colon + 1 < url + len && colon[1] == '-')
			e = "path in URL starts with '-'";
	} else if (!allow_local) {
		e = "local repository path refused without allow-local";
	}
	if (e)
		return refuse(err, e);
	if (kind)
		*kind = k;
	return 0;
}

int fetchgate_check_ref(const char *ref, size_t len, const char **err)
{
	const char *e = NULL;
	size_t i, start = 0;

	if (!len)
		e = "empty ref";
	else if (ref[0] == '-')
		e = "ref starts with '-'";
	else if (ref[0] == '+')
		e = "ref starts with '+'";
	else if (len == 1 && ref[0] == '@')
		e = "ref is '@'";
	for (i = 0; !e && i <= len; i++) {
		unsigned char ch = i < len ? (unsigned char)ref[i] : '/';

		if (ch == '/') {		/* the end of a component */
			if (i == start)
				e = "empty component in ref";
			else if (ref[start] == '.')
				e = "ref component starts with '.'";
			else if (i - start >= 5 && !memcmp(ref + i - 5, ".lock", 5))
				e = "ref component ends with '.lock'";
			start = i + 1;
		} else if (ch < 0x20 || ch == 0x7f) {
			e = "control character in ref";
		} else if (is_in_set(ch, " :?[\\^~*")) {
			e = "forbidden character in ref";
		} else if (ch == '.' && i && ref[i - 1] == '.') {
			e = "'..' in ref";
		} else if (ch == '{' && i && ref[i - 1] == '@') {
			e = "'@{' in ref";
		}
	}
	if (!e && ref[len - 1] == '.')
		e = "ref ends with '.'";
	return e ? refuse(err, e) : 0;
}

void fetchgate_add_rewrite(struct fetchgate_rewrites *rw, const char *base,
			   const char *prefix)
{
	size_t i;

	for (i = 0; i < rw->nr; i++)
		if (!strcmp(rw->v[i].base, base))
			break;
	ALLOC_GROW(rw->v, rw->nr + 1, rw->alloc);
	rw->v[rw->nr].base = xstrdup(base);
	rw->v[rw->nr].prefix = xstrdup(prefix);
	rw->v[rw->nr].rank = i < rw->nr ? rw->v[i].rank : i;
	rw->nr++;
}

void fetchgate_rewrites_release(struct fetchgate_rewrites *rw)
{
	size_t i;

	for (i = 0; i < rw->nr; i++) {
		free(rw->v[i].base);
		free(rw->v[i].prefix);
	}
	free(rw->v);
	rw->v = NULL;
	rw->nr = rw->alloc = 0;
}

/*
 * url rewritten as git's remote.c alias_url() does: the longest
 * insteadOf that is a prefix of it wins, among equals the base git
 * saw first.  NULL when none applies.
 */
static const struct fetchgate_rewrite *rewrite_of(const struct fetchgate_rewrites *rw,
						  const char *url)
{
	const struct fetchgate_rewrite *best = NULL;
	size_t i;

	for (i = 0; i < rw->nr; i++) {
		const struct fetchgate_rewrite *r = &rw->v[i];
		size_t len = strlen(r->prefix);

		if (strncmp(url, r->prefix, len))
			continue;
		if (!best || strlen(best->prefix) < len ||
		    (strlen(best->prefix) == len && r->rank < best->rank))
			best = r;
	}
	return best;
}

int fetchgate_check(const struct fetchgate_rewrites *rw, const char *url,
		    const char *ref, int allow_local,
		    enum fetchgate_transport *kind, struct strbuf *why)
{
	const struct fetchgate_rewrite *r = rewrite_of(rw, url);
	struct strbuf used = STRBUF_INIT;
	const char *e;

	if (fetchgate_check_url(url, strlen(url), allow_local, kind, &e)) {
		strbuf_addstr(why, "refusing to fetch from ");
		quote_arg(why, url, strlen(url));
	} else if (*ref && fetchgate_check_ref(ref, strlen(ref), &e)) {
		strbuf_addstr(why, "refusing to fetch ");
		quote_arg(why, ref, strlen(ref));
	} else if (!r) {
		return 0;
	} else {
		strbuf_addf(&used, "%s%s", r->base, url + strlen(r->prefix));
		if (!fetchgate_check_url(used.buf, used.len, allow_local, kind,
					 &e)) {
			strbuf_release(&used);
			return 0;
		}
		strbuf_addstr(why, "refusing to fetch from ");
		quote_arg(why, used.buf, used.len);
		strbuf_addstr(why, " (url.");
		quote_shown(why, r->base, strlen(r->base));
		strbuf_addstr(why, ".insteadOf of ");
		quote_arg(why, url, strlen(url));
		strbuf_addch(why, ')');
	}
	strbuf_addf(why, ": %s", e);
	strbuf_release(&used);
	return -1;
}
