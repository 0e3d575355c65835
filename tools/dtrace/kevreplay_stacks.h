// SPDX-License-Identifier: MIT
// dtrace -i's stacks (docs/profiling.md): the SYSTEM STACK and FAULT events of a capture
// (docs/trace-events.md "Stacks and faults") as the replay's source of stack( )/ustack( )
// and the moments profile-N and proc:::fault fire. kevreplay.c drives it; this file keeps
// what a firing's stacks are and the per-CPU profile schedule over samples.
#ifndef DTRACE_KEVREPLAY_STACKS_H
#define DTRACE_KEVREPLAY_STACKS_H

#include <d/dvm.h>
#include <stddef.h>
#include <stdint.h>
#include <trace/kev_stack.h>

/* What a capture holds: STACK samples (kinds USER and KERNEL), FAULT events, and the other
 * SYSTEM events whose presence changes how the replay fires. */
struct rstack_census {
    unsigned samples, faults, bad;   /* bad: STACK/FAULT events that do not decode */
    unsigned oncpu;     /* ONCPU events: on-cpu fires at them, else at THRUNNING (kevreplay.c) */
    unsigned func, usdt;    /* FUNC_ENTER/FUNC_EXIT and USDT events: fbt, pid, USDT firings */
    unsigned dprog;     /* DPROG go and stop events: a D program's span, which the replay
                         * keeps to (another value of `what` is no span) */
    unsigned dprog_go;  /* the go events among them (a capture that began after the go, or
                         * whose ring lost it, holds only the stop) */
    uint32_t dprog_timers; /* the first DPROG event's digest of its program's timers */
    unsigned dtimer;    /* DTIMER events: where the board's program's timers fired */
    unsigned remain, surrender, sigsend; /* REMAIN_CPU, SURRENDER, SIGNAL_SEND events: their
                                          * probes fire at them (none: a capture without) */
    unsigned steal;     /* STEAL events: a dequeue's queue over a capture of several CPUs */
};
/* rstacks_census: decodes the file once more, counting (0, or -1 when it cannot be read). */
int rstacks_census(const uint8_t *data, size_t len, struct rstack_census *c);
/* rstacks_count: one SYSTEM event counted into c (the census of a live source, as it comes). */
struct kev_event;
void rstacks_count(struct rstack_census *c, const struct kev_event *e);

/* rstacks_begin: the replay's stacks become dvm_stack's source; says once on stderr what a
 * capture without samples (or faults) cannot give the program st. */
void rstacks_begin(const struct dvm_state *st, const struct rstack_census *c);

/* The stacks of the firings to come: a sample's or a fault's (kev_stack), or none. */
void rstacks_set(const struct kev_stack *s);
void rstacks_clear(void);

/* Over a capture whose DTIMER events give the timers' moments (kevreplay.c), a sample is kept
 * for the DTIMER of its interrupt: rstacks_keep keeps s, taken on cpu at cycles whose low word
 * is at; rstacks_kept gives it back for a DTIMER decided at `at` on cpu (the same interrupt),
 * else NULL. */
void rstacks_keep(unsigned cpu, const struct kev_stack *s, uint32_t at);
const struct kev_stack *rstacks_kept(unsigned cpu, uint32_t at);

/* rstacks_profile_due: how many times profile probe k (the program's k-th timer probe, in the
 * object's order; period ns) on cpu fires at a sample at
 * time t (ns): the first sample at or after each due time fires it, as the board's profile
 * timer fires it at its time (kernel/kdt_fire.c kdt_timers_run), once and once more for each
 * period a late one passed over (trace/period_due.h period_fires_catch_up); its due times are
 * its period's multiples since boot, the first one past start (the capture's first time), as
 * on the board. A capture sampled at the probe's own rate holds a sample at each of them (the
 * board's sampler and the probe interrupt together). */
unsigned rstacks_profile_due(unsigned k, unsigned cpu, uint64_t period, uint64_t start,
                             uint64_t t);

#endif
