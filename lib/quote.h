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

/* Does core.quotePath (true unless set) ask for bytes >= 0x80 quoted? */
int quote_path_config(void);

#endif
