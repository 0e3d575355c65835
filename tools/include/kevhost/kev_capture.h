// SPDX-License-Identifier: MIT
// Host-side capture into a .kev image in memory: plays the tracelogger's part against a
// trace_ring driven by the host port (test/unit/trace_port.h, a fake clock), and a synthetic
// workload that emits a realistic mix of events. Used by kevgen (fixtures for the script
// tests), the unit tests of the decoder and the benchmark. Not thread-safe.
#ifndef TOOLS_KEV_CAPTURE_H
#define TOOLS_KEV_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev_file.h>
#include <trace/trace_ring.h>

struct kcap {
    uint8_t *data; // malloc'd file image
    size_t len, cap;
    int big;       // write in big-endian byte order
    uint32_t nbufs;
    struct kev_cpu_totals tot[TRACE_MAX_CPUS];
    unsigned skip_every; // > 0: pretend every Nth buffer could not be stored (logger loss)
    uint32_t flags;      // trailer flags to add
    unsigned calls_vary; // workload: some kernel calls fail (EAGAIN), some are wide (6 words)
};

// Start an image: header (with the given CYCLES_PER_SEC) and a system page naming the
// workload's processes and threads. Exits the program on allocation failure.
void kcap_begin(struct kcap *c, int big_endian, uint64_t cycles_per_sec);
// Save every buffer the ring has ready (the logger loop body).
void kcap_drain(struct kcap *c, struct trace_ring *r);
// Stop the ring, save what is left and append the trailer.
void kcap_finish(struct kcap *c, struct trace_ring *r);
void kcap_free(struct kcap *c);

// Emit n workload events (deterministic for a seed); drains into c every `drain_every`
// events when c is not NULL (0: never, the logger is too slow).
uint64_t kcap_workload(struct trace_ring *r, struct kcap *c, uint64_t n, unsigned seed,
                       unsigned drain_every);

#endif
