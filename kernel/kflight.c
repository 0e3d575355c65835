// SPDX-License-Identifier: MIT
// The flight recorder's map (trace/kev_flight.h): a constant description of where the trace
// ring and its fields are, kept in every image so that kevdump can read the last buffers from
// a halted target (a hang, a kernel fault) through any GDB server. The ring itself needs no
// help: in ring mode (tracelogger -r, TRACE_POLICY_RING) it wraps without the logger, every
// buffer starts with a BUFFER slot carrying its sequence number, and closed buffers end with
// BUFFER_END; the open one ends at its CPU's write pointer, which this map locates.
#include <kernel/ktrace.h>
#include <kernel/cpu.h>
#include <stddef.h>
#include <trace/kev_flight.h>

_Static_assert(offsetof(struct kev_flight, ring) == KEV_FLIGHT_ADDRS, "addresses after the u32s");
_Static_assert(offsetof(struct kev_flight, off_nslots) == KEV_FLIGHT_ADDRS - 4u, "20 u32 fields");

// No code refers to it: the image's link keeps it for the host (-Wl,--undefined=kev_flight,
// user/module.mk), past --gc-sections.
__attribute__((used)) const struct kev_flight kev_flight = {
    .magic = KEV_FLIGHT_MAGIC,
    .version = KEV_FLIGHT_VERSION,
    .ptr_bytes = sizeof(void *),
    .ring = (uintptr_t)&ktrace,
    .ncpus_addr = (uintptr_t)&k_ncpus,
    .max_cpus = TRACE_MAX_CPUS,
    .max_bufs = TRACE_MAX_BUFS,
    .off_mem = offsetof(struct trace_ring, tr_mem),
    .off_nbufs = offsetof(struct trace_ring, tr_nbufs),
    .off_policy = offsetof(struct trace_ring, tr_policy),
    .off_running = offsetof(struct trace_ring, tr_running),
    .off_cpu = offsetof(struct trace_ring, tr_cpu),
    .off_buf = offsetof(struct trace_ring, tr_buf),
    .cpu_stride = sizeof(struct trace_cpu),
    .off_wp = offsetof(struct trace_cpu, tc_wp),
    .off_cur = offsetof(struct trace_cpu, tc_buf),
    .off_recorded = offsetof(struct trace_cpu, tc_recorded),
    .off_dropped = offsetof(struct trace_cpu, tc_dropped),
    .off_overwritten = offsetof(struct trace_cpu, tc_overwritten),
    .buf_stride = sizeof(struct trace_buf),
    .off_seq = offsetof(struct trace_buf, tb_seq),
    .off_state = offsetof(struct trace_buf, tb_state),
    .off_nslots = offsetof(struct trace_buf, tb_nslots),
};
