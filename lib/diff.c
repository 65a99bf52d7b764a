// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "diff.h"

static void diff_args(struct strvec *args, const struct diff_opts *user,
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

void merge_diff(struct child_process *cp, const struct merge *m,
		const struct diff_opts *user, const char *const *format)
{
	diff_args(&cp->args, user, "-C", format, m->pull->upstream.oid.buf,
		  m->tree.buf);
	strvec_pushv(&cp->env, m->env.v, m->env.nr);
	/* attributes and .gitmodules as in the procedure's checkout */
	strvec_pushf(&cp->env, "GIT_ATTR_SOURCE=%s", m->tree.buf);
	strvec_pushv(&cp->env, m->gitmodules.v, m->gitmodules.nr);
}

void request_pull_diff(struct child_process *cp, const struct pull *p,
		       const char *base, const struct diff_opts *user,
		       const char *const *format)
{
	diff_args(&cp->args, user, "-M", format, base, p->head.oid.buf);
}

void merge_bases_diff(struct child_process *cp, const struct diff_opts *user,
		      const char *a, const char *b)
{
	static const char *const name_only[] = { "--name-only", "-z", NULL };

	diff_args(&cp->args, user, "--no-renames", name_only, a, b);
}
