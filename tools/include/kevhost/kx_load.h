// SPDX-License-Identifier: MIT
// CPU load over time for a trace of unknown length: each CPU's busy time (a thread other than
// idle running: the periods kx_stats adds up to busy_t) in KX_LOAD_N buckets that double their
// width, adding pairs, whenever a busy period ends past the last one. The trace ends with at
// most KX_LOAD_N buckets over its whole span (kevreport's chart); the sum of a CPU's buckets
// is its busy time, the number kevstat prints. (kevsql's cpu_load(width) lays fixed buckets
// over the same periods.)
#ifndef TOOLS_KX_LOAD_H
#define TOOLS_KX_LOAD_H

#include <stdint.h>
#include <trace/kev.h>

#define KX_LOAD_N 256u

struct kx_load {
    uint64_t t0, width;       // bucket b covers [t0 + b * width, t0 + (b + 1) * width)
    unsigned ncpu;            // highest CPU with busy time + 1
    uint64_t busy[KEV_MAX_CPUS][KX_LOAD_N];
};

// Buckets of width (>= 1) cycles from t0, to begin with.
void kx_load_init(struct kx_load *l, uint64_t t0, uint64_t width);
// CPU cpu was busy from a to b (a >= t0).
void kx_load_add(struct kx_load *l, unsigned cpu, uint64_t a, uint64_t b);
// Buckets that reach up to t (at most KX_LOAD_N).
unsigned kx_load_count(const struct kx_load *l, uint64_t t);

#endif
