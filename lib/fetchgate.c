#include <string.h>

#include "fetchgate.h"

static int in_set(int ch, const char *set)
{
	return ch && strchr(set, ch);
}

static int is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static int is_alnum(int ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/*
 * "[user@]host[:port]" up to one of the stop bytes: a host, and no user,
 * host or port that starts with '-' (ssh would take it for an option).
 */
static const char *check_host(const char *s, size_t n, const char *stops)
{
	size_t end = 0, i, at = 0;

	while (end < n && !in_set(s[end], stops))
		end++;
	for (i = 0; i < end; i++) {
		if ((!i || s[i - 1] == '@' || s[i - 1] == ':') && s[i] == '-')
			return "user, host or port in URL starts with '-'";
		if (s[i] == '@')
			at = i + 1;
	}
	if (at == end)
		return "URL without a host";
	return NULL;
}

int pullmsg_check_url(const char *url, size_t len, int allow_local,
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
	const char *e = NULL, *dummy, *colon, *slash;
	enum fetchgate_transport k = FETCHGATE_LOCAL;
	size_t i, run = 0;

	if (!err)
		err = &dummy;
	if (!len)
		e = "empty URL";
	for (i = 0; !e && i < len; i++) {
		unsigned char ch = (unsigned char)url[i];

		if (ch < 0x20 || ch == 0x7f)
			e = "control character in URL";
		else if (ch == ' ')
			e = "space in URL";
	}
	if (!e && url[0] == '-')
		e = "URL starts with '-'";
	/* transport.c: a run of scheme characters, then "::" or "://" */
	while (!e && run < len && (is_alnum((unsigned char)url[run]) ||
				   (run && in_set(url[run], "+-."))))
		run++;
	if (e) {
		;
	} else if (len - run >= 2 && url[run] == ':' && url[run + 1] == ':') {
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
	if (e) {
		*err = e;
		return -1;
	}
	if (kind)
		*kind = k;
	return 0;
}

int pullmsg_check_ref(const char *ref, size_t len, const char **err)
{
	const char *e = NULL, *dummy;
	size_t i, start = 0;

	if (!err)
		err = &dummy;
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
		} else if (in_set(ch, " :?[\\^~*")) {
			e = "forbidden character in ref";
		} else if (ch == '.' && i && ref[i - 1] == '.') {
			e = "'..' in ref";
		} else if (ch == '{' && i && ref[i - 1] == '@') {
			e = "'@{' in ref";
		}
	}
	if (!e && ref[len - 1] == '.')
		e = "ref ends with '.'";
	if (e) {
		*err = e;
		return -1;
	}
	return 0;
}
