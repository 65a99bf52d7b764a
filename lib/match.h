/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MATCH_H
#define MATCH_H

#include <stddef.h>

#include "numstat.h"
#include "pullreq.h"
#include "stat.h"

/*
 * A request's stat rows matched with the files of a diff, as git diff
 * --stat names them: whole names first, then abbreviated ones ("..."
 * and a tail of the name, which git cut at a column and then at a '/'
 * after it), each row taking the first free file it stands for, one
 * with the same numbers if there is one.  A row's name is compared
 * with what stat_name() makes of a file with and without
 * core.quotePath (the sender's setting is not known), trailing spaces
 * aside (the padding hides them).  A
 * pure function, in O((rows + files) log files) whatever the mail: a
 * stranger's 20,000 rows against a 20,000-file tip cost no more than a
 * sort.
 *
 * file_of[i] is the file of row i (-1: none), used[j] whether file j
 * has a row; differences counts the rows without a file or with other
 * numbers, and the files without a row unless the request's rows are
 * cut short (rows_cut) or it has none (totals_only: then its totals
 * alone can be compared).
 */
struct match {
	long *file_of;
	char *used;
	size_t differences;
};

void match_rows(const struct pullreq *req, const struct numstat *ns,
		struct match *mt);
void match_release(struct match *mt);

/* Does row r give the numbers file f has? */
int match_same_numbers(const struct stat_row *r, const struct numstat_file *f);

#endif
