#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pullmsg.h"

/* Deeper nesting of multiparts and forwarded messages is not looked into. */
#define MAX_DEPTH 16

static const char SINCE[] = "The following changes since commit ";
static const char AVAILABLE[] = "are available in the git repository at:";
static const char UPTO[] = "for you to fetch changes up to ";
static const char DESCRIPTION[] = "(from the branch description for ";
static const char empty[] = "";

/* ------------------------------------------------------------------ */
/* Memory: a growing buffer, and what a parse keeps in res->owned_.    */

struct buf {
	char *s;
	size_t len, alloc;
	int oom;
};

#define BUF_INIT { NULL, 0, 0, 0 }

static void buf_add(struct buf *b, const void *s, size_t n)
{
	if (b->oom || !n)
		return;
	if (n > (size_t)-1 / 2 - b->len) {
		b->oom = 1;
		return;
	}
	if (b->len + n + 1 > b->alloc) {
		size_t want = b->len + n + 1;
		char *grown;

		if (want < 2 * b->alloc)
			want = 2 * b->alloc;
		if (want < 64)
			want = 64;
		grown = realloc(b->s, want);
		if (!grown) {
			b->oom = 1;
			return;
		}
		b->s = grown;
		b->alloc = want;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_addch(struct buf *b, int ch)
{
	char c = (char)ch;

	buf_add(b, &c, 1);
}

static void buf_release(struct buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->alloc = 0;
}

struct ctx {
	struct pullmsg_list *res;
	int oom;
};

/* Hand b's memory to the result; its bytes as a string (empty: NULL). */
static struct pullmsg_str keep(struct ctx *c, struct buf *b)
{
	struct pullmsg_list *res = c->res;
	struct pullmsg_str str = { empty, 0 };

	if (b->oom)
		c->oom = 1;
	if (b->oom || !b->len) {
		buf_release(b);
		return str;
	}
	if (res->nr_owned_ == res->alloc_owned_) {
		size_t alloc = res->alloc_owned_ ? 2 * res->alloc_owned_ : 16;
		char **grown = realloc(res->owned_, alloc * sizeof(*grown));

		if (!grown) {
			c->oom = 1;
			buf_release(b);
			return str;
		}
		res->owned_ = grown;
		res->alloc_owned_ = alloc;
	}
	res->owned_[res->nr_owned_++] = b->s;
	str.s = b->s;
	str.len = b->len;
	b->s = NULL;
	b->len = b->alloc = 0;
	return str;
}

/* ------------------------------------------------------------------ */
/* Bytes and lines.                                                    */

static struct pullmsg_str mkstr(const char *s, size_t n)
{
	struct pullmsg_str str;

	str.s = n ? s : empty;
	str.len = n;
	return str;
}

/* Is ch one of the bytes of set (never NUL)? */
static int in_set(int ch, const char *set)
{
	return ch && strchr(set, ch);
}

static int is_space(int ch)
{
	return ch == ' ' || ch == '\t';
}

static int is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static int lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

static int hexval(int ch)
{
	if (is_digit(ch))
		return ch - '0';
	ch = lower(ch);
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* Does s (n bytes) equal the NUL-terminated word, ignoring case? */
static int eq_ci(const char *s, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!word[i] || lower((unsigned char)s[i]) != lower((unsigned char)word[i]))
			return 0;
	return !word[n];
}

static int starts_with(struct pullmsg_str l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l.len >= n && !memcmp(l.s, prefix, n);
}

static struct pullmsg_str trim(struct pullmsg_str l)
{
	while (l.len && (is_space(l.s[0]) || l.s[0] == '\r' || l.s[0] == '\n')) {
		l.s++;
		l.len--;
	}
	while (l.len && (is_space(l.s[l.len - 1]) || l.s[l.len - 1] == '\r' ||
			 l.s[l.len - 1] == '\n'))
		l.len--;
	return mkstr(l.s, l.len);
}

static int is_blank(struct pullmsg_str l)
{
	return !trim(l).len;
}

/*
 * The line at *p (before end), without its "\n" or "\r\n"; *p moves
 * past it.  Returns whether a newline ended it.
 */
static int next_line(const char **p, const char *end, struct pullmsg_str *line)
{
	const char *s = *p, *nl = memchr(s, '\n', (size_t)(end - s));
	const char *e = nl ? nl : end;

	*p = nl ? nl + 1 : end;
	if (e > s && e[-1] == '\r')
		e--;
	line->s = s;
	line->len = (size_t)(e - s);
	return nl != NULL;
}

/* A decimal number of at most 18 digits at s (n bytes): its length, or 0. */
static size_t parse_num(const char *s, size_t n, long *out)
{
	size_t i;
	long v = 0;

	for (i = 0; i < n && is_digit(s[i]); i++) {
		if (i == 18)
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return i;
}

/* ------------------------------------------------------------------ */
/* Decoders: quoted-printable, base64, CRLF, format=flowed, RFC 2047.  */

static void qp_decode(struct buf *out, const char *p, const char *end)
{
	while (p < end) {
		struct pullmsg_str l;
		int nl = next_line(&p, end, &l), soft = 0;
		size_t i;

		/* trailing white space is the transport's (RFC 2045 6.7) */
		while (l.len && is_space(l.s[l.len - 1]))
			l.len--;
		if (l.len && l.s[l.len - 1] == '=') {
			soft = 1;
			l.len--;
		}
		for (i = 0; i < l.len; i++) {
			int hi, lo;

			if (l.s[i] == '=' && i + 2 < l.len &&
			    (hi = hexval((unsigned char)l.s[i + 1])) >= 0 &&
			    (lo = hexval((unsigned char)l.s[i + 2])) >= 0) {
				buf_addch(out, hi << 4 | lo);
				i += 2;
			} else {
				buf_addch(out, l.s[i]);
			}
		}
		if (nl && !soft)
			buf_addch(out, '\n');
	}
}

static int b64val(int ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (is_digit(ch))
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	if (ch == '/')
		return 63;
	return -1;
}

static void b64_decode(struct buf *out, const char *s, size_t n)
{
	unsigned long v = 0;
	int bits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int d = b64val((unsigned char)s[i]);

		if (s[i] == '=') {	/* padding: the group is over */
			bits = 0;
			v = 0;
			continue;
		}
		if (d < 0)
			continue;
		v = (v << 6 | (unsigned long)d) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_addch(out, (int)(v >> bits & 0xff));
		}
	}
}

/* "\r\n" becomes "\n", in place. */
static void crlf_to_lf(struct buf *b)
{
	size_t i, j = 0;

	for (i = 0; i < b->len; i++) {
		if (b->s[i] == '\r' && i + 1 < b->len && b->s[i + 1] == '\n')
			continue;
		b->s[j++] = b->s[i];
	}
	b->len = j;
	if (b->s)
		b->s[j] = '\0';
}

/*
 * Undo format=flowed (RFC 3676): a line ending in a space goes on in
 * the next (that space dropped with delsp=yes), a leading space is
 * stuffing.  Quoted lines (">") are left as they are.
 */
static void unflow(struct buf *out, const char *p, const char *end, int delsp)
{
	int flowed = 0;

	while (p < end) {
		struct pullmsg_str l;
		int nl = next_line(&p, end, &l);

		if (l.len && l.s[0] == '>') {
			if (flowed)	/* a quote ends a flowed paragraph */
				buf_addch(out, '\n');
			flowed = 0;
			buf_add(out, l.s, l.len);
			if (nl)
				buf_addch(out, '\n');
			continue;
		}
		if (l.len && l.s[0] == ' ') {
			l.s++;
			l.len--;
		}
		flowed = l.len && l.s[l.len - 1] == ' ' &&
			 !(l.len == 3 && !memcmp(l.s, "-- ", 3));
		if (flowed && delsp)
			l.len--;
		buf_add(out, l.s, l.len);
		if (nl && !flowed)
			buf_addch(out, '\n');
	}
}

/*
 * One RFC 2047 encoded word "=?charset?e?text?=" at s (n bytes) decoded
 * into out: its length, or 0 when it is not one we decode.
 */
static size_t encoded_word(struct buf *out, const char *s, size_t n)
{
	size_t i, cs_end, text, text_end;
	int enc, latin1;
	struct buf raw = BUF_INIT;

	if (n < 8 || s[0] != '=' || s[1] != '?')
		return 0;
	for (i = 2; i < n && s[i] != '?' && s[i] != '*'; i++)
		if (is_space(s[i]))
			return 0;
	cs_end = i;
	while (i < n && s[i] != '?')		/* RFC 2231 "*language" */
		i++;
	if (i + 3 >= n || s[i + 2] != '?')
		return 0;
	enc = lower((unsigned char)s[i + 1]);
	text = i + 3;
	for (i = text; i + 1 < n && !(s[i] == '?' && s[i + 1] == '='); i++)
		if (is_space(s[i]))
			return 0;
	if (i + 1 >= n)
		return 0;
	text_end = i;
	latin1 = eq_ci(s + 2, cs_end - 2, "iso-8859-1") ||
		 eq_ci(s + 2, cs_end - 2, "latin1");
	if (!latin1 && !eq_ci(s + 2, cs_end - 2, "utf-8") &&
	    !eq_ci(s + 2, cs_end - 2, "utf8") &&
	    !eq_ci(s + 2, cs_end - 2, "us-ascii"))
		return 0;
	if (enc == 'b') {
		b64_decode(&raw, s + text, text_end - text);
	} else if (enc == 'q') {
		for (i = text; i < text_end; i++) {
			int hi, lo;

			if (s[i] == '_') {
				buf_addch(&raw, ' ');
			} else if (s[i] == '=' && i + 2 < text_end &&
				   (hi = hexval((unsigned char)s[i + 1])) >= 0 &&
				   (lo = hexval((unsigned char)s[i + 2])) >= 0) {
				buf_addch(&raw, hi << 4 | lo);
				i += 2;
			} else {
				buf_addch(&raw, s[i]);
			}
		}
	} else {
		return 0;
	}
	if (raw.oom)
		out->oom = 1;
	for (i = 0; i < raw.len; i++) {
		unsigned char ch = (unsigned char)raw.s[i];

		if (latin1 && ch >= 0x80) {
			buf_addch(out, 0xc0 | ch >> 6);
			buf_addch(out, 0x80 | (ch & 0x3f));
		} else {
			buf_addch(out, ch);
		}
	}
	buf_release(&raw);
	return text_end + 2;
}

/* A header field's value: unfolded, trimmed, encoded words decoded. */
static struct pullmsg_str header_value(struct ctx *c, struct pullmsg_str raw,
				       int decode)
{
	struct buf unfolded = BUF_INIT, out = BUF_INIT;
	struct pullmsg_str v;
	size_t i, ws = 0;
	int after_word = 0;

	for (i = 0; i < raw.len; i++)
		if (raw.s[i] != '\r' && raw.s[i] != '\n')
			buf_addch(&unfolded, raw.s[i]);
	v = trim(mkstr(unfolded.s, unfolded.len));
	for (i = 0; i < v.len; i++) {
		struct buf word = BUF_INIT;
		size_t n = 0;

		if (decode && v.s[i] == '=')
			n = encoded_word(&word, v.s + i, v.len - i);
		if (n) {
			/* white space between two encoded words goes */
			if (after_word)
				out.len -= ws;
			buf_add(&out, word.s, word.len);
			if (word.oom)
				out.oom = 1;
			buf_release(&word);
			i += n - 1;
			after_word = 1;
			ws = 0;
			continue;
		}
		buf_release(&word);
		buf_addch(&out, v.s[i]);
		if (is_space(v.s[i])) {
			ws++;
		} else {
			ws = 0;
			after_word = 0;
		}
	}
	if (out.s)
		out.s[out.len] = '\0';
	if (unfolded.oom)
		out.oom = 1;
	buf_release(&unfolded);
	return keep(c, &out);
}

/* ------------------------------------------------------------------ */
/* Headers and MIME.                                                   */

struct header {
	struct pullmsg_str content_type, encoding;	/* raw, maybe folded */
	struct pullmsg_str subject, from, message_id, date;
};

static void header_init(struct header *h)
{
	h->content_type = h->encoding = mkstr(NULL, 0);
	h->subject = h->from = h->message_id = h->date = mkstr(NULL, 0);
}

/* The length of the field name of a header line "Name: value", or 0. */
static size_t field_name(struct pullmsg_str l)
{
	size_t i;

	for (i = 0; i < l.len; i++) {
		unsigned char ch = (unsigned char)l.s[i];

		if (ch == ':')
			return i;
		if (ch <= ' ' || ch > '~')
			return 0;
	}
	return 0;
}

/*
 * Read the header at *p: field lines and continuations up to an empty
 * line, which is consumed.  With strict, anything else before the
 * empty line means there is no header: -1, *p unmoved.  Otherwise such
 * a line starts the body.
 */
static int read_header(const char **pp, const char *end, struct header *h,
		       int strict)
{
	const char *p = *pp;
	struct pullmsg_str *field = NULL;
	int in_field = 0;

	header_init(h);
	while (p < end) {
		const char *start = p;
		struct pullmsg_str l;
		size_t n;

		next_line(&p, end, &l);
		if (!l.len)
			break;
		if (is_space(l.s[0]) && in_field) {	/* a continuation */
			if (field)
				field->len = (size_t)(l.s + l.len - field->s);
			continue;
		}
		n = field_name(l);
		if (!n) {
			if (strict)
				return -1;
			p = start;
			break;
		}
		if (eq_ci(l.s, n, "content-type"))
			field = &h->content_type;
		else if (eq_ci(l.s, n, "content-transfer-encoding"))
			field = &h->encoding;
		else if (eq_ci(l.s, n, "subject"))
			field = &h->subject;
		else if (eq_ci(l.s, n, "from"))
			field = &h->from;
		else if (eq_ci(l.s, n, "message-id"))
			field = &h->message_id;
		else if (eq_ci(l.s, n, "date"))
			field = &h->date;
		else
			field = NULL;
		if (field) {
			field->s = l.s + n + 1;
			field->len = l.len - n - 1;
		}
		in_field = 1;
	}
	*pp = p;
	return 0;
}

static int is_wsp(int ch)
{
	return is_space(ch) || ch == '\r' || ch == '\n';
}

/* The media type of a Content-Type value: "type/subtype", lowercase compare. */
static struct pullmsg_str media_type(struct pullmsg_str v)
{
	size_t i = 0, start;

	while (i < v.len && is_wsp(v.s[i]))
		i++;
	start = i;
	while (i < v.len && v.s[i] != ';' && !is_wsp(v.s[i]))
		i++;
	return mkstr(v.s + start, i - start);
}

static int type_is(struct pullmsg_str type, const char *want)
{
	size_t n = strlen(want);

	if (want[n - 1] == '/')		/* "multipart/": any subtype */
		return type.len >= n && eq_ci(type.s, n, want);
	return eq_ci(type.s, type.len, want);
}

/* The value of parameter `name` of a Content-Type value, unquoted, in out. */
static int get_param(struct pullmsg_str v, const char *name, struct buf *out)
{
	size_t i = 0;

	while (i < v.len) {
		size_t ns, ne;

		while (i < v.len && v.s[i] != ';')
			if (v.s[i++] == '"') {		/* a quoted string */
				while (i < v.len && v.s[i] != '"')
					i += v.s[i] == '\\' ? 2 : 1;
				i++;
			}
		if (i >= v.len)
			return 0;
		i++;
		while (i < v.len && is_wsp(v.s[i]))
			i++;
		ns = i;
		while (i < v.len && v.s[i] != '=' && v.s[i] != ';' && !is_wsp(v.s[i]))
			i++;
		ne = i;
		while (i < v.len && is_wsp(v.s[i]))
			i++;
		if (i >= v.len || v.s[i] != '=')
			continue;
		i++;
		while (i < v.len && is_wsp(v.s[i]))
			i++;
		if (!eq_ci(v.s + ns, ne - ns, name))
			continue;
		out->len = 0;
		if (i < v.len && v.s[i] == '"') {
			for (i++; i < v.len && v.s[i] != '"'; i++) {
				if (v.s[i] == '\\' && i + 1 < v.len)
					i++;
				if (v.s[i] != '\r' && v.s[i] != '\n')
					buf_addch(out, v.s[i]);
			}
		} else {
			while (i < v.len && v.s[i] != ';' && !is_wsp(v.s[i]))
				buf_addch(out, v.s[i++]);
		}
		return out->len > 0;
	}
	return 0;
}

/* Is line the delimiter "--boundary" or, setting *close, "--boundary--"? */
static int is_delimiter(struct pullmsg_str l, const struct buf *boundary,
			int *close)
{
	size_t i = boundary->len + 2;

	if (l.len < i || l.s[0] != '-' || l.s[1] != '-' ||
	    memcmp(l.s + 2, boundary->s, boundary->len))
		return 0;
	*close = l.len >= i + 2 && l.s[i] == '-' && l.s[i + 1] == '-';
	if (*close)
		i += 2;
	for (; i < l.len; i++)
		if (!is_space(l.s[i]))
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Printed names: C quoting and renames, as git's diff.c prints them.  */

static int must_quote(unsigned char ch, int quotepath)
{
	return ch < 0x20 || ch == '"' || ch == '\\' || ch == 0x7f ||
	       (ch >= 0x80 && quotepath);
}

static int needs_quoting(const char *s, size_t n, int quotepath)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (must_quote((unsigned char)s[i], quotepath))
			return 1;
	return 0;
}

/* quote.c, quote_c_style(): the name, or "..." with C escapes. */
static void quote_c(struct buf *b, const char *s, size_t n, int quotepath)
{
	static const char letters[] = "abtnvfr";	/* 0x07 to 0x0d */
	size_t i;

	if (!needs_quoting(s, n, quotepath)) {
		buf_add(b, s, n);
		return;
	}
	buf_addch(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (!must_quote(ch, quotepath)) {
			buf_addch(b, ch);
			continue;
		}
		buf_addch(b, '\\');
		if (ch == '"' || ch == '\\') {
			buf_addch(b, ch);
		} else if (ch >= 0x07 && ch <= 0x0d) {
			buf_addch(b, letters[ch - 0x07]);
		} else {
			buf_addch(b, '0' + (ch >> 6 & 03));
			buf_addch(b, '0' + (ch >> 3 & 07));
			buf_addch(b, '0' + (ch & 07));
		}
	}
	buf_addch(b, '"');
}

/* diff.c, pprint_rename(), on counted strings. */
static void pprint_rename(struct buf *out, const char *a, size_t len_a,
			  const char *b, size_t len_b, int quotepath)
{
	ptrdiff_t pfx = 0, sfx = 0, adjust, i, j, a_mid, b_mid;

	if (needs_quoting(a, len_a, quotepath) ||
	    needs_quoting(b, len_b, quotepath)) {
		quote_c(out, a, len_a, quotepath);
		buf_add(out, " => ", 4);
		quote_c(out, b, len_b, quotepath);
		return;
	}
	/* the common prefix, up to its last '/' */
	for (i = 0; (size_t)i < len_a && (size_t)i < len_b && a[i] == b[i]; i++)
		if (a[i] == '/')
			pfx = i + 1;
	/*
	 * The common suffix, from a '/': from the terminating NULs back,
	 * and one into the prefix to see its slash when there is one.
	 */
	adjust = pfx ? 1 : 0;
	i = (ptrdiff_t)len_a;
	j = (ptrdiff_t)len_b;
	while (pfx - adjust <= i && pfx - adjust <= j &&
	       ((size_t)i == len_a ? '\0' : a[i]) ==
	       ((size_t)j == len_b ? '\0' : b[j])) {
		if ((size_t)i < len_a && a[i] == '/')
			sfx = (ptrdiff_t)len_a - i;
		i--;
		j--;
	}
	a_mid = (ptrdiff_t)len_a - pfx - sfx;
	b_mid = (ptrdiff_t)len_b - pfx - sfx;
	if (a_mid < 0)
		a_mid = 0;
	if (b_mid < 0)
		b_mid = 0;
	if (pfx + sfx) {
		buf_add(out, a, (size_t)pfx);
		buf_addch(out, '{');
	}
	buf_add(out, a + pfx, (size_t)a_mid);
	buf_add(out, " => ", 4);
	buf_add(out, b + pfx, (size_t)b_mid);
	if (pfx + sfx) {
		buf_addch(out, '}');
		buf_add(out, a + len_a - sfx, (size_t)sfx);
	}
}

char *pullmsg_stat_name(const char *path, size_t path_len,
			const char *from, size_t from_len, int quotepath,
			size_t *len)
{
	struct buf b = BUF_INIT;

	if (from_len)
		pprint_rename(&b, from, from_len, path, path_len, quotepath);
	else
		quote_c(&b, path, path_len, quotepath);
	buf_addch(&b, '\0');
	if (b.oom) {
		buf_release(&b);
		return NULL;
	}
	*len = b.len - 1;
	return b.s;
}

enum pullmsg_match pullmsg_name_matches(const char *name, size_t name_len,
					const char *path, size_t path_len,
					const char *from, size_t from_len)
{
	enum pullmsg_match found = PULLMSG_NO_MATCH;
	int quotepath;

	while (name_len && name[name_len - 1] == ' ')
		name_len--;
	for (quotepath = 1; quotepath >= 0 && !found; quotepath--) {
		size_t len;
		char *full = pullmsg_stat_name(path, path_len, from, from_len,
					       quotepath, &len);

		if (!full)
			return PULLMSG_NO_MATCH;
		while (len && full[len - 1] == ' ')
			len--;
		if (len == name_len && !memcmp(full, name, len)) {
			found = PULLMSG_MATCH;
		} else if (name_len >= 3 && !memcmp(name, "...", 3)) {
			const char *tail = name + 3;
			size_t n = name_len - 3;

			/* git cut the name at a column, then at a '/' after it */
			if (n < len && !memcmp(full + len - n, tail, n) &&
			    (!n || tail[0] == '/' || !memchr(tail, '/', n)))
				found = PULLMSG_MATCH_ABBREV;
		}
		free(full);
	}
	return found;
}

/* unquote_c_style(): the quoted string at *i in s (n bytes) into out. */
static int unquote_c(const char *s, size_t n, size_t *i, struct buf *out)
{
	size_t k = *i;

	if (k >= n || s[k] != '"')
		return -1;
	for (k++; k < n; k++) {
		unsigned char ch = (unsigned char)s[k];
		static const char letters[] = "abtnvfr";	/* 0x07 to 0x0d */

		if (ch == '"') {
			*i = k + 1;
			return 0;
		}
		if (ch != '\\') {
			buf_addch(out, ch);
			continue;
		}
		if (++k >= n)
			return -1;
		ch = (unsigned char)s[k];
		if (in_set(ch, letters)) {
			buf_addch(out, 0x07 + (int)(strchr(letters, ch) - letters));
		} else if (ch == '"' || ch == '\\') {
			buf_addch(out, ch);
		} else if (ch >= '0' && ch <= '3' && k + 2 < n &&
			   s[k + 1] >= '0' && s[k + 1] <= '7' &&
			   s[k + 2] >= '0' && s[k + 2] <= '7') {
			buf_addch(out, (ch - '0') << 6 | (s[k + 1] - '0') << 3 |
				       (s[k + 2] - '0'));
			k += 2;
		} else {
			return -1;
		}
	}
	return -1;
}

static const char *find(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), i;

	for (i = 0; i + m <= n; i++)
		if (!memcmp(s + i, needle, m))
			return s + i;
	return NULL;
}

