// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fetch.h"
#include "judge.h"
#include "progress.h"
#include "pullmsg.h"
#include "quarantine.h"
#include "quote.h"
#include "resolve.h"
#include "run.h"
#include "signals.h"
#include "verdict-print.h"
#include "verify.h"

/* The fetch's limits when neither the command line nor the config says. */
#define DEFAULT_FETCH_TIMEOUT 600
#define DEFAULT_FETCH_STALL 60

/*
 * The requests remembered for the replies that quote them: a thread
 * (what b4 mbox writes) keeps its replies near the request, and memory
 * does not grow with the input.
 */
#define SEEN_REQUESTS 256

/* A request of the input, on its way to its report. */
struct request {
	struct verifying vf;
	/* why it cannot be verified: one line (what a single message
	   dies with, what an mbox's report of it says) */
	struct strbuf fail;
	struct strbuf err;		/* its fetch's stderr */
	struct fetch_request fetch;
	int fetching;			/* its fetch runs, as task */
	size_t task;
	int ready;			/* its tip is known, or why not */
	size_t quotes;			/* the message whose request it
					   quotes, checked there; or 0 */
	struct pullmsg_list *message;	/* its message's, freed with its last */
	struct request *next;		/* in the window */
};

/*
 * What verify() works with: the input, read one message at a time, and
 * the window of its requests read and not yet reported, in its order.
 */
struct verifying_all {
	const struct options *opts;
	struct pull upstream;
	struct fetch_settings settings;
	struct fetch_request fetch;	/* every request's limits */
	struct mail_input in;
	int ended;			/* the input is read to its end */
	size_t entries;			/* the messages' entries read so far */
	struct request *head, **tail;	/* the window: nr - reported long, */
	size_t window;			/* at most that */
	size_t nr;			/* the requests read so far */
	size_t started;			/* fetches started */
	size_t reported;		/* requests reported */
	size_t fetching;		/* fetches running */
	struct progress *progress;
	int mbox;
	size_t count[NR_VERDICTS];
	int status;
	/* the last SEEN_REQUESTS requests read: URL, ref, tip and base */
	struct seen {
		struct strbuf id;
		size_t number;		/* its message's */
	} seen[SEEN_REQUESTS];
	size_t nr_seen, nr_quotes;
	/* --in-order: <upstream> with the requests pulled so far merged */
	struct strbuf chain, chain_tree;
	struct pulled *pulled;
	size_t nr_pulled, alloc_pulled;
};

/* A limit of the fetch: the command line's, the config's, or ours. */
static int limit(int option, int config, int fallback)
{
	return option >= 0 ? option : config >= 0 ? config : fallback;
}

/*
 * --in-order: pull r into the chain, as a merge commit of its merged
 * tree with the chain and its tip as parents, written in the
 * quarantine (no ref names it); every later git reads it there.
 */
static void pull_in_memory(struct verifying_all *all, struct request *r)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	static int shared;

	if (!shared++) {
		struct strbuf alt = STRBUF_INIT;

		alternates_list(&alt, quarantine_path());
		if (setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", alt.buf, 1))
			die_errno("cannot set GIT_ALTERNATE_OBJECT_DIRECTORIES");
		strbuf_release(&alt);
	}
	strvec_pushl(&cp.args, "commit-tree", "-p", all->chain.buf, "-p",
		     r->vf.tip.buf, "-m", "pulled by git clean-diffstat --in-order",
		     "--end-of-options", r->vf.merged_tree.buf, NULL);
	quarantine_env(&cp.env, all->upstream.objdir.buf);
	/* the same commit whatever the clock: the same ids in every run */
	strvec_pushl(&cp.env, "GIT_AUTHOR_NAME=git clean-diffstat",
		     "GIT_AUTHOR_EMAIL=", "GIT_COMMITTER_NAME=git clean-diffstat",
		     "GIT_COMMITTER_EMAIL=", "GIT_AUTHOR_DATE=@0 +0000",
		     "GIT_COMMITTER_DATE=@0 +0000", NULL);
	cp.out = &out;
	run_git_or_die(&cp);
	strbuf_trim_newlines(&out);
	strbuf_release(&all->chain);
	all->chain = out;
	strbuf_reset(&all->chain_tree);
	strbuf_add(&all->chain_tree, r->vf.merged_tree.buf, r->vf.merged_tree.len);
	ALLOC_GROW(all->pulled, all->nr_pulled + 1, all->alloc_pulled);
	all->pulled[all->nr_pulled].number = r->vf.msg->number;
	all->pulled[all->nr_pulled++].tip = strbuf_detach(&r->vf.tip, NULL);
}

