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

struct options {
	struct strvec diff;		/* diff options, in the order given */
	int diff_format;		/* one of them picks the output format */
	const char *rev[2];		/* <upstream>, <head>; NULL: default */
	char **pathspec;		/* the arguments after "--" */
	int nr_pathspec;
	int allow_unrelated;		/* --allow-unrelated-histories */
	int help;			/* --help: show the manual page */
};

void parse_options(int argc, char **argv, struct options *opts);

#endif