/*
 * The paths a complete printed name stands for (see struct pullmsg_row):
 * undo quote_c() and pprint_rename().  Unquoted names point into the
 * body; the others are kept copies.  Left empty when it cannot be told.
 */
static void name_paths(struct ctx *c, struct pullmsg_str name,
		       struct pullmsg_str *path, struct pullmsg_str *from)
{
	const char *s = name.s, *arrow;
	size_t n = name.len, i;

	*path = *from = mkstr(NULL, 0);
	if (!n)
		return;
	if (memchr(s, '"', n)) {		/* "a" => "b", a => "b", "a" */
		struct buf part[2] = { BUF_INIT, BUF_INIT };
		int k;

		i = 0;
		for (k = 0; k < 2; k++) {
			if (s[i] == '"') {
				if (unquote_c(s, n, &i, &part[k]))
					break;
			} else {
				arrow = find(s + i, n - i, " => ");
				if (!arrow || memchr(s + i, '"', (size_t)(arrow - s) - i))
					break;
				buf_add(&part[k], s + i, (size_t)(arrow - s) - i);
				i = (size_t)(arrow - s);
			}
			if (i == n || n - i < 5 || memcmp(s + i, " => ", 4))
				break;
			i += 4;
		}
		if (i == n && k == 0) {
			*path = keep(c, &part[0]);
		} else if (i == n && k == 1) {
			*from = keep(c, &part[0]);
			*path = keep(c, &part[1]);
		}
		buf_release(&part[0]);
		buf_release(&part[1]);
		return;
	}
	for (i = 0; i < n; i++) {		/* pfx{a => b}sfx */
		const char *close;
		struct buf a = BUF_INIT, b = BUF_INIT;
		size_t pfx = i, sfx_at, sfx;

		if (s[i] != '{' || (i && s[i - 1] != '/'))
			continue;
		arrow = find(s + i, n - i, " => ");
		if (!arrow)
			break;
		for (close = arrow + 4; close < s + n; close++)
			if (*close == '}' && (close + 1 == s + n || close[1] == '/'))
				break;
		if (close == s + n)
			continue;
		sfx_at = (size_t)(close + 1 - s);
		sfx = n - sfx_at;
		if (!pfx && !sfx)
			continue;
		buf_add(&a, s, pfx);
		buf_add(&a, s + i + 1, (size_t)(arrow - s) - i - 1);
		buf_add(&b, s, pfx);
		buf_add(&b, arrow + 4, (size_t)(close - arrow) - 4);
		/* an empty middle: prefix and suffix share their slash */
		if (a.len == pfx && pfx && sfx)
			a.len--;
		if (b.len == pfx && pfx && sfx)
			b.len--;
		buf_add(&a, s + sfx_at, sfx);
		buf_add(&b, s + sfx_at, sfx);
		*from = keep(c, &a);
		*path = keep(c, &b);
		return;
	}
	arrow = find(s, n, " => ");
	if (arrow) {				/* a => b */
		*from = mkstr(s, (size_t)(arrow - s));
		*path = mkstr(arrow + 4, n - (size_t)(arrow - s) - 4);
	} else {
		*path = name;
	}
}

