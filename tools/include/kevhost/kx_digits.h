// SPDX-License-Identifier: MIT
// Numbers as text without printf, for the converters' per-event names and args ("irq12",
// "0x1f"): printf cost more than the rest of those events' conversion. Each writes what
// printf's "%llu" or "0x%llx" would, with no NUL, and returns its length (at most 20 and 18).
#ifndef KEVHOST_KX_DIGITS_H
#define KEVHOST_KX_DIGITS_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev_digits.h>

static inline size_t kx_put_dec(char *out, uint64_t v)
{
    return kev_put_dec(out, v);
}

static inline size_t kx_put_hex(char *out, uint64_t v)
{
    char d[16];
    size_t n = 0, k = 2;
    do
        d[n++] = "0123456789abcdef"[v & 15u];
    while (v >>= 4);
    out[0] = '0', out[1] = 'x';
    while (n)
        out[k++] = d[--n];
    return k;
}

#endif
