/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef VERDICT_PRINT_H
#define VERDICT_PRINT_H

#include "judge.h"

/*
 * The report of one request of --verify, rendered from its judgement
 * (judge.h) into sb, for a person or, with --porcelain, as records for a
 * script: printers that know nothing of how the judgement was found, as
 * git's wt_longstatus_print() and wt_porcelain_print().  They run no
 * git.  Every byte from outside (a URL, a ref, a subject, a name) is
 * shown as quote.h's quote_shown() or, in a record, C-quoted.
 *
 * verdict_print_human(): the request (URL, ref, tip, how the tip was
 * found), its diffstat's and the clean diffstat's totals, the verdict
 * with why ("verdict: <verdict>: ..."), and what differs or conflicts.
 *
 * verdict_print_porcelain(): the records message, part, damage, url,
 * ref, tip, note, request, then clean or conflict, the records of the
 * verdict, and "verdict <verdict>" last.
 */
void verdict_print_human(struct strbuf *sb, const struct verifying *vf,
			 const struct judgement *j);
void verdict_print_porcelain(struct strbuf *sb, const struct verifying *vf,
			     const struct judgement *j);

/*
 * What the finder undid or found wrong in the request's text: a note a
 * line, before a person's report, or with porcelain a "damage" record a
 * kind.
 */
void verdict_print_damage(struct strbuf *sb, const struct pullreq *req,
			  int porcelain);

/*
 * The report of a request of an mbox that could not be verified, why
 * in one line: "error: <why>", or the records message, part, damage,
 * url, ref, error and "verdict error".
 */
void verdict_print_failure(struct strbuf *sb, const struct pullmsg *msg,
			   const struct strbuf *why, int porcelain);

/*
 * The report of a reply of an mbox that quotes the request of message
 * earlier, which is checked there: "quotes the request of message
 * <earlier>", or the records message, part and "quotes <earlier>".
 */
void verdict_print_quote(struct strbuf *sb, const struct pullmsg *msg,
			 size_t earlier, int porcelain);

#endif
