// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for mtree_parse(): parse the input as
 * `git merge-tree --write-tree -z --messages` output, after what merge
 * drivers may have said, with SHA-1 ids and then with SHA-256 ones,
 * and, when that succeeds, touch every byte of every string the result
 * points at, so that ASan catches any string that strays outside the
 * input (t/fuzz/fuzz.h).
 */
#include "fuzz.h"
#include "../../lib/mtree.h"

static void walk(struct str s, const char *buf, size_t len)
{
	fuzz_read_in(s.s, s.len, buf, len);
}

static void parse(const char *buf, size_t size, size_t id_len)
{
	struct mtree_result res = MTREE_RESULT_INIT;
	const char *err = NULL;
	size_t i, j;

	if (mtree_parse(buf, size, id_len, &res, &err)) {
		/* failure: a message, and nothing left allocated */
		if (!err || res.entries || res.messages || res.nr_entries ||
		    res.nr_messages)
			abort();
		return;
	}

	/* the prelude and the tree id tile the start of the input */
	if (res.tree.len != id_len || res.prelude.s != buf ||
	    res.tree.s != buf + res.prelude.len)
		abort();
	walk(res.prelude, buf, size);
	walk(res.tree, buf, size);
	walk(res.freeform, buf, size);
	if (res.nr_entries && !res.entries)
		abort();
	for (i = 0; i < res.nr_entries; i++) {
		const struct mtree_entry *e = &res.entries[i];

		if (e->stage < 1 || e->stage > 3)
			abort();
		walk(e->oid, buf, size);
		walk(e->path, buf, size);
	}
	if (res.nr_messages && !res.messages)
		abort();
	for (i = 0; i < res.nr_messages; i++) {
		const struct mtree_message *m = &res.messages[i];
		struct str label;

		if (m->nr_paths && !m->paths)
			abort();
		for (j = 0; j < m->nr_paths; j++)
			walk(m->paths[j], buf, size);
		walk(m->type, buf, size);
		walk(m->text, buf, size);
		fuzz_sink ^= (unsigned char)mtree_is_conflict(m);
		/* in the type or static: just read it */
		label = mtree_conflict_label(m, (unsigned)i & 0xe, (int)i & 1);
		fuzz_read(label.s, label.len);
	}

	mtree_release(&res);
	if (res.entries || res.messages || res.nr_entries || res.nr_messages)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);

	if (!buf)
		return 0;
	parse(buf, size, 40);		/* SHA-1 */
	parse(buf, size, 64);		/* SHA-256 */
	free(buf);
	return 0;
}