/* A printed name that is one path: unquoted. */
static struct pullmsg_str one_path(struct ctx *c, struct pullmsg_str name)
{
	struct buf b = BUF_INIT;
	size_t i = 0;

	if (!name.len || name.s[0] != '"')
		return name;
	if (unquote_c(name.s, name.len, &i, &b) || i != name.len) {
		buf_release(&b);
		return mkstr(NULL, 0);
	}
	return keep(c, &b);
}

/* ------------------------------------------------------------------ */
/* The pull request in a body.                                         */

static int is_separator(struct pullmsg_str l)
{
	size_t i;

	l = trim(l);
	if (l.len != 64)
		return 0;
	for (i = 0; i < 64; i++)
		if (l.s[i] != '-')
			return 0;
	return 1;
}

/* "<hex id>[:]" and nothing else: the id, or an empty string. */
static struct pullmsg_str commit_id(struct pullmsg_str rest)
{
	size_t i = 0;

	struct pullmsg_str after;

	while (i < rest.len && hexval((unsigned char)rest.s[i]) >= 0)
		i++;
	after = trim(mkstr(rest.s + i, rest.len - i));
	if (i < 7 || i > 64 || after.len > 1 || (after.len && after.s[0] != ':'))
		return mkstr(NULL, 0);
	return mkstr(rest.s, i);
}

