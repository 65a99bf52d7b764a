/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef QUOTE_H
#define QUOTE_H

#include <stddef.h>

#include "strbuf.h"

/*
 * A character that must not reach a terminal as it is, in every
 * routine below: a control character, a byte below 0x20, DEL (0x7f)
 * or a C1 control (U+0080..U+009F, the two bytes C2 80 to C2 9F in
 * UTF-8: U+009B is a CSI to many terminals); or an invisible character
 * that changes how the text reads, of the Unicode categories Cf, Zl and
 * Zp: the bidi embeddings, overrides and isolates (U+202A..U+202E,
 * U+2066..U+2069), the zero-width space and joiners and the marks LRM,
 * RLM and ALM (U+200B..U+200F, U+061C), the line and paragraph
 * separators (U+2028, U+2029), the BOM (U+FEFF) and the like.  It is
 * escaped in octal, byte by byte (U+202E is \342\200\256).
 *
 * Quoting as git quotes paths (see core.quotePath in git-config(1)):
 * a name with a double quote, a backslash, such a character or (with
 * quote_high set) a byte of 0x80 or more is written between double
 * quotes with C escapes (\t, \n, \", \\, \ooo octal); any other name
 * is written as it is.  quote_c_always() quotes whatever the name.
 * Without quote_high, git itself writes a C1 control or an invisible
 * character as it is; these write them escaped.
 */
void quote_c_style(struct strbuf *sb, const char *s, size_t len,
		   int quote_high);
void quote_c_always(struct strbuf *sb, const char *s, size_t len,
		    int quote_high);

/*
 * The name git's own quote_c_style() writes for a path, byte for byte:
 * to be compared with what git prints (stat.h), never to be shown (it
 * writes a C1 control or an invisible character as it is without
 * quote_high).  quote_c_as_git_needed(): does git quote it?
 */
void quote_c_as_git(struct strbuf *sb, const char *s, size_t len,
		    int quote_high);
int quote_c_as_git_needed(const char *s, size_t len, int quote_high);

/*
 * Text from outside (a mail's URL, ref or subject, a row's name, a merge
 * base's subject, what a server says) in a message: it must not drive
 * the terminal that shows it, nor make a name read as another.
 *
 * quote_shown() writes the text as it is or, when it has a control or
 * invisible character, between double quotes with C escapes for those
 * (\n, \033, \302\233, \342\200\256), '"' and '\\'; any other byte,
 * UTF-8 or not, is written as it is.  A TAB is whitespace there, as in
 * a folded mail subject: it is written as a space, and alone makes no
 * quotes.
 *
 * quote_arg() names an argument in a message: between single quotes,
 * or, when it has a control or invisible character (a TAB included: a
 * URL or ref with one is wrong, and should be seen to be), the way
 * quote_shown() quotes.
 */
void quote_shown(struct strbuf *sb, const char *s, size_t len);
void quote_arg(struct strbuf *sb, const char *s, size_t len);

#endif