static void request_release(struct request *r)
{
	strbuf_release(&r->vf.url);
	strbuf_release(&r->vf.ref);
	strbuf_release(&r->vf.want);
	strbuf_release(&r->vf.tip);
	strbuf_release(&r->vf.subject);
	strbuf_release(&r->vf.p.head.oid);
	strbuf_release(&r->vf.merged_tree);
	strbuf_release(&r->vf.refetch);
	strbuf_release(&r->fail);
	strbuf_release(&r->err);
	if (r->message) {
		pullmsg_release(r->message);
		free(r->message);
	}
	free(r);
}

/*
 * The report of one request into sb, its verdict counted: judge.h's
 * verdict, or FAILED with r->fail filled in.
 */
static void report_one(struct verifying_all *all, struct request *r,
		       struct strbuf *sb)
{
	const struct options *opts = all->opts;
	struct verifying *vf = &r->vf;
	const struct pullmsg *msg = vf->msg;
	struct judgement j;
	enum verdict v = FAILED;

	if (all->mbox && !opts->porcelain) {
		if (all->reported > 1)
			strbuf_addch(sb, '\n');
		strbuf_addf(sb, "message %zu: ", msg->number);
		quote_shown(sb, msg->subject.s, msg->subject.len);
		if (msg->nr_requests > 1)
			strbuf_addf(sb, " (request %zu of %zu)", msg->request,
				    msg->nr_requests);
		strbuf_addch(sb, '\n');
	}
	if (r->quotes) {
		verdict_print_quote(sb, msg, r->quotes, opts->porcelain);
		return;
	}
	/* a person's notes go first; porcelain's in the records */
	if (!opts->porcelain)
		verdict_print_damage(sb, &msg->req, 0);
	if (vf->how && opts->in_order) {
		/* into <upstream> with those before it pulled (judge()
		   only reads them) */
		vf->p.upstream.oid = all->chain;
		vf->p.upstream_tree = all->chain_tree;
		vf->earlier = all->pulled;
		vf->nr_earlier = all->nr_pulled;
		vf->upstream_oid = all->upstream.upstream.oid.buf;
	}
	if (vf->how) {
		judge(vf, &j);
		v = j.verdict;
		if (j.tip_missing)
			strbuf_addf(&r->fail, "the tip %s is not in this "
				    "repository, and --no-fetch forbids "
				    "fetching '%s' from '%s'", vf->want.buf,
				    vf->ref.len ? vf->ref.buf : "HEAD",
				    vf->url.buf);
		else if (v == FAILED)
			strbuf_add(&r->fail, j.why.buf, j.why.len);
		else if (opts->porcelain)
			verdict_print_porcelain(sb, vf, &j);
		else
			verdict_print_human(sb, vf, &j);
		judgement_release(&j);
	}
	if (opts->in_order && v != FAILED && v != CONFLICTS)
		pull_in_memory(all, r);
	if (v == FAILED) {
		/* one message: as fatal as any other error */
		if (!all->mbox) {
			progress_clear(all->progress);
			die("%s", r->fail.buf);
		}
		/* in an mbox: its report says so, the others go on */
		verdict_print_failure(sb, r->vf.msg, &r->fail, opts->porcelain);
	}
	all->count[v]++;
	all->status |= v != MATCHES;
}

/*
 * Report every request at the head of the window that is ready, in the
 * order of the input, as soon as those before it are reported: the
 * output is the same however many fetches run at once.  Nothing is
 * reported before it is known whether the input is one mail or many
 * (a second message, or a second request in the first).
 */
static void report_ready(struct verifying_all *all)
{
	struct strbuf sb = STRBUF_INIT;

	if (!all->mbox && !all->ended)
		return;
	while (all->head && all->head->ready) {
		struct request *r = all->head;

		all->head = r->next;
		if (!all->head)
			all->tail = &all->head;
		all->reported++;
		report_one(all, r, &sb);
		progress_clear(all->progress);
		fwrite(sb.buf, 1, sb.len, stdout);
		flush_stdout();
		strbuf_reset(&sb);
		display_progress(all->progress, all->reported, all->fetching);
		request_release(r);
	}
	strbuf_release(&sb);
}

