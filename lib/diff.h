/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DIFF_H
#define DIFF_H

#include "merge.h"
#include "options.h"
#include "resolve.h"
#include "run.h"

/*
 * Every git diff the tool runs, its command line built here and nowhere
 * else.  Each is the porcelain git diff, as the procedure and git
 * request-pull run it, so that diff.* and color.* configuration apply
 * as they would there:
 *
 *	--no-pager diff <renames> <format> <user's diff options>
 *		--end-of-options <from> <to> -- <user's pathspecs>
 *
 * where a -C of the user's takes the place of renames "-C" (a second -C
 * would mean --find-copies-harder), and format is the NULL-terminated
 * list given or, when that is NULL, "--stat --summary" unless the user
 * chose an output format.  user may be NULL: no options, no pathspecs.
 *
 * Each function prepares cp; the caller says where its output goes and
 * runs it.
 */

/*
 * The clean diffstat: the procedure's
 *
 *	git diff -C <format> <user's options> <upstream> <merged tree>
 *
 * as in its checkout of the merge: with the quarantine's objects and the
 * merged tree's attributes and .gitmodules settings (gitmodules.h).
 */
void merge_diff(struct child_process *cp, const struct merge *m,
		const struct diff_opts *user, const char *const *format);

/*
 * git request-pull's diffstat, as git-request-pull.sh computes it:
 * git diff -M <format> <user's options> from base to <head>, in the
 * repository as it is (no quarantine: that diff never sees the merge).
 * base is the first of merge_run()'s bases.
 */
void request_pull_diff(struct child_process *cp, const struct pull *p,
		       const char *base, const struct diff_opts *user,
		       const char *const *format);

/*
 * The paths that differ between two merge bases a and b, NUL-separated:
 * git diff --no-renames --name-only -z with the user's options and
 * pathspecs, so that they are named as request_pull_diff() names them.
 */
void merge_bases_diff(struct child_process *cp, const struct diff_opts *user,
		      const char *a, const char *b);

#endif