/* " <N> file(s) changed[, <I> insertion(s)(+)][, <D> deletion(s)(-)]" */
static int parse_total(struct pullmsg_str l, long *files, long *ins, long *del)
{
	const char *s = l.s;
	size_t n = l.len, i = 1, k;

	while (n && is_space(s[n - 1]))
		n--;
	if (n < 2 || s[0] != ' ' || !is_digit(s[1]))
		return 0;
	*ins = *del = 0;
	if (!(k = parse_num(s + i, n - i, files)))
		return 0;
	i += k;
	if (n - i >= 13 && !memcmp(s + i, " file changed", 13))
		i += 13;
	else if (n - i >= 14 && !memcmp(s + i, " files changed", 14))
		i += 14;
	else
		return 0;
	if (n - i > 2 && !memcmp(s + i, ", ", 2) &&
	    (k = parse_num(s + i + 2, n - i - 2, ins))) {
		size_t j = i + 2 + k;

		if (n - j >= 13 && !memcmp(s + j, " insertion(+)", 13))
			i = j + 13;
		else if (n - j >= 14 && !memcmp(s + j, " insertions(+)", 14))
			i = j + 14;
		else
			*ins = 0;
	}
	if (n - i > 2 && !memcmp(s + i, ", ", 2) &&
	    (k = parse_num(s + i + 2, n - i - 2, del))) {
		size_t j = i + 2 + k;

		if (n - j >= 12 && !memcmp(s + j, " deletion(-)", 12))
			i = j + 12;
		else if (n - j >= 13 && !memcmp(s + j, " deletions(-)", 13))
			i = j + 13;
	}
	return i == n;
}

