// SPDX-License-Identifier: MIT
// A minimal protobuf encoder (varints, fixed64 and length-delimited fields into a growing
// buffer) for kev2perfetto and its callstacks (kx_pf_stacks.c). Out of memory exits.
#ifndef TOOLS_KX_PB_H
#define TOOLS_KX_PB_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kevhost/tool_grow.h>
#include <trace/kev_bytes.h>

struct pb {
    uint8_t *p;
    size_t len, cap;
};

static inline void pb_reserve(struct pb *b, size_t n)
{
    if (tool_grow(&b->p, &b->cap, b->len + n, 1, 4096)) {
        fprintf(stderr, "kev2perfetto: out of memory\n");
        exit(1);
    }
}

// v as a varint at out (room for 10 bytes): the bytes written.
static inline unsigned pb_varint_at(uint8_t *out, uint64_t v)
{
    unsigned k = 0;
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        out[k++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
    return k;
}

static inline void pb_varint(struct pb *b, uint64_t v)
{
    pb_reserve(b, 10);
    if (v < 0x80) // (tags and most values: one byte)
        b->p[b->len++] = (uint8_t)v;
    else
        b->len += pb_varint_at(b->p + b->len, v);
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
    if (n) // (an empty message may have no buffer: memcpy takes no NULL, even for 0 bytes)
        memcpy(b->p + b->len, p, n);
    b->len += n;
}

static inline void pb_str(struct pb *b, unsigned field, const char *s)
{
    pb_bytes(b, field, s, strlen(s));
}

// A length-delimited field written in place, with the bytes pb_bytes would give its content
// built apart, without the copy: pb_open writes the tag and one byte for the length and
// returns where the content begins (an offset: the buffer may move); the caller appends the
// content to b, then pb_close writes the length, moving the content up in the rarer case of
// a length of more than one byte (128 or more).
static inline size_t pb_open(struct pb *b, unsigned field)
{
    pb_varint(b, (uint64_t)field << 3 | 2);
    pb_reserve(b, 1);
    return ++b->len;
}

static inline void pb_close(struct pb *b, size_t at)
{
    size_t n = b->len - at;
    if (n < 0x80) {
        b->p[at - 1] = (uint8_t)n;
        return;
    }
    uint8_t v[10];
    unsigned k = pb_varint_at(v, n);
    pb_reserve(b, k - 1);
    memmove(b->p + at - 1 + k, b->p + at, n);
    memcpy(b->p + at - 1, v, k);
    b->len += k - 1;
}

static inline void pb_fixed64(struct pb *b, unsigned field, uint64_t v)
{
    pb_varint(b, (uint64_t)field << 3 | 1);
    pb_reserve(b, 8);
    kev_put_le64(b->p + b->len, v);
    b->len += 8;
}
#endif
