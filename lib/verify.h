/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef VERIFY_H
#define VERIFY_H

#include "options.h"

/*
 * --verify[=<file>] [<upstream>]: check a pull request received, before
 * it is pulled.  The messages of <file> or stdin are read by git's own
 * plumbing and their requests found (pullmsg.h); for each request:
 *
 *  1. the gate: the URL and ref pass fetchgate_check() before any git
 *     runs (when a fetch may follow), and again as the receiver's
 *     url.<base>.insteadOf rewrites them;
 *  2. the tip: the "up to" commit when the repository has it, else
 *     <url> <ref> fetched (unless --no-fetch) into the quarantine
 *     (fetch.h); a fetched tip that is not the "up to" commit: the
 *     branch moved since the request;
 *  3. the merge of the tip into <upstream> (merge_run()), and the
 *     request's stat rows matched with the clean diffstat's files
 *     (match.h), then, only if they differ, with git request-pull's
 *     from the first merge base;
 *  4. the report: matches (the clean diffstat), messy (git
 *     request-pull's from one merge base), differs, or conflicts.
 *
 * A request that cannot be verified (its URL or ref refused, its tip
 * missing with --no-fetch, a failed fetch) dies when it is the only
 * message; in an mbox its report is an error line and the next goes on.
 *
 * Returns the exit status: 0 when every request matches, else 1.
 */
int verify(const struct options *opts);

#endif