/*
 * A stat row: " <name> | <N> <graph>", " <name> | Bin[ <old> -> <new> bytes]"
 * or " <name> | Unmerged", the name padded with spaces.  Fills all of
 * *row but the paths.
 */
static int parse_row(struct pullmsg_str l, struct pullmsg_row *row)
{
	const char *s = l.s;
	size_t n, bar, i, k;

	memset(row, 0, sizeof(*row));
	n = l.len;
	while (n && is_space(s[n - 1]))
		n--;
	if (n < 5 || s[0] != ' ')
		return 0;
	for (bar = n - 2; bar > 1; bar--)	/* the last " | " */
		if (s[bar] == '|')
			break;
	if (bar <= 1 || s[bar - 1] != ' ' || s[bar + 1] != ' ')
		return 0;
	i = bar + 2;
	while (i < n && s[i] == ' ')
		i++;
	row->changes = row->old_size = row->new_size = -1;
	if ((k = parse_num(s + i, n - i, &row->changes))) {
		row->kind = PULLMSG_ROW_TEXT;
		i += k;
		if (i == n) {
			if (row->changes)
				return 0;
		} else {
			if (s[i++] != ' ' || i == n || !row->changes)
				return 0;
			while (i < n && s[i] == '+')
				i++;
			while (i < n && s[i] == '-')
				i++;
			if (i != n)
				return 0;
		}
	} else if (n - i >= 3 && !memcmp(s + i, "Bin", 3)) {
		row->kind = PULLMSG_ROW_BINARY;
		i += 3;
		if (i < n) {
			if (s[i] != ' ' ||
			    !(k = parse_num(s + i + 1, n - i - 1, &row->old_size)))
				return 0;
			i += 1 + k;
			if (n - i < 4 || memcmp(s + i, " -> ", 4) ||
			    !(k = parse_num(s + i + 4, n - i - 4, &row->new_size)))
				return 0;
			i += 4 + k;
			if (n - i != 6 || memcmp(s + i, " bytes", 6))
				return 0;
		}
	} else if (n - i == 8 && !memcmp(s + i, "Unmerged", 8)) {
		row->kind = PULLMSG_ROW_UNMERGED;
	} else {
		return 0;
	}
	k = bar - 1;
	while (k > 1 && s[k - 1] == ' ')
		k--;
	row->name = mkstr(s + 1, k - 1);
	row->abbreviated = row->name.len >= 3 && !memcmp(row->name.s, "...", 3);
	return row->name.len > 0;
}

/* The " ..." line show_stats() writes when it shows fewer rows than files. */
static int is_cut(struct pullmsg_str l)
{
	while (l.len && is_space(l.s[l.len - 1]))
		l.len--;
	return l.len == 4 && !memcmp(l.s, " ...", 4);
}

/* The six octal digits of a mode (%06o) at s: 1 and *mode, or 0. */
static int parse_mode(const char *s, size_t n, unsigned *mode)
{
	size_t i;

	*mode = 0;
	if (n < 6)
		return 0;
	for (i = 0; i < 6; i++) {
		if (s[i] < '0' || s[i] > '7')
			return 0;
		*mode = *mode * 8 + (unsigned)(s[i] - '0');
	}
	return 1;
}

