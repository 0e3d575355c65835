// SPDX-License-Identifier: MIT
// The flight recorder's map: where a post-mortem reader (tools/kevdump) finds the kernel's
// trace ring in a halted target's memory, and the offsets of the few fields it reads, so that
// the host needs to know nothing of the target's compiler, pointer size or CPU count. The
// kernel keeps one, constant, in its image (kernel/kflight.c, symbol `kev_flight`); its magic
// also lets a reader find it by scanning. Little-endian, as the target.
//
//   magic[8] "KEVFLT1" | 20 u32 fields (version ... off_nslots) | ring | ncpus_addr
// with the two addresses last, ptr_bytes each (at KEV_FLIGHT_ADDRS), as the target's
// pointers are: a reader parses the u32s first, then knows their size. The host's one parser
// of it checks every field before a reader uses it (tools/common/kev_ring_desc.c).
#ifndef TRACE_KEV_FLIGHT_H
#define TRACE_KEV_FLIGHT_H

#include <stdint.h>

#define KEV_FLIGHT_MAGIC   "KEVFLT1"
#define KEV_FLIGHT_VERSION 1u

struct kev_flight {
    char magic[8];
    uint32_t version;
    uint32_t ptr_bytes;     // sizeof(void *) on the target
    uint32_t max_cpus, max_bufs;
    // struct trace_ring
    uint32_t off_mem;       // the buffers' memory (a pointer)
    uint32_t off_nbufs;     // buffers allocated (unsigned)
    uint32_t off_policy;    // enum trace_policy (unsigned)
    uint32_t off_running;   // unsigned
    uint32_t off_cpu;       // struct trace_cpu[max_cpus]
    uint32_t off_buf;       // struct trace_buf[max_bufs]
    // struct trace_cpu
    uint32_t cpu_stride;
    uint32_t off_wp;        // next free slot (a pointer)
    uint32_t off_cur;       // current buffer index (int, -1 when none)
    uint32_t off_recorded, off_dropped, off_overwritten;   // u64 counters
    // struct trace_buf
    uint32_t buf_stride;
    uint32_t off_seq;       // u32
    uint32_t off_state;     // u8, enum trace_bufstate
    uint32_t off_nslots;    // u16, valid once FULL
    uintptr_t ring;         // address of the kernel's struct trace_ring
    uintptr_t ncpus_addr;   // address of the CPUs-online count (unsigned)
};
#define KEV_FLIGHT_U32S  20u
#define KEV_FLIGHT_ADDRS (8u + 4u * KEV_FLIGHT_U32S)

#endif
