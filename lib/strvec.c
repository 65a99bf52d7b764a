#include <stdarg.h>
#include <stdlib.h>

#include "strbuf.h"
#include "strvec.h"

void strvec_push(struct strvec *sv, const char *s)
{
	if (sv->nr + 2 > sv->alloc) {
		sv->alloc = sv->alloc ? sv->alloc * 2 : 16;
		sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
	}
	sv->v[sv->nr++] = xstrdup(s);
	sv->v[sv->nr] = NULL;
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push(sv, sb.buf);
	strbuf_release(&sb);
}

void strvec_pushv(struct strvec *sv, const char *const *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		strvec_push(sv, v[i]);
}

void strvec_clear(struct strvec *sv)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		free((char *)sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->nr = sv->alloc = 0;
}
