/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef GROW_H
#define GROW_H

#include <stddef.h>
#include <stdlib.h>

/*
 * Make room for element nr of the array *arr, which has room for
 * *alloc elements of size bytes each, doubling the allocation when it
 * is full.  Returns 0, or -1 when memory runs out (*arr and *alloc are
 * then unchanged, and still to be freed by the caller).
 *
 * It is header-only and never dies on purpose: the pure parsers of
 * git's output (mtree.c, numstat.c) grow their arrays with it and link
 * into their fuzzers without usage.c, so they report running out of
 * memory as an error instead.  Code that may die uses ALLOC_GROW() (usage.h).
 */
static inline int grow_array(void **arr, size_t nr, size_t *alloc,
			     size_t size)
{
	void *p;
	size_t n;

	if (nr < *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 16;
	if (n > (size_t)-1 / size)
		return -1;
	p = realloc(*arr, n * size);
	if (!p)
		return -1;
	*arr = p;
	*alloc = n;
	return 0;
}

#endif
