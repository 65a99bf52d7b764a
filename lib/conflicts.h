/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CONFLICTS_H
#define CONFLICTS_H

#include "mtree.h"
#include "resolve.h"
#include "strbuf.h"

/*
 * The report of a conflicted merge.  report_conflicts() warns on
 * stderr: which merge, that the diffstat counts of conflicted files
 * include the conflict markers (when some have them), and one line per
 * conflicted path, indented by two spaces, with the kinds of conflict
 * merge-tree reported for it:
 *
 *	warning: merging 'topic' into 'linus' conflicts; ...
 *	  fs/foo.c (content)
 *	  fs/bar.c (modify/delete)
 *
 * Paths are quoted as git quotes them, after core.quotePath.
 *
 * Only a conflict in the contents of a text file leaves markers in the
 * merged tree: a binary file, a symlink (listed as "symlink", not
 * "content") or a submodule keeps one side, and a modify/delete or a
 * rename conflict keeps whole files.  When some conflicted files have
 * markers and others not, each line of a file with markers says so:
 *
 *	  fs/foo.c (content, with conflict markers)
 *
 * conflict_lines() adds just the lines of paths to sb, and returns
 * which of them have markers.
 */
enum markers {
	MARKERS_NONE,			/* no conflicted file has them */
	MARKERS_SOME,			/* their lines say "with conflict markers" */
	MARKERS_ALL
};

void report_conflicts(const struct pull *p, const struct mtree_result *res);
enum markers conflict_lines(struct strbuf *sb, const struct pull *p,
			    const struct mtree_result *res);

#endif