/* A --summary line; paths left to the caller. */
static int parse_summary(struct pullmsg_str l, struct pullmsg_summary *sum)
{
	static const struct {
		const char *word;
		enum pullmsg_summary_kind kind;
	} words[] = {
		{ " create ", PULLMSG_SUMMARY_CREATE },
		{ " delete ", PULLMSG_SUMMARY_DELETE },
		{ " rename ", PULLMSG_SUMMARY_RENAME },
		{ " copy ", PULLMSG_SUMMARY_COPY },
		{ " rewrite ", PULLMSG_SUMMARY_REWRITE },
		{ " mode change ", PULLMSG_SUMMARY_MODE_CHANGE },
	};
	const char *s = l.s;
	size_t n = l.len, w, i;

	memset(sum, 0, sizeof(*sum));
	sum->similarity = -1;
	while (n && s[n - 1] == ' ')
		n--;
	for (w = 0; w < sizeof(words) / sizeof(*words); w++)
		if (starts_with(mkstr(s, n), words[w].word))
			break;
	if (w == sizeof(words) / sizeof(*words))
		return 0;
	sum->kind = words[w].kind;
	i = strlen(words[w].word);
	switch (sum->kind) {
	case PULLMSG_SUMMARY_CREATE:
	case PULLMSG_SUMMARY_DELETE:
		if (n - i > 12 && !memcmp(s + i, "mode ", 5) &&
		    s[i + 11] == ' ' &&
		    parse_mode(s + i + 5, 6, sum->kind == PULLMSG_SUMMARY_CREATE ?
			       &sum->new_mode : &sum->old_mode))
			i += 12;
		sum->name = mkstr(s + i, n - i);
		return i < n;
	case PULLMSG_SUMMARY_MODE_CHANGE:
		if (!parse_mode(s + i, n - i, &sum->old_mode) ||
		    n - i < 10 || memcmp(s + i + 6, " => ", 4) ||
		    !parse_mode(s + i + 10, n - i - 10, &sum->new_mode))
			return 0;
		i += 16;
		if (i == n)
			return 1;
		if (s[i] != ' ' || i + 1 == n)
			return 0;
		sum->name = mkstr(s + i + 1, n - i - 1);
		return 1;
	default: {			/* <names> (NN%) */
		size_t k = n;
		long sim;

		if (k < i + 5 || s[k - 1] != ')' || s[k - 2] != '%')
			return 0;
		k -= 2;
		while (k > i && is_digit(s[k - 1]))
			k--;
		if (k < i + 3 || s[k - 1] != '(' || s[k - 2] != ' ' ||
		    parse_num(s + k, n - 2 - k, &sim) != n - 2 - k || sim > 100)
			return 0;
		sum->similarity = (int)sim;
		sum->name = mkstr(s + i, k - 2 - i);
		return 1;
	}
	}
}

struct lines {
	struct pullmsg_str *l;
	size_t nr;
};

static int split_lines(const char *text, size_t len, struct lines *out)
{
	const char *p = text, *end = text + len;
	size_t alloc = 0;

	out->l = NULL;
	out->nr = 0;
	while (p < end) {
		if (out->nr == alloc) {
			struct pullmsg_str *grown;

			alloc = alloc ? 2 * alloc : 64;
			grown = realloc(out->l, alloc * sizeof(*grown));
			if (!grown)
				return -1;
			out->l = grown;
		}
		next_line(&p, end, &out->l[out->nr++]);
	}
	return 0;
}

/* Lines a..b (inclusive, a <= b + 1) as one string, blank lines around it off. */
static struct pullmsg_str span(const struct lines *L, size_t a, size_t b_end)
{
	size_t b = b_end;

	while (a < b && is_blank(L->l[a]))
		a++;
	while (b > a && is_blank(L->l[b - 1]))
		b--;
	if (a >= b)
		return mkstr(NULL, 0);
	return mkstr(L->l[a].s, (size_t)(L->l[b - 1].s + L->l[b - 1].len - L->l[a].s));
}

/* The first non-blank line in [from, to) if it is indented: trimmed. */
static struct pullmsg_str indented_after(const struct lines *L, size_t from,
					 size_t to)
{
	while (from < to && is_blank(L->l[from]))
		from++;
	if (from < to && is_space(L->l[from].s[0]) && !is_separator(L->l[from]))
		return trim(L->l[from]);
	return mkstr(NULL, 0);
}

struct block {
	size_t rows, total, end;	/* first row, total line, after summary */
	long files, ins, del;
};

/* Do the rows above the total line at t add up to it? */
static int find_block(const struct lines *L, size_t lo, size_t t,
		      struct block *bl)
{
	unsigned long long target, sum = 0;
	size_t r = t, nfiles = 0;
	int cut = 0;

	if (!parse_total(L->l[t], &bl->files, &bl->ins, &bl->del))
		return 0;
	while (r > lo) {
		struct pullmsg_row row;

		if (is_cut(L->l[r - 1]) && r == t && !cut) {
			cut = 1;
		} else if (parse_row(L->l[r - 1], &row)) {
			if (row.kind != PULLMSG_ROW_UNMERGED)
				nfiles++;
			if (row.kind == PULLMSG_ROW_TEXT) {
				if ((unsigned long long)row.changes > ULLONG_MAX / 4 - sum)
					return 0;
				sum += (unsigned long long)row.changes;
			}
		} else {
			break;
		}
		r--;
	}
	target = (unsigned long long)bl->ins + (unsigned long long)bl->del;
	if (r == t || (cut ? nfiles >= (size_t)bl->files :
		       nfiles != (size_t)bl->files || sum != target))
		return 0;
	bl->rows = r;
	bl->total = t;
	bl->end = t + 1;
	while (bl->end < L->nr) {
		struct pullmsg_summary s;

		if (!parse_summary(L->l[bl->end], &s))
			break;
		bl->end++;
	}
	return 1;
}

static int patch_follows(const struct lines *L, size_t i)
{
	while (i < L->nr && is_blank(L->l[i]))
		i++;
	return i < L->nr && starts_with(L->l[i], "diff --git ");
}

static void release_request(struct pullmsg_request *req)
{
	free(req->row);
	free(req->summary);
	memset(req, 0, sizeof(*req));
}

/* Fill the rows and summary lines of the block. */
static int take_block(struct ctx *c, const struct lines *L,
		      const struct block *bl, struct pullmsg_request *req)
{
	size_t i;

	req->files = bl->files;
	req->insertions = bl->ins;
	req->deletions = bl->del;
	req->row = calloc(bl->total - bl->rows, sizeof(*req->row));
	if (bl->end > bl->total + 1)
		req->summary = calloc(bl->end - bl->total - 1,
				      sizeof(*req->summary));
	if (!req->row || (bl->end > bl->total + 1 && !req->summary))
		return -1;
	for (i = bl->rows; i < bl->total; i++) {
		struct pullmsg_row *row = &req->row[req->nr_rows];

		if (!parse_row(L->l[i], row)) {
			req->rows_cut = 1;	/* the " ..." line */
			continue;
		}
		if (!row->abbreviated)
			name_paths(c, row->name, &row->path, &row->from);
		req->nr_rows++;
	}
	for (i = bl->total + 1; i < bl->end; i++) {
		struct pullmsg_summary *sum = &req->summary[req->nr_summary++];

		parse_summary(L->l[i], sum);
		if (sum->kind == PULLMSG_SUMMARY_RENAME ||
		    sum->kind == PULLMSG_SUMMARY_COPY)
			name_paths(c, sum->name, &sum->path, &sum->from);
		else
			sum->path = one_path(c, sum->name);
	}
	req->has_patch = patch_follows(L, bl->end);
	return 0;
}

