/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REQUEST_PULL_H
#define REQUEST_PULL_H

#include "options.h"

/*
 * --request-pull [-p] <start> <url> [<end>]: run git request-pull
 * itself (it checks the remote and writes the header, the tag message
 * and the shortlog), then put the clean diffstat (and with -p the
 * patch) of merging <end> into <start> in place of its own.  The part
 * replaced is found by computing exactly what git request-pull appends
 * and checking that its output ends with it; when it does not, this
 * stops rather than guess.  git request-pull's warnings and exit
 * status pass through; a conflicted merge adds a paragraph naming the
 * conflicts and makes the exit status 1.
 */
int request_pull(const struct options *opts);

#endif