/*
 * Whether the tip of r is here already.  With --no-fetch, it must be:
 * the judge finds it in the walk it does anyway (judge.h), and a tip
 * not here is its error.  Else a tip here is verified as it is, its
 * fetch only re-reading the branch, and every request is fetched.
 */
static void find_local_tip(struct verifying_all *all, struct request *r)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct verifying *vf = &r->vf;

	if (all->opts->no_fetch) {
		vf->how = "local";
		r->ready = 1;
		return;
	}
	fetch_local_commit_cmd(&cp, vf->want.buf, &out);
	if (!commit_found(run_git(&cp), &out, &vf->tip, &vf->subject))
		vf->how = "local";
	strbuf_release(&out);
	r->fetch.url = vf->url.buf;
	r->fetch.ref = vf->ref.buf;
	r->fetch.number = all->nr;	/* a message may hold several */
}

/*
 * The request of msg, gated: what it says to fetch is checked before a
 * git uses it; a request refused, or that cannot be read, is ready
 * with its error.  Else its tip is looked up.
 */
static struct request *new_request(struct verifying_all *all,
				   const struct pullmsg *msg, size_t quotes)
{
	const struct options *opts = all->opts;
	struct request *r = xmalloc(sizeof(*r));

	*r = (struct request){
		.vf = { .opts = opts, .msg = msg, .p = all->upstream,
			.url = STRBUF_INIT, .ref = STRBUF_INIT,
			.want = STRBUF_INIT, .tip = STRBUF_INIT,
			.subject = STRBUF_INIT, .merged_tree = STRBUF_INIT,
			.refetch = STRBUF_INIT },
		.fail = STRBUF_INIT,
		.err = STRBUF_INIT,
		.fetch = all->fetch,
	};
	/* judge() sets the tip as its <head> */
	strbuf_init(&r->vf.p.head.oid);
	strbuf_add(&r->vf.url, msg->req.url.s, msg->req.url.len);
	strbuf_add(&r->vf.ref, msg->req.ref.s, msg->req.ref.len);
	strbuf_add(&r->vf.want, msg->req.tip.s, msg->req.tip.len);
	all->nr++;
	if (quotes) {
		r->quotes = quotes;
		r->ready = 1;
		all->nr_quotes++;
	} else if (msg->too_large)
		strbuf_addf(&r->fail, "message %zu is %s", msg->number,
			    msg->error);
	else if (msg->error)
		/* it looks like a request, but none can be read */
		strbuf_addf(&r->fail, "no pull request in message %zu: %s",
			    msg->number, msg->error);
	else if (!opts->no_fetch)
		/* the URL and ref, and what insteadOf makes of the URL */
		fetchgate_check(&all->settings.rewrites, r->vf.url.buf,
				r->vf.ref.buf, opts->allow_local,
				&r->fetch.transport, &r->fail);
	if (r->fail.len)
		r->ready = 1;
	else if (!r->ready)
		find_local_tip(all, r);
	return r;
}

/*
 * The message whose request the request of msg quotes (a reply's "> ",
 * or indented as a whole), saying what it said (the same URL, ref, tip
 * and base), among the last SEEN_REQUESTS requests read; 0 for none.
 * A quote that stops at the tip (msg has an error) is one too.  That
 * request is checked, its quote is not.  A request is remembered.
 */
static size_t quotes_earlier(struct verifying_all *all,
			     const struct pullmsg *msg)
{
	const struct pullreq *req = &msg->req;
	struct strbuf id = STRBUF_INIT;
	size_t i, found = 0;

	if (!req->tip.len)
		return 0;
	strbuf_addf(&id, "%.*s\n%.*s\n%.*s\n%.*s", (int)req->url.len,
		    req->url.s, (int)req->ref.len, req->ref.s,
		    (int)req->tip.len, req->tip.s, (int)req->base.len,
		    req->base.s);
	for (i = 0; i < all->nr_seen && i < SEEN_REQUESTS && !found; i++)
		if (!strcmp(all->seen[i].id.buf, id.buf))
			found = all->seen[i].number;
	if (!found && !msg->error) {
		i = all->nr_seen++ % SEEN_REQUESTS;
		strbuf_release(&all->seen[i].id);
		all->seen[i].id = id;
		all->seen[i].number = msg->number;
		return 0;
	}
	strbuf_release(&id);
	return req->damage & PULLREQ_QUOTED ? found : 0;
}

