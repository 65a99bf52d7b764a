// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "signals.h"
#include "strbuf.h"
#include "usage.h"
#include "version.h"

static const char usage_text[] =
"usage: git clean-diffstat [<options>] [<diff-options>] [<upstream> [<head>]] [-- <pathspec>...]\n"
"   or: git clean-diffstat --verify[=<file>] [--no-fetch] [--allow-local] [--fetch-timeout=<seconds>] [--fetch-stall=<seconds>] [--jobs=<n>] [--in-order] [--[no-]progress] [-q] [--porcelain] [<upstream>]\n"
"\n"
"    --check               say whether git request-pull's diffstat is messy\n"
"    --explain             show how git request-pull's diffstat differs\n"
"    --porcelain           --explain (or --verify) in a stable format for scripts\n"
"    -z                    with --porcelain: end each record with NUL\n"
"    --request-pull [-p] <start> <url> [<end>]\n"
"                          run git request-pull with the clean diffstat\n"
"    --verify[=<file>]     check the pull request in <file> (default: stdin)\n"
"                          against what pulling it into <upstream> changes\n"
"    --no-fetch            --verify: never fetch; the tip must be here\n"
"    --allow-local         --verify: fetch from file:// and local paths too\n"
"    --fetch-timeout=<seconds>\n"
"                          --verify: give up a fetch after this long (600)\n"
"    --fetch-stall=<seconds>\n"
"                          --verify: give up a fetch that receives nothing\n"
"                          for this long (60)\n"
"    -j, --jobs=<n>        --verify: fetch <n> requests at a time (the cores)\n"
"    --in-order            --verify: check each request as pulled after\n"
"                          those before it in the mbox\n"
"    --progress            --verify: show progress on stderr (default: when it\n"
"                          is a terminal)\n"
"    -q, --no-progress     --verify: show no progress\n"
"    --allow-unrelated-histories\n"
"                          allow merging histories without a common ancestor\n"
"    -h                    show this help and exit\n"
"    --help                show the manual page\n"
"    --version             show the version and exit\n"
"    --end-of-options      take every later argument as a revision\n"
"\n"
"<diff-options> are those of git diff (default: -C --stat --summary);\n"
"an output format option replaces --stat --summary.\n";

NORETURN PRINTF(1, 2) static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	fputs(usage_text, stderr);
	exit(129);
}

/*
 * The value of --fetch-timeout=<seconds>, --jobs=<n> and the like (arg
 * as given): a number of unit from min to max, else a usage error that
 * names the range when min is not 0 (a timeout of 0 is no limit, and
 * its limit, a year, is nobody's business).
 */
static int parse_number(const char *arg, const char *value, const char *unit,
			long min, long max)
{
	char *end;
	long n;

	if (!isdigit((unsigned char)*value))
		usage_error("'%s' needs a number of %s", arg, unit);
	n = strtol(value, &end, 10);
	if (!*end && n >= min && n <= max)
		return (int)n;
	if (min)
		usage_error("'%s' needs a number of %s from %ld to %ld", arg,
			    unit, min, max);
	usage_error("'%s' needs a number of %s", arg, unit);
}

enum arg { NOARG, OPTARG, REQARG };

/* The modes that read back what git diff prints, as bits of not_in. */
#define IN_CHECK 1u			/* --check: two --stat --summary */
#define IN_EXPLAIN 2u			/* --explain: two --numstat -z */
#define IN_PORCELAIN 4u			/* --porcelain: the same */
#define IN_REQUEST_PULL 8u		/* --request-pull: its mail */
#define IN_COMPARING (IN_CHECK | IN_EXPLAIN | IN_PORCELAIN)

struct diff_option {
	const char *name;		/* long name, or one letter */
	enum arg arg;
	unsigned format : 1;		/* picks the output format */
	unsigned negatable : 1;		/* --no-<name> exists too */
	unsigned not_in : 4;		/* modes it would mislead: IN_* */
};

