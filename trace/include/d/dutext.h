// SPDX-License-Identifier: MIT
// The payload of a long user event as D reads it (docs/d-probes.md, "User events"). An event
// the trace stores in more than one slot (every string event; a buffer of three words or
// more) fires user:::event with arg1 = DUTEXT_ADDR, the address where the firing's payload
// is readable by copyin( ) and copyinstr( ), and arg2 = its size in bytes as stored (whole
// slots, zero-padded). The kernel serves the bytes it has just put in the ring, dtrace -i the
// bytes the capture holds, through the same window: the same text live and over a capture,
// and a payload with no NUL (a malformed capture) is a fault at its end, never an overread.
// DUTEXT_ADDR is above 4 GB: never a program's address on these 32-bit-address boards.
#ifndef D_DUTEXT_H
#define D_DUTEXT_H

#include <stdint.h>
#include <string.h>

#define DUTEXT_ADDR 0x10000000000ull
#define DUTEXT_SPAN 0x100000000ull      // addresses [ADDR, ADDR + SPAN) are the payload's

// The payload of the firing under way: len bytes at p (len 0, p NULL: none).
struct dutext {
    const uint8_t *p;
    uint32_t len;
};

// dutext_read: a copyin( ) reader's first step. 0 when addr is not in the payload's range
// (another reader's memory); 1 when [addr, addr + n) lies in the payload (copied to dst); -1
// when it is in the range but runs past the payload's end (a fault).
static inline int dutext_read(const struct dutext *t, void *dst, uint64_t addr, unsigned n)
{
    if (addr < DUTEXT_ADDR || addr - DUTEXT_ADDR >= DUTEXT_SPAN)
        return 0;
    uint64_t off = addr - DUTEXT_ADDR;
    if (!t->p || off > t->len || n > t->len - off)
        return -1;
    memcpy(dst, t->p + off, n);
    return 1;
}

// dutext_size: the bytes the trace stores for a payload of nwords words (ring: a slot holds
// two words; trace_ring.c emit_event).
static inline uint32_t dutext_size(unsigned nwords)
{
    return 8u * ((nwords + 1u) / 2u);
}

#endif
