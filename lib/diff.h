/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DIFF_H
#define DIFF_H

#include "options.h"
#include "strvec.h"

/*
 * The command lines of the git diffs the tool runs.  Both are the
 * porcelain git diff, as the procedure and git request-pull run it, so
 * that diff.* and color.* configuration apply as they would there.
 *
 * diff_args() pushes onto args
 *
 *	--no-pager diff <renames> <format> <user's diff options>
 *		--end-of-options <from> <to> -- <user's pathspecs>
 *
 * where a -C of the user's takes the place of renames "-C" (a second -C
 * would mean --find-copies-harder), and format is the NULL-terminated
 * list given or, when that is NULL, "--stat --summary" unless the user
 * chose an output format.  user may be NULL: no options, no pathspecs.
 *
 * Its two callers are in merge.h: merge_diff(), the clean diffstat
 * ("-C" from <upstream> to the merged tree, in the merge's environment),
 * and request_pull_diff(), git request-pull's ("-M" from a merge base to
 * <head>, in the repository as it is).
 */
void diff_args(struct strvec *args, const struct diff_opts *user,
	       const char *renames, const char *const *format,
	       const char *from, const char *to);

#endif