/*
 * The options of git diff (diff.c's parseopts as of git 2.38/2.39) that
 * make sense for a diff of two trees.  Left out on purpose, and refused
 * with the reason (refused[] below): git diff's --check, --exit-code
 * and --quiet (they change the exit status, which here tells of
 * conflicts), --follow (one path in a log) and the --ita-*-in-index
 * options (no index is involved).
 *
 * The modes read back what git diff prints (--check compares two
 * --stat --summary and counts their files, --explain and --porcelain
 * parse two --numstat -z), or put it in a mail (--request-pull).  Each
 * option of this table was tried in each mode on a messy history; those
 * that give a wrong answer there are refused in that mode (not_in):
 *
 *   --output=<file>   the diffs go to the file: --check and --explain
 *                     compare two empty outputs and call them clean,
 *                     --request-pull's mail has no diffstat.  All modes.
 *   --line-prefix     --check counts no file, --explain and --porcelain
 *                     cannot parse the numstat.  Not with those.
 *   -z                the human text of --check and --explain, and the
 *                     mail, have no NUL-terminated form: refused there.
 *                     --porcelain -z ends its own records with NUL.
 *   --rotate-to, --skip-to
 *                     git dies when the file is in one diffstat only,
 *                     which is what the comparing modes look for.
 *
 * The output format options are refused by --check, --explain and
 * --porcelain as a whole (check_mode()).  All the others were tried and
 * found harmless: either they act alike on both diffs, so that the
 * comparison still holds (-R, --relative, -a, --textconv, -B, -l, the
 * rename and whitespace options, --diff-filter, -S, -G, --find-object,
 * -O, --submodule, --ignore-submodules), or they change only the patch
 * and the colours, which the modes do not read (--color, --color-words,
 * --word-diff, --color-moved, --src-prefix, --dst-prefix, --no-prefix,
 * --abbrev, --full-index, -W, --ws-error-highlight,
 * --output-indicator-*, --ext-diff, --inter-hunk-context).
 */
