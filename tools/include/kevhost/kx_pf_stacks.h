// SPDX-License-Identifier: MIT
// kev2perfetto's callstacks: a capture's stack samples (kx_stacks.h) as Perfetto's CPU
// profile, the packets its trace processor imports as perf samples (the UI's flame graph).
#ifndef TOOLS_KX_PF_STACKS_H
#define TOOLS_KX_PF_STACKS_H
#include "kx_pb.h"
#include <kevhost/kx_stacks.h>

// put(ctx, pkt) writes one TracePacket's fields as a Trace.packet (and empties pkt).
typedef void (*kx_pf_put)(void *ctx, struct pb *pkt);
// kx_pf_stacks: one packet of interned data (mappings, function names, frames, callstacks)
// that starts its own sequence, then one PerfSample packet a sample; hz: cycles a second.
void kx_pf_stacks(const struct kx_stacks *k, uint64_t hz, kx_pf_put put, void *ctx);
#endif
