// SPDX-License-Identifier: MIT
// Small freestanding helpers shared by the D engine's files (no OS, no stdio). The engine
// uses only memcpy/memset/memcmp/strlen/strcmp/strchr from <string.h>, which every libc and
// the kernel provide.
#ifndef D_DUTIL_H
#define D_DUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define d_strlen  strlen
#define d_strcmp  strcmp
#define d_strchr  strchr

/* d_strlcpy/d_strlcat: bounded copy/append, always NUL-terminated when size > 0. */
static inline void d_strlcpy(char *dst, const char *src, size_t size)
{
    size_t n = 0;
    if (size == 0)
        return;
    for (; src[n] && n + 1 < size; n++)
        dst[n] = src[n];
    dst[n] = 0;
}

static inline void d_strlcat(char *dst, const char *src, size_t size)
{
    size_t n = strlen(dst);
    if (n < size)
        d_strlcpy(dst + n, src, size - n);
}

/* d_utoa: decimal digits of v into buf (at least 21 bytes); returns buf. */
static inline char *d_utoa(char *buf, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return buf;
}

/* d_arena: a bump allocator over caller-provided memory; allocations are 8-byte aligned and
 * zeroed; NULL when exhausted (callers report it, never crash). */
struct d_arena {
    uint8_t *base;
    size_t size, used;
};

/* d_arena_init: an arena over [mem, mem+len), its start rounded up to 8 bytes. */
static inline struct d_arena d_arena_init(void *mem, size_t len)
{
    size_t skip = (8u - ((uintptr_t)mem & 7u)) & 7u;
    struct d_arena a = { (uint8_t *)mem + skip, len > skip ? len - skip : 0, 0 };
    return a;
}

static inline void *d_alloc(struct d_arena *a, size_t n)
{
    size_t start = (a->used + 7u) & ~(size_t)7u;
    if (start > a->size || n > a->size - start)
        return NULL;
    a->used = start + n;
    memset(a->base + start, 0, n);
    return a->base + start;
}

#endif
