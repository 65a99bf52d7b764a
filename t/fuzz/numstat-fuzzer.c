// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for numstat_parse(), the parser of
 * `git diff --numstat -z` output: parse an exact-size copy of the input
 * and, when that succeeds, read every path the result points at, so that
 * ASan catches any that strays outside the input.
 */
#include "fuzz.h"
#include "../../lib/numstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct numstat ns = NUMSTAT_INIT;
	const char *err = NULL;
	char *buf = fuzz_copy(data, size);
	size_t i;

	if (!buf)
		return 0;
	if (numstat_parse(buf, size, &ns, &err)) {
		if (!err || ns.file || ns.nr)
			abort();
	} else {
		for (i = 0; i < ns.nr; i++) {
			const struct numstat_file *f = &ns.file[i];

			if (!f->path_len || (f->added < 0) != (f->deleted < 0))
				abort();
			fuzz_read_in(f->path, f->path_len, buf, size);
			fuzz_read_in(f->from, f->from_len, buf, size);
		}
		numstat_release(&ns);
	}
	free(buf);
	return 0;
}
