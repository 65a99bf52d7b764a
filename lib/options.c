#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "usage.h"
#include "version.h"

static const char usage_text[] =
"usage: git clean-diffstat [<options>] [<diff-options>] [<upstream> [<head>]] [-- <pathspec>...]\n"
"   or: git clean-diffstat --verify[=<file>] [--no-fetch] [--allow-local] [--porcelain] [<upstream>]\n"
"\n"
"    --check               say whether git request-pull's diffstat is messy\n"
"    --explain             show how git request-pull's diffstat differs\n"
"    --porcelain           --explain (or --verify) in a stable format for scripts\n"
"    --request-pull [-p] <start> <url> [<end>]\n"
"                          run git request-pull with the clean diffstat\n"
"    --verify[=<file>]     check the pull request in <file> (default: stdin)\n"
"                          against what pulling it into <upstream> changes\n"
"    --no-fetch            --verify: never fetch; the tip must be here\n"
"    --allow-local         --verify: fetch from file:// and local paths too\n"
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

enum arg { NOARG, OPTARG, REQARG };

struct diff_option {
	const char *name;		/* long name, or one letter */
	enum arg arg;
	unsigned format : 1;		/* picks the output format */
	unsigned negatable : 1;		/* --no-<name> exists too */
};

/*
 * The options of git diff (diff.c's parseopts as of git 2.38/2.39) that
 * make sense for a diff of two trees.  Left out on purpose: --check,
 * --exit-code and --quiet (they change the exit status, which here
 * tells of conflicts), --follow (one path in a log) and the
 * --ita-*-in-index options (no index is involved).
 */
static const struct diff_option diff_options[] = {
	/* output format */
	{ "p", NOARG, 1, 0 }, { "patch", NOARG, 1, 0 },
	{ "s", NOARG, 1, 0 }, { "no-patch", NOARG, 1, 0 },
	{ "u", NOARG, 1, 0 },
	{ "U", OPTARG, 1, 0 }, { "unified", OPTARG, 1, 0 },
	{ "raw", NOARG, 1, 0 },
	{ "patch-with-raw", NOARG, 1, 0 }, { "patch-with-stat", NOARG, 1, 0 },
	{ "numstat", NOARG, 1, 0 }, { "shortstat", NOARG, 1, 0 },
	{ "X", OPTARG, 1, 0 }, { "dirstat", OPTARG, 1, 0 },
	{ "cumulative", NOARG, 1, 0 }, { "dirstat-by-file", OPTARG, 1, 0 },
	{ "summary", NOARG, 1, 0 },
	{ "name-only", NOARG, 1, 0 }, { "name-status", NOARG, 1, 0 },
	{ "stat", OPTARG, 1, 0 },
	{ "stat-width", REQARG, 1, 0 }, { "stat-name-width", REQARG, 1, 0 },
	{ "stat-graph-width", REQARG, 1, 0 }, { "stat-count", REQARG, 1, 0 },
	{ "compact-summary", NOARG, 1, 1 },
	{ "binary", NOARG, 1, 0 },
	/* how the output looks */
	{ "W", NOARG, 0, 0 }, { "function-context", NOARG, 0, 1 },
	{ "full-index", NOARG, 0, 1 }, { "color", OPTARG, 0, 1 },
	{ "ws-error-highlight", REQARG, 0, 0 },
	{ "z", NOARG, 0, 0 }, { "abbrev", OPTARG, 0, 1 },
	{ "src-prefix", REQARG, 0, 0 }, { "dst-prefix", REQARG, 0, 0 },
	{ "line-prefix", REQARG, 0, 0 }, { "no-prefix", NOARG, 0, 0 },
	{ "inter-hunk-context", REQARG, 0, 0 },
	{ "output-indicator-new", REQARG, 0, 0 },
	{ "output-indicator-old", REQARG, 0, 0 },
	{ "output-indicator-context", REQARG, 0, 0 },
	{ "output", REQARG, 0, 0 },
	/* renames and copies */
	{ "B", OPTARG, 0, 0 }, { "break-rewrites", OPTARG, 0, 0 },
	{ "M", OPTARG, 0, 0 }, { "find-renames", OPTARG, 0, 0 },
	{ "D", NOARG, 0, 0 }, { "irreversible-delete", NOARG, 0, 0 },
	{ "C", OPTARG, 0, 0 }, { "find-copies", OPTARG, 0, 0 },
	{ "find-copies-harder", NOARG, 0, 1 }, { "no-renames", NOARG, 0, 0 },
	{ "rename-empty", NOARG, 0, 1 }, { "l", REQARG, 0, 0 },
	/* the diff algorithm */
	{ "minimal", NOARG, 0, 1 },
	{ "w", NOARG, 0, 0 }, { "ignore-all-space", NOARG, 0, 0 },
	{ "b", NOARG, 0, 0 }, { "ignore-space-change", NOARG, 0, 0 },
	{ "ignore-space-at-eol", NOARG, 0, 0 },
	{ "ignore-cr-at-eol", NOARG, 0, 0 },
	{ "ignore-blank-lines", NOARG, 0, 0 },
	{ "I", REQARG, 0, 0 }, { "ignore-matching-lines", REQARG, 0, 1 },
	{ "indent-heuristic", NOARG, 0, 1 },
	{ "patience", NOARG, 0, 0 }, { "histogram", NOARG, 0, 0 },
	{ "diff-algorithm", REQARG, 0, 0 }, { "anchored", REQARG, 0, 0 },
	{ "word-diff", OPTARG, 0, 0 }, { "word-diff-regex", REQARG, 0, 0 },
	{ "color-words", OPTARG, 0, 0 },
	{ "color-moved", OPTARG, 0, 1 }, { "color-moved-ws", REQARG, 0, 1 },
	/* what is compared */
	{ "relative", OPTARG, 0, 1 },
	{ "a", NOARG, 0, 0 }, { "text", NOARG, 0, 1 },
	{ "R", NOARG, 0, 0 },
	{ "ext-diff", NOARG, 0, 1 }, { "textconv", NOARG, 0, 1 },
	{ "ignore-submodules", OPTARG, 0, 0 }, { "submodule", OPTARG, 0, 0 },
	{ "S", REQARG, 0, 0 }, { "G", REQARG, 0, 0 },
	{ "pickaxe-all", NOARG, 0, 0 }, { "pickaxe-regex", NOARG, 0, 0 },
	{ "O", REQARG, 0, 0 },
	{ "rotate-to", REQARG, 0, 0 }, { "skip-to", REQARG, 0, 0 },
	{ "find-object", REQARG, 0, 0 }, { "diff-filter", REQARG, 0, 0 },
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
						  int *takes_next)
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
	return o;
}

