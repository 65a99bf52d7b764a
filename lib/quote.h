/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef QUOTE_H
#define QUOTE_H

#include <stddef.h>

#include "strbuf.h"

/*
 * Quoting as git quotes paths (see core.quotePath in git-config(1)):
 * a name with a double quote, a backslash, a control character or
 * (with quote_high set) a byte of 0x80 or more is written between
 * double quotes with C escapes (\t, \n, \", \\, \ooo octal); any other
 * name is written as it is.  quote_c_always() quotes whatever the name.
 */
void quote_c_style(struct strbuf *sb, const char *s, size_t len,
		   int quote_high);
void quote_c_always(struct strbuf *sb, const char *s, size_t len,
		    int quote_high);

/*
 * Text from outside (a mail's URL, ref or subject) in a message: it must
 * not drive the terminal that shows it.  quote_shown() writes it as it
 * is, or with quote_c_always() when it has a control character;
 * quote_arg() writes it between single quotes, as messages name
 * arguments, or else the same way.
 */
void quote_shown(struct strbuf *sb, const char *s, size_t len);
void quote_arg(struct strbuf *sb, const char *s, size_t len);

#endif