static const struct diff_option diff_options[] = {
	/* output format */
	{ "p", NOARG, 1, 0, 0 }, { "patch", NOARG, 1, 0, 0 },
	{ "s", NOARG, 1, 0, 0 }, { "no-patch", NOARG, 1, 0, 0 },
	{ "u", NOARG, 1, 0, 0 },
	{ "U", OPTARG, 1, 0, 0 }, { "unified", OPTARG, 1, 0, 0 },
	{ "raw", NOARG, 1, 0, 0 },
	{ "patch-with-raw", NOARG, 1, 0, 0 }, { "patch-with-stat", NOARG, 1, 0, 0 },
	{ "numstat", NOARG, 1, 0, 0 }, { "shortstat", NOARG, 1, 0, 0 },
	{ "X", OPTARG, 1, 0, 0 }, { "dirstat", OPTARG, 1, 0, 0 },
	{ "cumulative", NOARG, 1, 0, 0 }, { "dirstat-by-file", OPTARG, 1, 0, 0 },
	{ "summary", NOARG, 1, 0, 0 },
	{ "name-only", NOARG, 1, 0, 0 }, { "name-status", NOARG, 1, 0, 0 },
	{ "stat", OPTARG, 1, 0, 0 },
	{ "stat-width", REQARG, 1, 0, 0 }, { "stat-name-width", REQARG, 1, 0, 0 },
	{ "stat-graph-width", REQARG, 1, 0, 0 }, { "stat-count", REQARG, 1, 0, 0 },
	{ "compact-summary", NOARG, 1, 1, 0 },
	{ "binary", NOARG, 1, 0, 0 },
	/* how the output looks */
	{ "W", NOARG, 0, 0, 0 }, { "function-context", NOARG, 0, 1, 0 },
	{ "full-index", NOARG, 0, 1, 0 }, { "color", OPTARG, 0, 1, 0 },
	{ "ws-error-highlight", REQARG, 0, 0, 0 },
	{ "z", NOARG, 0, 0, IN_CHECK | IN_EXPLAIN | IN_REQUEST_PULL },
	{ "abbrev", OPTARG, 0, 1, 0 },
	{ "src-prefix", REQARG, 0, 0, 0 }, { "dst-prefix", REQARG, 0, 0, 0 },
	{ "line-prefix", REQARG, 0, 0, IN_COMPARING },
	{ "no-prefix", NOARG, 0, 0, 0 },
	{ "inter-hunk-context", REQARG, 0, 0, 0 },
	{ "output-indicator-new", REQARG, 0, 0, 0 },
	{ "output-indicator-old", REQARG, 0, 0, 0 },
	{ "output-indicator-context", REQARG, 0, 0, 0 },
	{ "output", REQARG, 0, 0, IN_COMPARING | IN_REQUEST_PULL },
	/* renames and copies */
	{ "B", OPTARG, 0, 0, 0 }, { "break-rewrites", OPTARG, 0, 0, 0 },
	{ "M", OPTARG, 0, 0, 0 }, { "find-renames", OPTARG, 0, 0, 0 },
	{ "D", NOARG, 0, 0, 0 }, { "irreversible-delete", NOARG, 0, 0, 0 },
	{ "C", OPTARG, 0, 0, 0 }, { "find-copies", OPTARG, 0, 0, 0 },
	{ "find-copies-harder", NOARG, 0, 1, 0 }, { "no-renames", NOARG, 0, 0, 0 },
	{ "rename-empty", NOARG, 0, 1, 0 }, { "l", REQARG, 0, 0, 0 },
	/* the diff algorithm */
	{ "minimal", NOARG, 0, 1, 0 },
	{ "w", NOARG, 0, 0, 0 }, { "ignore-all-space", NOARG, 0, 0, 0 },
	{ "b", NOARG, 0, 0, 0 }, { "ignore-space-change", NOARG, 0, 0, 0 },
	{ "ignore-space-at-eol", NOARG, 0, 0, 0 },
	{ "ignore-cr-at-eol", NOARG, 0, 0, 0 },
	{ "ignore-blank-lines", NOARG, 0, 0, 0 },
	{ "I", REQARG, 0, 0, 0 }, { "ignore-matching-lines", REQARG, 0, 1, 0 },
	{ "indent-heuristic", NOARG, 0, 1, 0 },
	{ "patience", NOARG, 0, 0, 0 }, { "histogram", NOARG, 0, 0, 0 },
	{ "diff-algorithm", REQARG, 0, 0, 0 }, { "anchored", REQARG, 0, 0, 0 },
	{ "word-diff", OPTARG, 0, 0, 0 }, { "word-diff-regex", REQARG, 0, 0, 0 },
	{ "color-words", OPTARG, 0, 0, 0 },
	{ "color-moved", OPTARG, 0, 1, 0 }, { "color-moved-ws", REQARG, 0, 1, 0 },
	/* what is compared */
	{ "relative", OPTARG, 0, 1, 0 },
	{ "a", NOARG, 0, 0, 0 }, { "text", NOARG, 0, 1, 0 },
	{ "R", NOARG, 0, 0, 0 },
	{ "ext-diff", NOARG, 0, 1, 0 }, { "textconv", NOARG, 0, 1, 0 },
	{ "ignore-submodules", OPTARG, 0, 0, 0 }, { "submodule", OPTARG, 0, 0, 0 },
	{ "S", REQARG, 0, 0, 0 }, { "G", REQARG, 0, 0, 0 },
	{ "pickaxe-all", NOARG, 0, 0, 0 }, { "pickaxe-regex", NOARG, 0, 0, 0 },
	{ "O", REQARG, 0, 0, 0 },
	{ "rotate-to", REQARG, 0, 0, IN_COMPARING },
	{ "skip-to", REQARG, 0, 0, IN_COMPARING },
	{ "find-object", REQARG, 0, 0, 0 }, { "diff-filter", REQARG, 0, 0, 0 },
};

/* git diff's options that are refused on purpose, and why. */
static const struct {
	const char *option, *why;
} refused[] = {
	{ "--exit-code", "the exit status tells of conflicts" },
	{ "--quiet", "the exit status tells of conflicts" },
	{ "--follow", "it follows one file through a log" },
	{ "--ita-invisible-in-index", "no index is involved" },
	{ "--ita-visible-in-index", "no index is involved" },
	{ "--cached", "<upstream> is compared with the merge" },
	{ "--staged", "<upstream> is compared with the merge" },
	{ "--merge-base", "<upstream> is compared with the merge" },
	{ "--no-index", "<upstream> is compared with the merge" },
};

static const struct diff_option *lookup(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(diff_options) / sizeof(*diff_options); i++)
		if (strlen(diff_options[i].name) == len &&
		    !strncmp(diff_options[i].name, name, len))
			return &diff_options[i];
	return NULL;
}

/*
 * Is arg one of git diff's options?  Returns its entry and sets *takes_next
 * when its value is the next argument.
 */
