// SPDX-License-Identifier: MIT
// A minimal protobuf encoder (varints, fixed64 and length-delimited fields into a growing
// buffer) for kev2perfetto and its callstacks (kx_pf_stacks.c). Out of memory exits.
#ifndef TOOLS_KX_PB_H
#define TOOLS_KX_PB_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pb {
    uint8_t *p;
    size_t len, cap;
};

static inline void pb_reserve(struct pb *b, size_t n)
{
    if (b->cap - b->len >= n)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < n)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        fprintf(stderr, "kev2perfetto: out of memory\n");
        exit(1);
    }
    b->p = p;
    b->cap = cap;
}

static inline void pb_varint(struct pb *b, uint64_t v)
{
    pb_reserve(b, 10);
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        b->p[b->len++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
}

// A varint field (int32/int64 negative values are ten-byte two's complement, as protobuf says).
static inline void pb_int(struct pb *b, unsigned field, int64_t v)
{
    pb_varint(b, (uint64_t)field << 3);
    pb_varint(b, (uint64_t)v);
}

static inline void pb_bytes(struct pb *b, unsigned field, const void *p, size_t n)
{
    pb_varint(b, (uint64_t)field << 3 | 2);
    pb_varint(b, n);
    pb_reserve(b, n);
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static inline void pb_str(struct pb *b, unsigned field, const char *s)
{
    pb_bytes(b, field, s, strlen(s));
}

static inline void pb_fixed64(struct pb *b, unsigned field, uint64_t v)
{
    pb_varint(b, (uint64_t)field << 3 | 1);
    pb_reserve(b, 8);
    for (unsigned i = 0; i < 8; i++)
        b->p[b->len++] = (uint8_t)(v >> (8 * i));
}
#endif
