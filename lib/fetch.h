/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FETCH_H
#define FETCH_H

#include "fetchgate.h"
#include "resolve.h"
#include "run.h"
#include "strbuf.h"
#include "strvec.h"

/*
 * Fetching a pull request's tip into the quarantine.
 *
 * The tips are fetched into a scratch repository inside the quarantine
 * (quarantine.h), made by git init the first time, whose objects every
 * later git of ours then reads as alternates: the receiver's repository
 * gains no object, ref, FETCH_HEAD or config, and no gc, maintenance or
 * hook runs.
 *
 * The fetch is the one `git fetch <url> <ref>` would do in the
 * receiver's repository: the scratch repository sees the same system
 * and global configuration, and the repository's own (local and
 * worktree scopes: core.sshCommand, core.gitProxy, http.*, url.*,
 * credentials...) is handed to its git fetch in its environment, as
 * configuration of the command line.  Only settings that make the
 * repository what it is (core.bare, core.worktree, extensions.*,
 * includes, already read) stay out.  Nothing from the mail chooses a
 * setting: the URL and ref have passed fetchgate_check() and reach git
 * after --end-of-options.
 *
 * The fetch is stopped when it takes longer than its timeout, or when
 * it has received nothing for its stall limit: that request's error.
 * Over git://, what it receives is seen byte for byte, the connection
 * going through us (relay.h, as git's proxy command); when the receiver
 * has a proxy command of their own, and over the other transports,
 * what git writes on stderr (its progress) is how data arriving is
 * seen.  What it says on stderr is kept to its last 64 KiB.
 */

struct fetch_settings {
	struct fetchgate_rewrites rewrites;	/* every scope's insteadOf */
	struct strvec own;		/* key, value, key, value...: the
					   repository's own configuration */
	int timeout, stall;		/* clean-diffstat.fetchTimeout and
					   fetchStall, seconds; -1: unset */
	int jobs;			/* clean-diffstat.jobs; 0: unset */
	int git_proxy;			/* a core.gitProxy is set */
};

#define FETCH_SETTINGS_INIT \
	{ FETCHGATE_REWRITES_INIT, STRVEC_INIT, -1, -1, 0, 0 }

/*
 * Prepare cp to read the receiver's configuration into out; what it
 * gives (it exited rc) is for fetch_settings_parse().
 */
void fetch_settings_cmd(struct child_process *cp, struct strbuf *out);
void fetch_settings_parse(struct fetch_settings *fs, int rc,
			  const struct strbuf *out);
void fetch_settings_release(struct fetch_settings *fs);

struct fetch_request {
	const char *url;
	const char *ref;		/* "" : the remote's HEAD */
	/* of the URL git fetch uses (fetchgate_check() says) */
	enum fetchgate_transport transport;
	size_t number;			/* of the request, from 1: names its ref */
	int allow_local;
	int timeout, stall;		/* seconds; 0: no limit */
};

/*
 * The scratch repository the fetches go to, made once: git init in
 * the quarantine, which fetch_prepare_cmd() sets cp up to run (beside
 * other gits: it needs nothing of them), and whose exit code rc
 * fetch_prepared() takes (it dies when git init failed).  Every git
 * run after it reads its objects (and fetch_local_commit_cmd() does
 * not).
 */
void fetch_prepare_cmd(const struct pull *p, struct child_process *cp);
void fetch_prepared(int rc);

/*
 * Prepare cp to fetch rq into the scratch repository, its stderr into
 * err (a git for run_git_parallel(), several fetches side by side).
 */
void fetch_cmd(const struct fetch_settings *fs, const struct pull *p,
	       const struct fetch_request *rq, struct child_process *cp,
	       struct strbuf *err);

/*
 * What the fetch of fetch_cmd() gave (it exited rc, said err): 0, with
 * the commit the ref names (a tag peeled) and its subject; -1 on
 * failure: why, one line that carries all git said of it (run_said():
 * an ssh's own lines, the server's, git's fatal one with the lines
 * that go on from it), ready to be shown (text from the server is
 * escaped).
 */
int fetch_result(int rc, const struct strbuf *err, const struct pull *p,
		 const struct fetch_request *rq, struct strbuf *tip,
		 struct strbuf *subject, struct strbuf *why);

/*
 * Prepare cp to find <spec>^{commit} and its subject, into out, in the
 * receiver's repository as it is: without the objects an earlier
 * request fetched, which are not the receiver's.  commit_found() reads
 * it (it exited rc): 0, or -1 when there is no such commit.
 */
void fetch_local_commit_cmd(struct child_process *cp, const char *spec,
			    struct strbuf *out);
int commit_found(int rc, const struct strbuf *out, struct strbuf *oid,
		 struct strbuf *subject);

#endif