static const struct diff_option *find_diff_option(const char *arg,
						  int *takes_next,
						  const char **valuep)
{
	const char *name = arg + 1, *value = NULL;
	const struct diff_option *o;
	size_t len;
	int negated = 0;

	*takes_next = 0;
	if (arg[1] == '-') {
		name = arg + 2;
		value = strchr(name, '=');
		len = value ? (size_t)(value - name) : strlen(name);
		/* --no-<name>, unless that is a name itself (--no-renames) */
		if (len > 3 && !strncmp(name, "no-", 3) && !lookup(name, len)) {
			negated = 1;
			name += 3;
			len -= 3;
		}
		if (len < 2)
			return NULL;
	} else {
		len = 1;
		if (name[1])
			value = name + 1;
	}
	o = lookup(name, len);
	if (!o || (negated && (!o->negatable || value)) ||
	    (o->arg == NOARG && value))
		return NULL;
	*takes_next = !negated && o->arg == REQARG && !value;
	/* the value given with it: after "=", or stuck to a letter */
	*valuep = value && arg[1] == '-' ? value + 1 : value;
	return o;
}

/*
 * The values git diff checks itself, checked here the same way and with
 * its words before any work is done, so that a mistyped value is a
 * usage error and not a failure after the merge.  Where gits from 2.38
 * on differ, a value any of them takes is taken (-l and
 * --inter-hunk-context take a k/m/g suffix since git 2.46).
 */

/* git's parse_rename_score(): "50", "50%", ".5", "0.5"; moves *s past it */
static void skip_rename_score(const char **s)
{
	const char *p = *s;
	int dot = 0;

	for (;; p++) {
		if (!dot && *p == '.') {
			dot = 1;
		} else if (*p == '%') {
			p++;
			break;
		} else if (!isdigit((unsigned char)*p)) {
			break;
		}
	}
	*s = p;
}

/* An integer as git's OPT_INTEGER takes one, before or after 2.46. */
static int is_integer(const char *value)
{
	char *end;

	if (!*value)
		return 0;
	(void)strtol(value, &end, 10);
	if (!*end)
		return 1;
	(void)strtoimax(value, &end, 0);
	return end != value && (!*end || (!end[1] && strchr("kKmMgG", *end)));
}

/* git's parse_dirstat_params(): the messages, or an empty sb */
static void check_dirstat(struct strbuf *sb, const char *value)
{
	static const char *const words[] = {
		"changes", "lines", "files", "noncumulative", "cumulative",
	};
	const char *p = value;

	if (!*value)
		return;
	for (;;) {
		size_t len = strcspn(p, ","), i;
		int known = 0;

		for (i = 0; i < sizeof(words) / sizeof(*words); i++)
			known |= strlen(words[i]) == len &&
				 !strncmp(p, words[i], len);
		if (!known && isdigit((unsigned char)*p)) {
			const char *end = p;

			while (isdigit((unsigned char)*end))
				end++;
			if (*end == '.' && isdigit((unsigned char)end[1]))
				for (end++; isdigit((unsigned char)*end); end++)
					;
			if (end != p + len)
				strbuf_addf(sb, "  Failed to parse dirstat cut-off "
					    "percentage '%.*s'\n", (int)len, p);
		} else if (!known) {
			strbuf_addf(sb, "  Unknown dirstat parameter '%.*s'\n",
				    (int)len, p);
		}
		if (!p[len])
			break;
		p += len + 1;
	}
}

