// SPDX-License-Identifier: MIT
// A number's decimal digits without printf, for the freestanding code (the decoder's messages,
// the file writer, D's formatting and preprocessor) and the host tools and programs alike:
// what printf's "%llu" writes, with no NUL. The one copy of a loop each of them wrote again.
#ifndef TRACE_KEV_DIGITS_H
#define TRACE_KEV_DIGITS_H

#include <stdint.h>

// kev_put_dec: v's digits at out (room for 20); their number.
static inline unsigned kev_put_dec(char *out, uint64_t v)
{
    char d[20];
    unsigned n = 0, k = 0;
    do
        d[n++] = (char)('0' + v % 10u);
    while (v /= 10u);
    while (n)
        out[k++] = d[--n];
    return k;
}

#endif
