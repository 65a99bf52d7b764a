/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef OPTIONS_H
#define OPTIONS_H

#include "strvec.h"

/*
 * The command line:
 *
 *	git clean-diffstat [<options>] [<diff-options>] [<upstream> [<head>]]
 *			   [-- <pathspec>...]
 *	git clean-diffstat --request-pull [-p] [<diff-options>] [--] <start>
 *			   <url> [<end>]
 *	git clean-diffstat --verify[=<file>] [--no-fetch] [--allow-local]
 *			   [--fetch-timeout=<seconds>] [--fetch-stall=<seconds>]
 *			   [--jobs=<n>] [--in-order] [--[no-]progress] [-q]
 *			   [--porcelain] [<upstream>]
 *
 * parse_options() sorts the arguments into the tool's own options, the
 * options for git diff (checked against the list of those git diff
 * knows, so that a typo is a usage error and not a revision), the
 * revisions and the pathspecs after "--" (with --request-pull, "--" only
 * ends the options, as for git request-pull).  It handles -h and --version
 * itself, and on a usage error prints the error and the usage on stderr
 * and exits 129, as git does.  It runs nothing.
 */

enum mode {
	MODE_DIFFSTAT,			/* the clean diffstat */
	MODE_CHECK,			/* --check: is request-pull's messy? */
	MODE_EXPLAIN,			/* --explain: how do the two differ? */
	MODE_REQUEST_PULL,		/* --request-pull: request-pull, cleaned */
	MODE_VERIFY			/* --verify: check a pull request received */
};

/* What the user asked of git diff. */
struct diff_opts {
	struct strvec args;		/* the diff options, in the order given */
	int format;			/* one of them picks the output format */
	int copies;			/* one of them is -C or --find-copies */
	const char *const *pathspec;	/* the arguments after "--" */
	size_t nr_pathspec;
};

struct options {
	enum mode mode;
	int porcelain;			/* --porcelain: --explain for scripts */
	int nul;			/* --porcelain -z: records end with NUL */
	struct diff_opts diff;
	const char *upstream;		/* <upstream> (<start>); NULL: default */
	const char *head;		/* <head>; NULL: HEAD */
	const char *url;		/* --request-pull's <url> */
	const char *end;		/* --request-pull's <end>, as given */
	int patch;			/* --request-pull -p */
	int allow_unrelated;		/* --allow-unrelated-histories */
	int help;			/* --help: show the manual page */
	const char *verify_file;	/* --verify=<file>; NULL or "-": stdin */
	int no_fetch;			/* --verify --no-fetch */
	int allow_local;		/* --verify --allow-local */
	int fetch_timeout;		/* --fetch-timeout=<seconds>; -1: unset */
	int fetch_stall;		/* --fetch-stall=<seconds>; -1: unset */
	int jobs;			/* --jobs=<n>; 0: unset */
	int in_order;			/* --in-order */
	int progress;			/* --progress 1, --no-progress or -q
					   0; -1: unset (stderr a terminal?) */
};

void parse_options(int argc, char **argv, struct options *opts);
void options_release(struct options *opts);

#endif