static void check_value(const struct diff_option *o, const char *value)
{
	const char *name = o->name, *end;
	char *e;

	if (!value)		/* only an optional value may be missing */
		return;
	if (!strcmp(name, "stat")) {
		(void)strtoul(value, &e, 10);
		if (*e == ',')
			(void)strtoul(e + 1, &e, 10);
		if (*e == ',')
			(void)strtoul(e + 1, &e, 10);
		if (*e)
			usage_error("invalid --stat value: %s", value);
	} else if (!strncmp(name, "stat-", 5)) {
		(void)strtoul(value, &e, 10);
		if (*e)
			usage_error("%s expects a numerical value", name);
	} else if (!strcmp(name, "U") || !strcmp(name, "unified")) {
		(void)strtol(value, &e, 10);
		if (*e)
			usage_error("--unified expects a numerical value");
	} else if (!strcmp(name, "M") || !strcmp(name, "find-renames") ||
		   !strcmp(name, "C") || !strcmp(name, "find-copies")) {
		end = value;
		skip_rename_score(&end);
		if (*end)
			usage_error("invalid argument to %s",
				    *name == 'M' || !strcmp(name, "find-renames") ?
				    "find-renames" : "find-copies");
	} else if (!strcmp(name, "B") || !strcmp(name, "break-rewrites")) {
		end = value;
		skip_rename_score(&end);
		if (*end == '/') {
			end++;
			skip_rename_score(&end);
		}
		if (*end)
			usage_error("break-rewrites expects <n>/<m> form");
	} else if (!strcmp(name, "l") || !strcmp(name, "inter-hunk-context")) {
		const char *what = *name == 'l' ? "switch `l'" :
				   "option `inter-hunk-context'";

		if (!*value)
			usage_error("%s expects a numerical value", what);
		if (!is_integer(value))
			usage_error("%s expects an integer value with an "
				    "optional k/m/g suffix", what);
	} else if (!strcmp(name, "X") || !strncmp(name, "dirstat", 7)) {
		struct strbuf why = STRBUF_INIT;

		check_dirstat(&why, value);
		if (why.len) {
			strbuf_setlen(&why, why.len - 1);
			usage_error("Failed to parse --dirstat/-X option "
				    "parameter:\n%s", why.buf);
		}
		strbuf_release(&why);
	}
}

static const char *mode_option;

/*
 * The diff options given, with where each is in opts->diff.args (its
 * value, if it has one, follows it there).
 */
struct seen {
	const struct diff_option *o;
	const char *arg;
};

/* still reachable when usage_error() exits, for leak checkers */
static struct seen *static_seen;

static void set_mode(struct options *opts, enum mode mode, const char *arg)
{
	if (opts->mode != MODE_DIFFSTAT && opts->mode != mode)
		usage_error("options '%s' and '%s' cannot be used together",
			    mode_option, arg);
	opts->mode = mode;
	mode_option = arg;
}

/* The options given that the mode cannot take (see diff_options[]). */
static void check_mode_options(const struct options *opts,
			       const struct seen *seen, int nr_seen)
{
	unsigned mode = opts->mode == MODE_CHECK ? IN_CHECK :
			opts->mode == MODE_REQUEST_PULL ? IN_REQUEST_PULL :
			opts->porcelain ? IN_PORCELAIN : IN_EXPLAIN;
	int i;

	for (i = 0; i < nr_seen; i++)
		if (seen[i].o->not_in & mode)
			usage_error("options '%s' and '%s%s' cannot be used "
				    "together", mode_option,
				    seen[i].o->name[1] ? "--" : "-", seen[i].o->name);
}

/*
 * Take the diff option -<letter> out of args: the mode takes it as its
 * own.  Was it there?
 */
static int take_option(struct strvec *args, const struct seen *seen,
		       int nr_seen, const char *letter)
{
	size_t i, j;
	int k, found = 0;

	for (i = j = 0; i < args->nr; i++) {
		for (k = 0; k < nr_seen; k++)
			if (seen[k].arg == args->v[i] &&
			    !strcmp(seen[k].o->name, letter))
				break;
		if (k < nr_seen) {
			found = 1;
			free((char *)args->v[i]);
		} else {
			args->v[j++] = args->v[i];
		}
	}
	args->nr = j;
	if (args->v)
		args->v[j] = NULL;
	return found;
}

