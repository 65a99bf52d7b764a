// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "progress.h"
#include "strbuf.h"
#include "usage.h"

struct progress {
	const char *title;
	size_t done, fetching;
	size_t shown;			/* the length of the line on stderr */
};

static int wanted = -1;

void progress_wanted(int want)
{
	wanted = want;
}

struct progress *start_progress(const char *title)
{
	struct progress *p;

	if (wanted == 0 || (wanted < 0 && !isatty(2)))
		return NULL;
	p = xmalloc(sizeof(*p));
	*p = (struct progress){ .title = title };
	display_progress(p, 0, 0);
	return p;
}

/* The line, "\r" first, padded to cover a longer one before it. */
static void show(struct progress *p, const char *end)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;

	strbuf_addf(&sb, "%s: %zu", p->title, p->done);
	if (p->fetching)
		strbuf_addf(&sb, ", %zu fetching", p->fetching);
	strbuf_addstr(&sb, end);
	len = sb.len;
	while (sb.len < p->shown)
		strbuf_addch(&sb, ' ');
	fprintf(stderr, "\r%s", sb.buf);
	fflush(stderr);
	p->shown = len;
	strbuf_release(&sb);
}

void display_progress(struct progress *p, size_t done, size_t fetching)
{
	if (!p)
		return;
	p->done = done;
	p->fetching = fetching;
	show(p, "");
}

void progress_clear(struct progress *p)
{
	if (!p || !p->shown)
		return;
	fprintf(stderr, "\r%*s\r", (int)p->shown, "");
	fflush(stderr);
	p->shown = 0;
}

void stop_progress(struct progress **pp)
{
	struct progress *p = *pp;

	if (!p)
		return;
	p->fetching = 0;
	show(p, ", done.\n");
	free(p);
	*pp = NULL;
}
