// SPDX-License-Identifier: MIT
// The layout of a SEGGER RTT control block, as debug probes read it (J-Link, OpenOCD's `rtt`
// commands, probe-rs): the tracelogger's RTT transport (tracelogger/rtt.c) writes one, the
// host's stand-in probe and kevdump (tools/kevdump/) read it through a GDB server.
//
//   control block:  id[16] ("SEGGER RTT", NUL-padded) | max_up u32 | max_down u32 |
//                   max_up up-channel descriptors | max_down down-channel descriptors
//   descriptor:     name u32 | buffer u32 | size u32 | wr_off u32 | rd_off u32 | flags u32
//
// Every field is 32 bits on every architecture: probes read the descriptors as six 32-bit
// words (OpenOCD: 24 bytes a channel), so on AArch64 the buffers must lie below 4 GB.
// An up-channel is a byte ring: the target writes at wr_off, the probe reads at rd_off and
// advances it; equal offsets mean empty, and one byte stays free so that full differs from
// empty. Only the target writes wr_off, only the probe rd_off.
// Freestanding: shared by the target and the host tools.
#ifndef TRACE_RTT_H
#define TRACE_RTT_H

#include <stdint.h>

#define RTT_ID "SEGGER RTT"
#define RTT_ID_BYTES 16u

// flags: what the target does when an up-channel is full (SEGGER's mode numbers).
#define RTT_MODE_NO_BLOCK_SKIP 0u   // drop the write that does not fit (we count it)
#define RTT_MODE_NO_BLOCK_TRIM 1u   // write what fits (unused here: it would cut a frame)
#define RTT_MODE_BLOCK         2u   // wait until the probe has made room
#define RTT_MODE_MASK          3u

struct rtt_channel {
    uint32_t name;          // address of a NUL-terminated name
    uint32_t buffer;        // address of the ring
    uint32_t size;          // ring bytes
    uint32_t wr_off;        // next byte the target writes
    uint32_t rd_off;        // next byte the probe reads
    uint32_t flags;         // RTT_MODE_*
};

struct rtt_cb_head {
    char id[RTT_ID_BYTES];
    uint32_t max_up;
    uint32_t max_down;
};

#define RTT_CB_HEAD_BYTES 24u
#define RTT_CHANNEL_BYTES 24u
// Offsets of a descriptor's fields, for a reader that has only the target's bytes.
#define RTT_CH_BUFFER 4u
#define RTT_CH_SIZE   8u
#define RTT_CH_WR     12u
#define RTT_CH_RD     16u
#define RTT_CH_FLAGS  20u

#endif