/* Sort out what the mode makes of the arguments that are no options. */
static void check_mode(struct options *opts, const char **arg, int nr,
		       const struct seen *seen, int nr_seen)
{
	if (opts->mode != MODE_VERIFY) {
		if (opts->no_fetch || opts->allow_local)
			usage_error("'%s' needs --verify", opts->no_fetch ?
				    "--no-fetch" : "--allow-local");
		if (opts->fetch_timeout >= 0 || opts->fetch_stall >= 0)
			usage_error("'%s' needs --verify",
				    opts->fetch_timeout >= 0 ?
				    "--fetch-timeout" : "--fetch-stall");
		if (opts->jobs || opts->in_order)
			usage_error("'%s' needs --verify", opts->jobs ?
				    "--jobs" : "--in-order");
		if (opts->progress >= 0)
			usage_error("'%s' needs --verify", opts->progress ?
				    "--progress" : "--no-progress' or '-q");
	}
	if (opts->mode == MODE_VERIFY) {
		if (opts->diff.args.nr)
			usage_error("--verify compares git request-pull's "
				    "-M --stat --summary; drop '%s'",
				    opts->diff.args.v[0]);
		if (opts->diff.pathspec)
			usage_error("--verify takes no pathspec");
		if (opts->allow_unrelated)
			usage_error("options '--verify' and "
				    "'--allow-unrelated-histories' cannot be "
				    "used together");
		if (nr > 1)
			usage_error("too many arguments for --verify");
		opts->upstream = nr ? arg[0] : "HEAD";
		return;
	}
	/* --porcelain -z: NUL-terminated records (a numstat -z is read) */
	if (opts->porcelain)
		opts->nul = take_option(&opts->diff.args, seen, nr_seen, "z");
	if (opts->mode == MODE_REQUEST_PULL) {
		/* -p is git request-pull's: the patch after the diffstat */
		opts->patch = take_option(&opts->diff.args, seen, nr_seen, "p");
		if (nr < 2)
			usage_error("--request-pull needs <start> and <url>");
		if (nr > 3)
			usage_error("too many arguments for --request-pull");
		opts->upstream = arg[0];
		opts->url = arg[1];
		opts->end = nr > 2 ? arg[2] : NULL;
		return;
	}
	if (nr > 2)
		usage_error("too many revisions");
	opts->upstream = nr > 0 ? arg[0] : NULL;
	opts->head = nr > 1 ? arg[1] : NULL;
	if (opts->mode != MODE_DIFFSTAT && opts->diff.format)
		usage_error("--check and --explain compare git request-pull's "
			    "-M --stat --summary; drop the output format option");
}

/*
 * The mode options: --check, --explain, --porcelain, --verify[=<file>]
 * and --request-pull.  Is arg one?  explain: --explain was given.
 */
static int parse_mode_option(struct options *opts, const char *arg,
			     int *explain)
{
	if (!strcmp(arg, "--check")) {
		set_mode(opts, MODE_CHECK, arg);
	} else if (!strcmp(arg, "--explain")) {
		set_mode(opts, MODE_EXPLAIN, arg);
		*explain = 1;
	} else if (!strcmp(arg, "--porcelain")) {
		/* --explain's, or --verify's with it */
		if (opts->mode != MODE_VERIFY)
			set_mode(opts, MODE_EXPLAIN, arg);
		opts->porcelain = 1;
	} else if (!strcmp(arg, "--verify") || !strncmp(arg, "--verify=", 9)) {
		/* a --porcelain before it was not --explain's */
		if (opts->mode == MODE_EXPLAIN && opts->porcelain && !*explain)
			opts->mode = MODE_DIFFSTAT;
		set_mode(opts, MODE_VERIFY, "--verify");
		opts->verify_file = arg[8] ? arg + 9 : NULL;
		if (opts->verify_file && !*opts->verify_file)
			usage_error("--verify= needs a file name");
	} else if (!strcmp(arg, "--request-pull")) {
		set_mode(opts, MODE_REQUEST_PULL, arg);
	} else {
		return 0;
	}
	return 1;
}

/*
 * The options of --verify: is argv[*i] one?  -j takes the next argument
 * as its value: *i then moves past it.
 */
static int parse_verify_option(struct options *opts, int argc, char **argv,
			       int *i)
{
	const char *arg = argv[*i];

	if (!strcmp(arg, "--no-fetch")) {
		opts->no_fetch = 1;
	} else if (!strcmp(arg, "--allow-local")) {
		opts->allow_local = 1;
	} else if (!strncmp(arg, "--fetch-timeout=", 16)) {
		opts->fetch_timeout = parse_number(arg, arg + 16, "seconds", 0,
						   86400L * 365);
	} else if (!strncmp(arg, "--fetch-stall=", 14)) {
		opts->fetch_stall = parse_number(arg, arg + 14, "seconds", 0,
						 86400L * 365);
	} else if (!strncmp(arg, "--jobs=", 7) || !strcmp(arg, "-j")) {
		opts->jobs = parse_number(arg, arg[1] == 'j' ?
					  (++*i < argc ? argv[*i] : "") : arg + 7,
					  "jobs", 1, 1024);
	} else if (!strcmp(arg, "--in-order")) {
		opts->in_order = 1;
	} else if (!strcmp(arg, "--progress")) {
		opts->progress = 1;
	} else if (!strcmp(arg, "--no-progress") || !strcmp(arg, "-q")) {
		opts->progress = 0;
	} else {
		return 0;
	}
	return 1;
}

