/*
 * libFuzzer target for numstat_parse(), the parser of
 * `git diff --numstat -z` output: parse an exact-size copy of the input
 * and, when that succeeds, read every path the result points at, so that
 * ASan catches any that strays outside the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/numstat.h"

static volatile unsigned char sink;

static void walk(const char *s, size_t n, const char *buf, size_t len)
{
	size_t i;

	if (!n)
		return;
	if (!s || s < buf || n > len || (size_t)(s - buf) > len - n)
		abort();
	for (i = 0; i < n; i++)
		sink ^= (unsigned char)s[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct numstat ns = NUMSTAT_INIT;
	const char *err = NULL;
	char *buf = malloc(size ? size : 1);
	size_t i;

	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	if (numstat_parse(buf, size, &ns, &err)) {
		if (!err || ns.file || ns.nr)
			abort();
	} else {
		for (i = 0; i < ns.nr; i++) {
			const struct numstat_file *f = &ns.file[i];

			if (!f->path_len || (f->added < 0) != (f->deleted < 0))
				abort();
			walk(f->path, f->path_len, buf, size);
			walk(f->from, f->from_len, buf, size);
		}
		numstat_release(&ns);
	}
	free(buf);
	return 0;
}
