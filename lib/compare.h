/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef COMPARE_H
#define COMPARE_H

#include "merge.h"
#include "options.h"

/*
 * git request-pull's diffstat against the clean one.  git request-pull
 * diffs <head> against the one merge base git merge-base picks, with
 * -M --stat --summary; the clean diffstat here is computed with the
 * same options, so that any difference comes from the merge bases.
 *
 * compare_check() prints a short paragraph (the merge bases, how many
 * files each diffstat names, the verdict); compare_explain() lists the
 * files that differ, for a person or (opts->porcelain) for a script.
 * Both return 0 when the two diffstats are the same and 1 when git
 * request-pull's is messy.
 */

int compare_check(const struct merge *m, const struct strvec *bases,
		  const struct options *opts);
int compare_explain(const struct merge *m, const struct strvec *bases,
		    const struct options *opts);

#endif