/*
 * Read the next message into the window, its requests gated and their
 * tips looked up, and report what is ready: 0 when no message is left.
 * One message that cannot be read, or in which no request is, is
 * fatal; in an mbox, a reply is skipped, and so is a request quoted
 * from an earlier message (quotes_earlier()).
 */
static int read_next(struct verifying_all *all)
{
	struct pullmsg_list *msg = xmalloc(sizeof(*msg));
	struct request *last = NULL;
	size_t i;

	*msg = (struct pullmsg_list)PULLMSG_LIST_INIT;
	if (!pullmsg_next(&all->in, msg)) {
		free(msg);
		all->ended = 1;
		report_ready(all);
		return 0;
	}
	all->entries += msg->nr;
	/* several requests, even in one message: a report each */
	all->mbox = all->entries > 1 || mail_pending(&all->in);
	if (!all->mbox && msg->msg[0].too_large)
		die("the message is %s", msg->msg[0].error);
	/* one mail, one output: a file, stdin or an mbox of it alone */
	if (!all->mbox && msg->msg[0].error)
		die("no pull request in the message: %s", msg->msg[0].error);
	for (i = 0; i < msg->nr; i++) {
		/* a request that cannot be read is one to report, not to skip */
		if (msg->msg[i].error && !msg->msg[i].telltale)
			continue;
		last = new_request(all, &msg->msg[i],
				   quotes_earlier(all, &msg->msg[i]));
		*all->tail = last;
		all->tail = &last->next;
	}
	if (last) {
		last->message = msg;	/* freed with the last of its requests */
	} else {
		pullmsg_release(msg);
		free(msg);
	}
	report_ready(all);
	return 1;
}

/*
 * run_git_parallel()'s next(): the fetch of the next request of the
 * window to fetch, reading messages into the window while it has room.
 */
static int next_fetch(struct child_process *cp, void *data)
{
	struct verifying_all *all = data;

	for (;;) {
		struct request *r = all->head;

		while (r && (r->ready || r->fetching))
			r = r->next;
		if (r) {
			fetch_cmd(&all->settings, &all->upstream, &r->fetch,
				  cp, &r->err);
			r->fetching = 1;
			r->task = all->started++;
			display_progress(all->progress, all->reported,
					 ++all->fetching);
			return 1;
		}
		if (all->ended || all->nr - all->reported >= all->window ||
		    !read_next(all))
			return 0;
	}
}

/*
 * run_git_parallel()'s done(): the fetch of request task ended.  The
 * fetch of a tip here already only re-reads the branch: when that
 * failed, the tip here is verified, with a note that says why the
 * branch could not be read.  A fetched tip that is not the one asked
 * for (here, or the mail's "up to"): the branch moved.
 */
static void fetched(size_t task, int rc, void *data)
{
	struct verifying_all *all = data;
	struct request *r = all->head;
	struct strbuf tip = STRBUF_INIT, subject = STRBUF_INIT;
	const char *local;

	while (r && !(r->fetching && r->task == task))
		r = r->next;
	if (!r)
		BUG("a fetch for no request");
	local = r->vf.how;
	all->fetching--;
	r->fetching = 0;
	if (!fetch_result(rc, &r->err, &all->upstream, &r->fetch, &tip,
			  &subject, local ? &r->vf.refetch : &r->fail)) {
		if (local ? strcmp(tip.buf, r->vf.tip.buf) :
		    strncmp(tip.buf, r->vf.want.buf, r->vf.want.len))
			r->vf.how = "moved";
		else
			r->vf.how = "fetched";
		strbuf_release(&r->vf.tip);
		r->vf.tip = tip;
		strbuf_release(&r->vf.subject);
		r->vf.subject = subject;
	} else {
		strbuf_release(&tip);
		strbuf_release(&subject);
	}
	r->ready = 1;
	report_ready(all);
}

/* The number of fetches at once: --jobs, clean-diffstat.jobs, the cores. */
static size_t fetch_jobs(const struct verifying_all *all)
{
	long n = all->opts->jobs > 0 ? all->opts->jobs : all->settings.jobs;

	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (size_t)n : 1;
}

/*
 * Before the first message: <upstream> (its git rev-parse also tells
 * whether the bound of a message is set) and, beside it, what the
 * fetches need of the configuration, then git init of the repository
 * the fetches go to, and the input opened.
 */