/* The sections between the "up to" lines and the diffstat. */
static void take_sections(const struct lines *L, size_t upto, size_t rows,
			  struct pullmsg_request *req)
{
	size_t i, first = 0, last = 0, desc = 0;
	int seps = 0;

	for (i = upto + 1; i < rows; i++) {
		if (!is_separator(L->l[i]))
			continue;
		if (!seps++)
			first = i;
		last = i;
	}
	if (!seps) {
		size_t from = upto + 1;

		while (from < rows && is_blank(L->l[from]))
			from++;
		if (req->tip_subject.len)	/* skip the subject line */
			from++;
		req->shortlog = span(L, from, rows);
		return;
	}
	req->shortlog = span(L, last + 1, rows);
	for (i = first + 1; i < last; i++)
		if (starts_with(L->l[i], DESCRIPTION) &&
		    (i == first + 1 || is_separator(L->l[i - 1]))) {
			desc = i;
			break;
		}
	if (desc) {
		req->tag_message = span(L, first + 1, desc == first + 1 ? desc : desc - 1);
		req->description = span(L, desc + 1, last);
	} else {
		req->tag_message = span(L, first + 1, last);
	}
}

/* Parse the body text; NULL, or what is missing. */
static const char *parse_request(struct ctx *c, const char *text, size_t len,
				 struct pullmsg_request *req)
{
	struct lines L;
	struct block bl, chosen;
	const char *err = NULL;
	size_t i, since, at, upto, last_sep = 0;
	int have = 0, saw_total = 0;
	long dummy;

	memset(req, 0, sizeof(*req));
	if (split_lines(text, len, &L)) {
		free(L.l);
		c->oom = 1;
		return "out of memory";
	}
	for (i = 0; i < L.nr && !starts_with(L.l[i], SINCE); i++)
		;
	if (i == L.nr) {
		err = "no 'The following changes since commit' line";
		goto out;
	}
	since = i;
	req->base = commit_id(mkstr(L.l[i].s + strlen(SINCE), L.l[i].len - strlen(SINCE)));
	if (!req->base.len) {
		err = "no commit id after 'The following changes since commit'";
		goto out;
	}
	for (i = since + 1; i < L.nr; i++) {
		struct pullmsg_str t = trim(L.l[i]);

		if (eq_ci(t.s, t.len, AVAILABLE))
			break;
	}
	if (i == L.nr) {
		err = "no 'are available in the Git repository at:' line";
		goto out;
	}
	at = i;
	req->base_subject = indented_after(&L, since + 1, at);
	for (i = at + 1; i < L.nr && is_blank(L.l[i]); i++)
		;
	if (i == L.nr || starts_with(L.l[i], UPTO)) {
		err = "no repository URL after 'are available in the Git repository at:'";
		goto out;
	} else {
		struct pullmsg_str t = trim(L.l[i]);
		size_t k = t.len;

		while (k && !is_space(t.s[k - 1]))
			k--;
		if (k) {
			req->ref = mkstr(t.s + k, t.len - k);
			while (k && is_space(t.s[k - 1]))
				k--;
			req->url = mkstr(t.s, k);
		} else {
			req->url = t;
		}
	}
	for (; i < L.nr && !starts_with(L.l[i], UPTO); i++)
		;
	if (i == L.nr) {
		err = "no 'for you to fetch changes up to' line";
		goto out;
	}
	upto = i;
	req->tip = commit_id(mkstr(L.l[i].s + strlen(UPTO), L.l[i].len - strlen(UPTO)));
	if (!req->tip.len) {
		err = "no commit id after 'for you to fetch changes up to'";
		goto out;
	}
	req->tip_subject = indented_after(&L, upto + 1, L.nr);

	for (i = upto + 1; i < L.nr; i++)
		if (is_separator(L.l[i]))
			last_sep = i;
	for (i = upto + 1; i < L.nr; i++) {
		if (!parse_total(L.l[i], &dummy, &dummy, &dummy))
			continue;
		saw_total = 1;
		if (!find_block(&L, upto + 1, i, &bl))
			continue;
		chosen = bl;
		have = 1;
		/* one in a tag message has a separator after it */
		if (patch_follows(&L, bl.end) || last_sep < bl.end)
			break;
	}
	if (!have) {
		err = saw_total ?
			"the diffstat's rows do not add up to its 'files changed' line" :
			"no diffstat (no ' N files changed' line)";
		goto out;
	}
	take_sections(&L, upto, chosen.rows, req);
	if (take_block(c, &L, &chosen, req)) {
		c->oom = 1;
		err = "out of memory";
	}
out:
	free(L.l);
	if (err)
		release_request(req);
	return err;
}

/* ------------------------------------------------------------------ */
/* Messages: walk a MIME entity to its text/plain parts.               */

struct search {
	struct pullmsg *m;
	const char *first_error;
	int done;
};

static void walk(struct ctx *c, struct search *f, const char *p,
		 const char *end, int depth);

static void leaf(struct ctx *c, struct search *f, const struct header *h,
		 const char *p, const char *end)
{
	struct pullmsg_str cte = trim(h->encoding);
	struct buf raw = BUF_INIT, text = BUF_INIT, param = BUF_INIT;
	struct pullmsg_str kept;
	const char *err;

	if (eq_ci(cte.s, cte.len, "quoted-printable"))
		qp_decode(&raw, p, end);
	else if (eq_ci(cte.s, cte.len, "base64"))
		b64_decode(&raw, p, (size_t)(end - p));
	else
		buf_add(&raw, p, (size_t)(end - p));
	crlf_to_lf(&raw);
	if (get_param(h->content_type, "format", &param) &&
	    eq_ci(param.s, param.len, "flowed")) {
		int delsp = get_param(h->content_type, "delsp", &param) &&
			    eq_ci(param.s, param.len, "yes");

		if (raw.len)
			unflow(&text, raw.s, raw.s + raw.len, delsp);
		if (raw.oom)
			text.oom = 1;
		buf_release(&raw);
	} else {
		text = raw;
	}
	if (param.oom)
		text.oom = 1;
	buf_release(&param);
	kept = keep(c, &text);
	if (c->oom)
		return;
	err = parse_request(c, kept.s ? kept.s : empty, kept.len, &f->m->req);
	if (!err)
		f->done = 1;
	else if (!f->first_error)
		f->first_error = err;
}

