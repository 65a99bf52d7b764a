#ifndef OPTIONS_H
#define OPTIONS_H

#include "strvec.h"

/*
 * The command line:
 *
 *	git clean-diffstat [<options>] [<diff-options>] [<upstream> [<head>]]
 *			   [-- <pathspec>...]
 *
 * parse_options() sorts the arguments into the tool's own options, the
 * options for git diff (checked against the list of those git diff
 * knows, so that a typo is a usage error and not a revision), at most
 * two revisions and the pathspecs after "--".  It handles -h and
 * --version itself, and on a usage error prints the error and the usage
 * on stderr and exits 129, as git does.
 */

enum mode {
	MODE_DIFFSTAT,			/* the clean diffstat */
	MODE_CHECK,			/* --check: is request-pull's messy? */
	MODE_EXPLAIN,			/* --explain: how do the two differ? */
	MODE_REQUEST_PULL		/* --request-pull: request-pull, cleaned */
};

struct options {
	enum mode mode;
	int porcelain;			/* --porcelain: --explain for scripts */
	struct strvec diff;		/* diff options, in the order given */
	int diff_format;		/* one of them picks the output format */
	int diff_copies;		/* one of them is -C or --find-copies */
	const char *rev[2];		/* <upstream>, <head>; NULL: default */
	const char *url;		/* --request-pull's <url> */
	const char *end;		/* --request-pull's <end>, as given */
	int patch;			/* --request-pull -p */
	char **pathspec;		/* the arguments after "--" */
	int nr_pathspec;
	int allow_unrelated;		/* --allow-unrelated-histories */
	int help;			/* --help: show the manual page */
};

void parse_options(int argc, char **argv, struct options *opts);

/*
 * Push onto argv the command "git --no-pager diff" with renames ("-C",
 * "-M"; a -C of the user's takes the place of a default -C), then format (a NULL-terminated list) or, when format is NULL,
 * "--stat --summary" unless the user chose a format, then the user's
 * diff options, the two trees and the pathspecs.
 */
void diff_command(struct strvec *argv, const struct options *opts,
		  const char *renames, const char *const *format,
		  const char *from, const char *to);

#endif