static void set_mode(struct options *opts, enum mode mode, const char *arg)
{
	static const char *mode_option;

	if (opts->mode != MODE_DIFFSTAT && opts->mode != mode)
		usage_error("options '%s' and '%s' cannot be used together",
			    mode_option, arg);
	opts->mode = mode;
	mode_option = arg;
}

/* Sort out what the mode makes of the arguments that are no options. */
static void check_mode(struct options *opts, const char **arg, int nr)
{
	size_t i, j;

	if ((opts->no_fetch || opts->allow_local) && opts->mode != MODE_VERIFY)
		usage_error("'%s' needs --verify", opts->no_fetch ?
			    "--no-fetch" : "--allow-local");
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
	if (opts->mode == MODE_REQUEST_PULL) {
		/* -p is git request-pull's: the patch after the diffstat */
		struct strvec *args = &opts->diff.args;

		for (i = j = 0; i < args->nr; i++)
			if (!strcmp(args->v[i], "-p")) {
				opts->patch = 1;
				free((char *)args->v[i]);
			} else {
				args->v[j++] = args->v[i];
			}
		args->nr = j;
		if (args->v)
			args->v[j] = NULL;
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

void parse_options(int argc, char **argv, struct options *opts)
{
	const char *positional[4];
	int i, nr = 0, only_revs = 0, explain = 0;

	memset(opts, 0, sizeof(*opts));
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const struct diff_option *o;
		int takes_next;

		if (!strcmp(arg, "--")) {
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
			exit(129);
		} else if (!strcmp(arg, "--help")) {
			opts->help = 1;
		} else if (!strcmp(arg, "--version")) {
			printf("git-clean-diffstat version %s\n", git_clean_diffstat_version);
			exit(0);
		} else if (!strcmp(arg, "--check")) {
			set_mode(opts, MODE_CHECK, arg);
		} else if (!strcmp(arg, "--explain")) {
			set_mode(opts, MODE_EXPLAIN, arg);
			explain = 1;
		} else if (!strcmp(arg, "--porcelain")) {
			/* --explain's, or --verify's with it */
			if (opts->mode != MODE_VERIFY)
				set_mode(opts, MODE_EXPLAIN, arg);
			opts->porcelain = 1;
		} else if (!strcmp(arg, "--verify") ||
			   !strncmp(arg, "--verify=", 9)) {
			/* a --porcelain before it was not --explain's */
			if (opts->mode == MODE_EXPLAIN && opts->porcelain &&
			    !explain)
				opts->mode = MODE_DIFFSTAT;
			set_mode(opts, MODE_VERIFY, "--verify");
			opts->verify_file = arg[8] ? arg + 9 : NULL;
			if (opts->verify_file && !*opts->verify_file)
				usage_error("--verify= needs a file name");
		} else if (!strcmp(arg, "--no-fetch")) {
			opts->no_fetch = 1;
		} else if (!strcmp(arg, "--allow-local")) {
			opts->allow_local = 1;
		} else if (!strcmp(arg, "--request-pull")) {
			set_mode(opts, MODE_REQUEST_PULL, arg);
		} else if (!strcmp(arg, "--allow-unrelated-histories")) {
			opts->allow_unrelated = 1;
		} else if ((o = find_diff_option(arg, &takes_next))) {
			strvec_push(&opts->diff.args, arg);
			if (takes_next) {
				if (++i == argc)
					usage_error("option '%s' needs a value", arg);
				strvec_push(&opts->diff.args, argv[i]);
			}
			opts->diff.format |= o->format;
			opts->diff.copies |= !strcmp(o->name, "C") ||
					     !strcmp(o->name, "find-copies");
		} else {
			usage_error("unknown option '%s'", arg);
		}
	}
	check_mode(opts, positional, nr);
}

void options_release(struct options *opts)
{
	strvec_clear(&opts->diff.args);
}