static void entity(struct ctx *c, struct search *f, const struct header *h,
		   const char *p, const char *end, int depth)
{
	struct pullmsg_str type = media_type(h->content_type);

	if (type_is(type, "multipart/")) {
		struct buf boundary = BUF_INIT;
		const char *part = NULL;

		if (!get_param(h->content_type, "boundary", &boundary)) {
			if (boundary.oom)
				c->oom = 1;
			buf_release(&boundary);
			leaf(c, f, h, p, end);	/* no parts to tell apart */
			return;
		}
		while (p < end && !f->done && !c->oom) {
			const char *start = p;
			struct pullmsg_str l;
			int close;

			next_line(&p, end, &l);
			if (!is_delimiter(l, &boundary, &close))
				continue;
			if (part) {
				/* the newline before a delimiter is the delimiter's */
				const char *e = start;

				if (e > part && e[-1] == '\n')
					e--;
				if (e > part && e[-1] == '\r')
					e--;
				walk(c, f, part, e, depth + 1);
			}
			part = close ? NULL : p;
			if (close)
				break;
		}
		if (part && !f->done)		/* no closing delimiter */
			walk(c, f, part, end, depth + 1);
		buf_release(&boundary);
	} else if (type_is(type, "message/rfc822")) {
		walk(c, f, p, end, depth + 1);
	} else if (!type.len || type_is(type, "text/plain")) {
		leaf(c, f, h, p, end);
	}
}

/* A MIME part or forwarded message: its header, then its body. */
static void walk(struct ctx *c, struct search *f, const char *p,
		 const char *end, int depth)
{
	struct header h;

	if (depth > MAX_DEPTH || f->done || c->oom)
		return;
	read_header(&p, end, &h, 0);
	entity(c, f, &h, p, end, depth);
}

static struct pullmsg *new_message(struct ctx *c, size_t *alloc)
{
	struct pullmsg_list *res = c->res;
	struct pullmsg *m;

	if (res->nr == *alloc) {
		size_t want = *alloc ? 2 * *alloc : 4;
		struct pullmsg *grown = realloc(res->msg, want * sizeof(*grown));

		if (!grown) {
			c->oom = 1;
			return NULL;
		}
		res->msg = grown;
		*alloc = want;
	}
	m = &res->msg[res->nr++];
	memset(m, 0, sizeof(*m));
	m->number = res->nr;
	return m;
}

/* One message (or a plain body when header is 0). */
static void message(struct ctx *c, struct pullmsg *m, const char *p,
		    const char *end, int header)
{
	struct search f;
	struct header h;

	memset(&f, 0, sizeof(f));
	f.m = m;
	header_init(&h);
	if (header) {
		read_header(&p, end, &h, 0);
		m->subject = header_value(c, h.subject, 1);
		m->from = header_value(c, h.from, 1);
		m->message_id = header_value(c, h.message_id, 0);
		m->date = header_value(c, h.date, 0);
	}
	entity(c, &f, &h, p, end, 0);
	if (!f.done)
		m->error = f.first_error ? f.first_error :
			"no text/plain part in the message";
}

/* Is the line at s an mbox "From " line? */
static int is_from_line(const char *s, const char *end)
{
	return end - s >= 5 && !memcmp(s, "From ", 5);
}

/* The mbox message at p..end, ">From " lines unquoted once (mboxrd). */
static void mbox_message(struct ctx *c, struct pullmsg *m, const char *p,
			 const char *end)
{
	struct buf copy = BUF_INIT;

	while (p < end) {
		const char *s = p, *q;
		struct pullmsg_str l;

		next_line(&p, end, &l);
		for (q = s; q < s + l.len && *q == '>'; q++)
			;
		if (q > s && is_from_line(q, s + l.len))
			s++;
		buf_add(&copy, s, (size_t)(p - s));
	}
	if (copy.oom)
		c->oom = 1;
	else
		message(c, m, copy.s ? copy.s : empty, copy.s ? copy.s + copy.len : empty, 1);
	buf_release(&copy);
}

int pullmsg_parse(const char *buf, size_t len, struct pullmsg_list *res,
		  const char **err)
{
	struct ctx c;
	const char *p = len ? buf : empty, *end = p + len, *dummy;
	size_t alloc = 0;
	struct header h;

	if (!err)
		err = &dummy;
	memset(res, 0, sizeof(*res));
	c.res = res;
	c.oom = 0;
	if (is_from_line(p, end)) {
		res->mbox = 1;
		while (p < end && !c.oom) {
			const char *start, *q;
			struct pullmsg_str l;
			int blank = 0;
			struct pullmsg *m;

			next_line(&p, end, &l);		/* the "From " line */
			start = q = p;
			while (q < end) {
				const char *line = q;

				next_line(&q, end, &l);
				if (blank && is_from_line(line, end))
					break;
				blank = !l.len;
				p = q;
			}
			if ((m = new_message(&c, &alloc)))
				mbox_message(&c, m, start, p);
		}
	} else {
		const char *q = p;
		struct pullmsg *m = new_message(&c, &alloc);

		if (m)
			message(&c, m, p, end, !read_header(&q, end, &h, 1) && q > p);
	}
	if (c.oom) {
		pullmsg_release(res);
		*err = "out of memory";
		return -1;
	}
	return 0;
}

void pullmsg_release(struct pullmsg_list *res)
{
	size_t i;

	for (i = 0; i < res->nr; i++)
		release_request(&res->msg[i].req);
	free(res->msg);
	for (i = 0; i < res->nr_owned_; i++)
		free(res->owned_[i]);
	free(res->owned_);
	memset(res, 0, sizeof(*res));
}

/* ------------------------------------------------------------------ */
/* URL and ref: untrusted input.                                       */

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
		      enum pullmsg_transport *kind, const char **err)
{
	static const struct {
		const char *scheme;
		enum pullmsg_transport kind;
	} schemes[] = {
		{ "https", PULLMSG_HTTPS },
		{ "http", PULLMSG_HTTP },
		{ "git", PULLMSG_GIT },
		{ "ssh", PULLMSG_SSH },
		{ "file", PULLMSG_FILE },
	};
	const char *e = NULL, *dummy, *colon, *slash;
	enum pullmsg_transport k = PULLMSG_LOCAL;
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
		} else if ((k = schemes[i].kind) == PULLMSG_FILE) {
			if (!allow_local)
				e = "local repository (file://) refused without allow-local";
			else if (n && rest[0] == '-')
				e = "path in URL starts with '-'";
		} else {
			e = check_host(rest, n, "/");
		}
	} else if ((colon = memchr(url, ':', len)) &&
		   (!(slash = memchr(url, '/', len)) || slash > colon)) {
		k = PULLMSG_SCP;		/* [user@]host:path */
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
