// SPDX-License-Identifier: MIT
// The D programs a capture holds, as the analyses read them: each program's span (its DPROG
// go and stop events, trace/kev.h), its consumer (the thread the events name), what the kernel
// said its probes cost (the DCOST event at its stop: firings, the board's time in the probes'
// sites and since the go, KDT_COST's counts) and the consumer process's RUNNING time in the
// span, from the model's thread states. kevstat's "d" section prints them: what dtrace's
// closing line said on the board, read from the capture (docs/dtrace-target.md, "What watching
// costs"). Times in cycles.
#ifndef TOOLS_KX_DPROG_H
#define TOOLS_KX_DPROG_H

#include <stdint.h>
#include <stdio.h>

#define KX_DPROG_MAX 8u     // programs listed; more are counted in kx_dprogs.more

struct kx_dprog {
    uint64_t go, stop;          // the span (stop 0: the capture ended first)
    uint32_t who;               // the consumer's thread, pid << 16 | tid
    int costed;                 // a DCOST event came
    uint64_t firings, site, run;
    uint64_t consumer_at_go;    // the consumer process's RUNNING cycles at the go
    uint64_t consumer;          // ... from the go to the stop (or the capture's end)
};

struct kx_dprogs {
    struct kx_dprog p[KX_DPROG_MAX];
    unsigned n, more;
};

struct kx_stats;
struct kev_event;
// A SYSTEM DPROG or DCOST event (others are ignored), after the model has taken it.
void kx_dprog_event(struct kx_stats *s, const struct kev_event *e);
// At the capture's end: a span still open gets its consumer's time to t.
void kx_dprog_finish(struct kx_stats *s, uint64_t t);
// The "d_programs" member of kevstat's JSON object, after a comma: each program's pid and tid,
// go and stop (null: the capture ended first), the kernel's firings, site_cycles and
// run_cycles (null without a DCOST event), consumer_cycles; then "d_programs_not_listed".
void kx_dprog_json(const struct kx_stats *s, FILE *f);

#endif
