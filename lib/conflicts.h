#ifndef CONFLICTS_H
#define CONFLICTS_H

#include "mtree.h"
#include "resolve.h"
#include "strbuf.h"

/*
 * The report of a conflicted merge.  report_conflicts() warns on
 * stderr: which merge, that the diffstat counts of conflicted files
 * include the conflict markers, and one line per conflicted path,
 * indented by two spaces, with the kinds of conflict merge-tree
 * reported for it:
 *
 *	warning: merging 'topic' into 'linus' conflicts; ...
 *	  fs/foo.c (content)
 *	  fs/bar.c (modify/delete)
 *
 * Paths are quoted as git quotes them, after core.quotePath.
 * conflict_lines() adds just the lines of paths to sb.
 */
void report_conflicts(const struct pull *p, const struct mtree_result *res);
void conflict_lines(struct strbuf *sb, const struct mtree_result *res);

#endif