static void start(struct verifying_all *all, const struct options *opts)
{
	struct strbuf config = STRBUF_INIT, rev = STRBUF_INIT, rev_err = STRBUF_INIT;
	struct child_process cp = CHILD_PROCESS_INIT;
	struct child_process init = CHILD_PROCESS_INIT, up = CHILD_PROCESS_INIT;
	struct child_process *cps[2] = { &up, &cp };
	size_t max_size = MAIL_DEFAULT_MAX_SIZE;
	int rcs[2];

	*all = (struct verifying_all){
		.opts = opts, .tail = &all->head,
		.settings = FETCH_SETTINGS_INIT,
		.chain = STRBUF_INIT, .chain_tree = STRBUF_INIT,
	};
	resolve_cmd(&all->upstream, opts->upstream, opts->upstream, &up, &rev,
		    &rev_err);
	if (!opts->no_fetch)
		fetch_settings_cmd(&cp, &config);
	run_git_all(cps, rcs, opts->no_fetch ? 1 : 2);
	resolve_result(&all->upstream, rcs[0], &rev, &rev_err);
	strbuf_release(&rev);
	strbuf_release(&rev_err);
	if (all->upstream.max_message_size)
		max_size = mail_max_size();
	if (!opts->no_fetch) {
		fetch_settings_parse(&all->settings, rcs[1], &config);
		fetch_prepare_cmd(&all->upstream, &init);
		fetch_prepared(run_git(&init));
	}
	mail_open(&all->in, opts->verify_file, max_size);
	strbuf_release(&config);
	all->fetch.allow_local = opts->allow_local;
	all->fetch.timeout = limit(opts->fetch_timeout, all->settings.timeout,
				   DEFAULT_FETCH_TIMEOUT);
	all->fetch.stall = limit(opts->fetch_stall, all->settings.stall,
				 DEFAULT_FETCH_STALL);
	/* the window: the fetches at once, and as many waiting their turn */
	all->window = 2 * fetch_jobs(all);
	strbuf_add(&all->chain, all->upstream.upstream.oid.buf,
		   all->upstream.upstream.oid.len);
	strbuf_add(&all->chain_tree, all->upstream.upstream_tree.buf,
		   all->upstream.upstream_tree.len);
	progress_wanted(opts->progress);
	all->progress = start_progress("Verifying pull requests");
}

/* After the last message: the summary, and everything let go. */
static void finish(struct verifying_all *all)
{
	const struct options *opts = all->opts;
	size_t i, nr = all->nr - all->nr_quotes;	/* a quote is none */

	stop_progress(&all->progress);
	if (!nr)
		die("no pull request in any of the %zu messages",
		    all->in.number);
	if (opts->porcelain)
		printf("summary %zu %zu %zu %zu %zu %zu\n", nr,
		       all->count[MATCHES], all->count[MESSY],
		       all->count[DIFFERS], all->count[CONFLICTS],
		       all->count[FAILED]);
	else if (all->mbox)
		printf("\n%zu pull request%s: matches %zu, messy %zu, "
		       "differs %zu, conflicts %zu, errors %zu\n", nr,
		       nr == 1 ? "" : "s", all->count[MATCHES],
		       all->count[MESSY], all->count[DIFFERS],
		       all->count[CONFLICTS], all->count[FAILED]);
	for (i = 0; i < SEEN_REQUESTS; i++)
		strbuf_release(&all->seen[i].id);
	for (i = 0; i < all->nr_pulled; i++)
		free((char *)all->pulled[i].tip);
	free(all->pulled);
	strbuf_release(&all->chain);
	strbuf_release(&all->chain_tree);
	fetch_settings_release(&all->settings);
	pull_release(&all->upstream);
	mail_close(&all->in);
}

/*
 * The flow: read the messages one at a time, gate their requests,
 * fetch a window of them at a time (--jobs), collect their verdicts,
 * and print each in the order of the input as soon as those before it
 * are printed; then the summary.  With --no-fetch no request waits for
 * a fetch: next_fetch() reads the whole input, and no git is started.
 */
int verify(const struct options *opts)
{
	struct verifying_all all;

	start(&all, opts);
	run_git_parallel(fetch_jobs(&all), next_fetch, fetched, &all);
	if (all.head || !all.ended)
		BUG("requests left unreported");
	finish(&all);
	return all.status;
}
