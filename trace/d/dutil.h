// SPDX-License-Identifier: MIT
// Small freestanding helpers shared by the D engine's files (no OS, no stdio). The engine
// uses only memcpy/memset/memcmp/strlen/strcmp/strchr from <string.h>, which every libc and
// the kernel provide.
#ifndef D_DUTIL_H
#define D_DUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <trace/kev_digits.h>

#define d_strlen  strlen
#define d_strcmp  strcmp
#define d_strchr  strchr

/* The kernel builds with -ffreestanding, which turns off GCC's built-in memcpy & co: every
 * 8-byte copy would become a library call. The __builtin_ forms are still inlined when the
 * size is a constant, and call the library otherwise. */
#define memcpy(d, s, n) __builtin_memcpy(d, s, n)
#define memset(d, c, n) __builtin_memset(d, c, n)
#define memcmp(a, b, n) __builtin_memcmp(a, b, n)

/* Word helpers for keys and records: 8-byte aligned, a multiple of 8 bytes long. */
static inline uint32_t d_hash_words(uint32_t h, const void *p, unsigned nbytes)
{
    const uint32_t *w = p;
    for (unsigned k = 0; k < nbytes / 4u; k++)
        h = (h ^ w[k]) * 16777619u;
    return h ^ (h >> 15);
}

static inline int d_words_eq(const void *a, const void *b, unsigned nbytes)
{
    const uint32_t *x = a, *y = b;
    for (unsigned k = 0; k < nbytes / 4u; k++)
        if (x[k] != y[k])
            return 0;
    return 1;
}

static inline void d_words_copy(void *d, const void *s, unsigned nbytes)
{
    uint32_t *x = d;
    const uint32_t *y = s;
    for (unsigned k = 0; k < nbytes / 4u; k++)
        x[k] = y[k];
}

static inline void d_words_zero(void *d, unsigned nbytes)
{
    uint32_t *x = d;
    for (unsigned k = 0; k < nbytes / 4u; k++)
        x[k] = 0;
}

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

/* d_type_bytes: the size of a record's integer by its type letter (b h i, in upper case
 * unsigned; any other, a 64-bit one, 8). */
static inline int d_type_bytes(char t)
{
    switch (t) {
    case 'b': case 'B': return 1;
    case 'h': case 'H': return 2;
    case 'i': case 'I': return 4;
    default: return 8;
    }
}

/* d_utoa: decimal digits of v into buf (at least 21 bytes); returns buf. */
static inline char *d_utoa(char *buf, uint64_t v)
{
    buf[kev_put_dec(buf, v)] = 0;
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
