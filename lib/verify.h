#ifndef VERIFY_H
#define VERIFY_H

#include "options.h"

/*
 * --verify[=<file>] [<upstream>]: check a pull request received, before
 * it is pulled.  The message (a body, an RFC 822 message or an mbox of
 * many, lib/pullmsg.h) is read from <file> or stdin; for each pull
 * request in it:
 *
 *  1. the tip: the "up to" commit when the repository has it, else
 *     <url> <ref> fetched (unless --no-fetch) into a scratch repository
 *     inside the quarantine (quarantine.h), whose objects every later
 *     git reads as alternates: the repository gains no object, ref,
 *     FETCH_HEAD or config, and no gc or maintenance runs.  The URL and
 *     ref pass pullmsg_check_url() (https, http, git, ssh; file and
 *     paths with --allow-local) and pullmsg_check_ref() before anything
 *     runs, the URL again as the receiver's url.<base>.insteadOf
 *     rewrites it (which the fetch applies as git fetch would), reach git after --end-of-options, with GIT_ALLOW_PROTOCOL
 *     set, never through a shell.  A fetched tip that is not the "up
 *     to" commit: the branch moved since the request.
 *  2. the tip merged into <upstream> (merge_run()), and the request's
 *     stat rows matched by name (pullmsg_name_matches()) and compared
 *     by numbers with the clean diffstat, and with git request-pull's
 *     from the first merge base;
 *  3. a report: matches (the clean diffstat), messy (git request-pull's
 *     from one merge base), differs, or conflicts.
 *
 * A request that cannot be verified (its URL or ref refused, its tip
 * missing with --no-fetch, a failed fetch) dies when it is the only
 * message; in an mbox its report is an error line and the next goes on.
 *
 * Returns the exit status: 0 when every request matches, else 1.
 */
int verify(const struct options *opts);

#endif
