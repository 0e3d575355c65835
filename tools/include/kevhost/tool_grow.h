// SPDX-License-Identifier: MIT
// The host tools' growth rule for their arrays and byte buffers: a first size, then
// doubled until what is asked for fits. Inline here, so that every source list that holds a
// user (the tools', the unit tests', the fuzzers') needs nothing more. What a user does when
// memory runs out stays its own: a table counts what it could not keep, a buffer exits.
#ifndef KEVHOST_TOOL_GROW_H
#define KEVHOST_TOOL_GROW_H

#include <stdlib.h>
#include <string.h>

// tool_grow(&array, &cap, need, sizeof(*array), first): the array (cap elements of `size`
// bytes) with room for `need` elements: as it is when it has it, else reallocated to `first`
// elements (when it has none yet) doubled until need fits. 0, or when memory runs out the
// number of elements it could not have, the array and cap as they were. arrayp is the address
// of the array's pointer (an object pointer of any type: they share one representation).
static inline size_t tool_grow(void *arrayp, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : first;
    while (c < need)
        c *= 2;
    void *a;
    memcpy(&a, arrayp, sizeof(a));
    a = realloc(a, c * size);
    if (!a)
        return c;
    memcpy(arrayp, &a, sizeof(a));
    *cap = c;
    return 0;
}

#endif