/*
 * What is left: argv[*i] is one of git diff's options, into
 * opts->diff.args with its value (the next argument maybe: *i then
 * moves past it) and into seen, or a usage error.
 */
static void parse_diff_option(struct options *opts, int argc, char **argv,
			      int *i, struct seen *seen, int *nr_seen)
{
	const char *arg = argv[*i], *value;
	const struct diff_option *o;
	int takes_next;
	size_t k;

	o = find_diff_option(arg, &takes_next, &value);
	if (!o) {
		for (k = 0; k < sizeof(refused) / sizeof(*refused); k++)
			if (!strcmp(arg, refused[k].option))
				usage_error("%s is not supported: %s", arg,
					    refused[k].why);
		usage_error("unknown option '%s'", arg);
	}
	strvec_push(&opts->diff.args, arg);
	if (takes_next) {
		if (++*i == argc)
			usage_error("option '%s' needs a value", arg);
		strvec_push(&opts->diff.args, argv[*i]);
		value = argv[*i];
	}
	check_value(o, value);
	seen[*nr_seen].o = o;
	seen[(*nr_seen)++].arg =
		opts->diff.args.v[opts->diff.args.nr - 1 - takes_next];
	opts->diff.format |= o->format;
	opts->diff.copies |= !strcmp(o->name, "C") ||
			     !strcmp(o->name, "find-copies");
}

void parse_options(int argc, char **argv, struct options *opts)
{
	const char *positional[4];
	struct seen *seen;
	int i, nr = 0, nr_seen = 0, only_revs = 0, explain = 0;

	memset(opts, 0, sizeof(*opts));
	opts->fetch_timeout = opts->fetch_stall = opts->progress = -1;
	static_seen = seen = xmalloc((size_t)argc * sizeof(*seen));
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		/*
		 * git request-pull's "--" ends its options, as git rev-parse
		 * --parseopt has it: <start> <url> [<end>] follow, and it
		 * takes no pathspec.
		 */
		if (!strcmp(arg, "--") && opts->mode == MODE_REQUEST_PULL &&
		    !only_revs) {
			only_revs = 1;
			continue;
		}
		if (!strcmp(arg, "--") && opts->mode != MODE_REQUEST_PULL) {
			opts->diff.pathspec = (const char *const *)argv + i + 1;
			opts->diff.nr_pathspec = (size_t)(argc - i - 1);
			break;
		}
		if (only_revs || arg[0] != '-' || !arg[1]) {
			if (arg[0] == '-' && !arg[1] && !only_revs)
				usage_error("unknown option '%s'", arg);
			if (nr == 4)
				usage_error("too many revisions");
			positional[nr++] = arg;
		} else if (!strcmp(arg, "--end-of-options")) {
			only_revs = 1;
		} else if (!strcmp(arg, "-h")) {
			fputs(usage_text, stdout);
			exit_flushing_stdout(129);
		} else if (!strcmp(arg, "--help")) {
			opts->help = 1;
		} else if (!strcmp(arg, "--version")) {
			printf("git-clean-diffstat version %s\n",
			       git_clean_diffstat_version);
			exit_flushing_stdout(0);
		} else if (!strcmp(arg, "--allow-unrelated-histories")) {
			opts->allow_unrelated = 1;
		} else if (!parse_mode_option(opts, arg, &explain) &&
			   !parse_verify_option(opts, argc, argv, &i)) {
			parse_diff_option(opts, argc, argv, &i, seen, &nr_seen);
		}
	}
	if (opts->mode != MODE_DIFFSTAT && opts->mode != MODE_VERIFY)
		check_mode_options(opts, seen, nr_seen);
	check_mode(opts, positional, nr, seen, nr_seen);
	free(seen);
	static_seen = NULL;
}

void options_release(struct options *opts)
{
	strvec_clear(&opts->diff.args);
}
