// SPDX-License-Identifier: MIT
// Byte order: a value's bytes read and written in a stated order, the one set of helpers for
// the freestanding code (the decoder, the file writer, the stream's frames, the ring's map, D's
// USDT notes and byte-swapping functions) and the host tools (the live reader, the converters,
// the probe and post-mortem readers, fbt's instruction patches, the LTTng live protocol).
// Bytes are read one at a time, so p needs no alignment and the host's own order never
// matters; the compilers here turn the fixed sizes into one load or store (and a swap).
//   kev_get_le/_be/kev_get:  `bytes` (1..8) bytes at p, least / most significant first, or as
//                            `big` says (a .kev file's order: KEV_ENDIAN_BIG in its header)
//   kev_put_le/_be/kev_put:  v's low `bytes` bytes written the same way
//   kev_swap16/32/64:        a value's bytes reversed (D's htonl and kin, a file read in the
//                            other order)
//   kev_bytes_eq:            whether n bytes are the same (memcmp's 0, where there is no libc)
#ifndef TRACE_KEV_BYTES_H
#define TRACE_KEV_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t kev_get_le(const void *p, unsigned bytes)
{
    const uint8_t *b = (const uint8_t *)p;
    uint64_t v = 0;
    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | b[i];
    return v;
}

static inline uint64_t kev_get_be(const void *p, unsigned bytes)
{
    const uint8_t *b = (const uint8_t *)p;
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v = v << 8 | b[i];
    return v;
}

static inline uint64_t kev_get(const void *p, unsigned bytes, int big)
{
    return big ? kev_get_be(p, bytes) : kev_get_le(p, bytes);
}

static inline uint16_t kev_get_le16(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t kev_get_le32(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline uint64_t kev_get_le64(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return kev_get_le32(b) | (uint64_t)kev_get_le32(b + 4) << 32;
}

static inline uint32_t kev_get_be32(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

static inline uint64_t kev_get_be64(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint64_t)kev_get_be32(b) << 32 | kev_get_be32(b + 4);
}

// The word at p in the order `big` says (a .kev file's, a live stream's).
static inline uint32_t kev_get32(const void *p, int big)
{
    return big ? kev_get_be32(p) : kev_get_le32(p);
}

static inline void kev_put_le(void *p, uint64_t v, unsigned bytes)
{
    uint8_t *b = (uint8_t *)p;
    for (unsigned i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8u * i));
}

static inline void kev_put_be(void *p, uint64_t v, unsigned bytes)
{
    uint8_t *b = (uint8_t *)p;
    for (unsigned i = 0; i < bytes; i++)
        b[bytes - 1u - i] = (uint8_t)(v >> (8u * i));
}

static inline void kev_put(void *p, uint64_t v, unsigned bytes, int big)
{
    if (big)
        kev_put_be(p, v, bytes);
    else
        kev_put_le(p, v, bytes);
}

static inline void kev_put_le16(void *p, uint32_t v) { kev_put_le(p, v, 2); }
static inline void kev_put_le32(void *p, uint32_t v) { kev_put_le(p, v, 4); }
static inline void kev_put_le64(void *p, uint64_t v) { kev_put_le(p, v, 8); }
static inline void kev_put_be32(void *p, uint32_t v) { kev_put_be(p, v, 4); }
static inline void kev_put_be64(void *p, uint64_t v) { kev_put_be(p, v, 8); }

static inline uint16_t kev_swap16(uint16_t v)
{
    return (uint16_t)(v << 8 | v >> 8);
}

static inline uint32_t kev_swap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static inline int kev_bytes_eq(const void *a, const void *b, size_t n)
{
    const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return 0;
    return 1;
}

static inline uint64_t kev_swap64(uint64_t v)
{
    uint64_t r = 0;
    for (unsigned k = 0; k < 8; k++, v >>= 8)
        r = r << 8 | (v & 0xffu);
    return r;
}

#endif
