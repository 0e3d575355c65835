// SPDX-License-Identifier: MIT
// The trace ring as a reader outside the target sees it: the buffers' table (struct trace_buf,
// trace/trace_ring.h), each CPU's words (struct trace_cpu), and the values of a buffer's state
// (enum trace_bufstate, the ring's own, defined here so that the host builds it without the
// ring's port). The kernel publishes the layout twice, in two fixed formats: the flight
// recorder's map for a halted target (trace/kev_flight.h, read by kevdump) and the probe block
// for a running one (trace/kev_probe.h, read by kevprobe). Each reader turns its format into
// one struct kev_ring_map (kev_ring_map_flight, kev_ring_map_probe), reads the table's words
// through it alone, and takes the buffers in sequence order with one walker
// (trace/kev_ring_walk.c, kev_ring_walk). Little-endian targets, as both formats say.
#ifndef TRACE_KEV_RING_MAP_H
#define TRACE_KEV_RING_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev_flight.h>
#include <trace/kev_probe.h>

// Buffer life cycle: FREE -> FILLING -> FULL -> LOGGER -> (release) FREE. A value past
// TRACE_BUF_NSTATES is one the kernel never writes (a reader says so).
enum trace_bufstate {
    TRACE_BUF_FREE = 0,
    TRACE_BUF_FILLING = 1,
    TRACE_BUF_FULL = 2,
    TRACE_BUF_LOGGER = 3,
    TRACE_BUF_NSTATES
};

#define KEV_RING_NO_FIELD 0xffffffffu  // an offset the format does not publish

// Offsets in bytes within one entry; strides are the structs' sizes on the target.
struct kev_ring_map {
    uint32_t nbufs;                 // entries in the table
    uint32_t ptr_bytes;             // the target's pointers (tc_wp), 4 or 8
    // struct trace_buf
    uint32_t buf_stride;
    uint32_t off_seq;               // u32
    uint32_t off_state;             // u8, enum trace_bufstate
    uint32_t off_cpu;               // u8, the CPU that filled it (KEV_RING_NO_FIELD: not known)
    uint32_t off_nslots;            // u16, valid once FULL
    uint32_t off_lost;              // u32, seq + 1 of the last life counted lost (tb_lost)
    // struct trace_cpu
    uint32_t cpu_stride;
    uint32_t off_wp, off_cur;       // KEV_RING_NO_FIELD in the probe block (never read there)
    uint32_t off_dropped, off_overwritten;  // u64 loss counts
};

// The flight recorder's map f, its ring holding nbufs buffers.
static inline struct kev_ring_map kev_ring_map_flight(const struct kev_flight *f, uint32_t nbufs)
{
    struct kev_ring_map m = {
        nbufs, f->ptr_bytes, f->buf_stride, f->off_seq, f->off_state, KEV_RING_NO_FIELD,
        f->off_nslots, KEV_RING_NO_FIELD, f->cpu_stride, f->off_wp, f->off_cur, f->off_dropped, f->off_overwritten,
    };
    return m;
}

// The probe block b's description of its ring.
static inline struct kev_ring_map kev_ring_map_probe(const struct kev_probe_block *b)
{
    struct kev_ring_map m = {
        b->pb_nbufs, 0, b->pb_buf_stride, b->pb_off_seq, b->pb_off_state, b->pb_off_cpu,
        b->pb_off_nslots, b->pb_off_lost, b->pb_cpu_stride, KEV_RING_NO_FIELD, KEV_RING_NO_FIELD,
        b->pb_off_dropped, b->pb_off_overwritten,
    };
    return m;
}

// The target's little-endian words, at p.
static inline uint32_t kev_ring_le(const uint8_t *p, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static inline uint64_t kev_ring_le64(const uint8_t *p)
{
    return kev_ring_le(p, 4) | (uint64_t)kev_ring_le(p + 4, 4) << 32;
}

// A target's pointer of `bytes` (4 or 8) at p.
static inline uint64_t kev_ring_ptr(const uint8_t *p, uint32_t bytes)
{
    return bytes == 8 ? kev_ring_le64(p) : kev_ring_le(p, 4);
}

// Entry i of a table read whole (nbufs entries of buf_stride bytes, as the target holds it).
static inline const uint8_t *kev_ring_entry(const struct kev_ring_map *m, const uint8_t *table,
                                            unsigned i)
{
    return table + (size_t)i * m->buf_stride;
}

static inline uint32_t kev_ring_seq(const struct kev_ring_map *m, const uint8_t *e)
{
    return kev_ring_le(e + m->off_seq, 4);
}

static inline unsigned kev_ring_state(const struct kev_ring_map *m, const uint8_t *e)
{
    return e[m->off_state];
}

static inline unsigned kev_ring_nslots(const struct kev_ring_map *m, const uint8_t *e)
{
    return kev_ring_le(e + m->off_nslots, 2);
}

static inline uint32_t kev_ring_lost(const struct kev_ring_map *m, const uint8_t *e)
{
    return kev_ring_le(e + m->off_lost, 4);
}

static inline unsigned kev_ring_buf_cpu(const struct kev_ring_map *m, const uint8_t *e)
{
    return e[m->off_cpu];
}

// A buffer holding a sequence number's events: filling, full, or the logger's.
static inline int kev_ring_in_use(unsigned state)
{
    return state == TRACE_BUF_FILLING || state == TRACE_BUF_FULL || state == TRACE_BUF_LOGGER;
}

// The walker (trace/kev_ring_walk.c): the indexes of the buffers in use in table, oldest first
// from sequence `from` (by seq - from, unsigned: a sequence behind `from` comes after every
// one at or past it; equal sequences by index), into order (m->nbufs entries). Their count.
unsigned kev_ring_walk(const struct kev_ring_map *m, const uint8_t *table, uint32_t from,
                       unsigned *order);

#endif
