// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "diff.h"

void diff_args(struct strvec *args, const struct diff_opts *user,
	       const char *renames, const char *const *format,
	       const char *from, const char *to)
{
	strvec_pushl(args, "--no-pager", "diff", NULL);
	if (strcmp(renames, "-C") || !user || !user->copies)
		strvec_push(args, renames);
	if (format)
		for (; *format; format++)
			strvec_push(args, *format);
	else if (!user || !user->format)
		strvec_pushl(args, "--stat", "--summary", NULL);
	if (user)
		strvec_pushv(args, user->args.v, user->args.nr);
	strvec_pushl(args, "--end-of-options", from, to, "--", NULL);
	if (user)
		strvec_pushv(args, user->pathspec, user->nr_pathspec);
}
