// SPDX-License-Identifier: MIT
// When something periodic is next due, once it came due at `due` and was served at `now`: a
// period on, or, when it fell behind (a late tick on the board; a capture whose samples stopped
// a while), the first of its period's boundaries past `now`, so that it is served once, not in
// a burst, and keeps its phase, as illumos's cyclics do past their catch-up (docs/timers.md).
// *missed (when not NULL): the boundaries passed over. One rule for the kernel's periodic user
// timers (kernel/utimer.c, whose missed firings are its overruns), D's tick-N and profile-N
// live (kernel/kdtrace.c), and dtrace -i replaying profile-N over a capture's samples
// (tools/dtrace/kevreplay_stacks.c), so that the same script live and over the capture counts
// alike. Below: where profile-N's times start, shared likewise.
#ifndef TRACE_PERIOD_DUE_H
#define TRACE_PERIOD_DUE_H
#include <stddef.h>
#include <stdint.h>

static inline uint64_t period_next_due(uint64_t due, uint64_t period, uint64_t now,
                                       uint64_t *missed)
{
    uint64_t n = 0;
    due += period;
    if (due <= now) {       // (no division on time)
        n = (now - due) / period + 1u;
        due += n * period;
    }
    if (missed)
        *missed = n;
    return due;
}

// profile-N's times: the multiples of its period since boot, on the board (kernel/kdtrace.c)
// and over a capture (tools/dtrace/kevreplay_stacks.c), so that the two decide at which ticks
// it fires on one grid. From origins of their own (the program's start on the board, the
// capture's first event in dtrace -i) the two grids' boundaries fall at different places
// between ticks, and every tick that comes less than a period after the one before (ticks
// come irregularly when the host runs QEMU late) is a chance for the two to disagree:
// stacks/capture saw 13 live against 15 replayed. The first time due once the probe is on at
// `now` is the next boundary, as illumos's cyclic subsystem starts a cyclic given no start
// time ("start on the next interval boundary", cyclic_add_xcall), which profile-N's are.
static inline uint64_t period_first_due(uint64_t period, uint64_t now)
{
    return (now / period + 1u) * period;
}

// Whether a tick-N or profile-N probe (or a stack sample) due at *next fires at an interrupt at
// `now`, from `early` before its time; when it does, *next moves on by period_next_due: once,
// not a burst for a late interrupt, in phase. The board (kernel/kprof.c, kernel/kdtrace.c,
// kernel/ktrace_stack.c, at each CPU's profile timer interrupt, or at the tick on a board
// without one) and dtrace -i's replay of a capture's samples (tools/dtrace/kevreplay_stacks.c)
// decide by this one rule, with `early` 0.
static inline int period_fires(uint64_t *next, uint64_t period, uint64_t now, uint64_t early)
{
    if (now + early < *next)
        return 0;
    *next = period_next_due(*next, period, now, NULL);
    return 1;
}

// How many firings of a profile-N probe (or stack samples) a profile interrupt at `now` owes
// its CPU when the one due at *next came late (0: not due yet): that one and every period it
// passed over, at most max in all, *next moved on past now as period_fires moves it. A sampler
// samples a CPU at its rate whatever it does: QEMU wakes a CPU waiting in WFI or HLT late for
// the timers that expired meanwhile (under -icount by whole periods) and, on the host's clock,
// runs the board late when the host does not run it; served once, the CPU lost the samples of
// those periods, which its idle time lost most, and a profile over-counted the threads that
// run (docs/profiling.md, "Samples of an idle CPU"). The periods passed over are the thread's
// the interrupt finds (the profile timer's is taken first of the interrupts pending: no other
// thread ran meanwhile). The board (kernel/kdtrace.c, kernel/ktrace_stack.c) and dtrace -i over
// a capture's samples (tools/dtrace/kevreplay_stacks.c) count by this one rule; tick-N and the
// periodic timers keep period_fires' once.
// The most firings one late interrupt gives: 64 periods, 64 ms of a 1 kHz profile, bound the
// time the interrupt takes; a wake later still loses the rest.
#define PERIOD_CATCH_UP_MAX 64u
static inline unsigned period_fires_catch_up(uint64_t *next, uint64_t period, uint64_t now,
                                             unsigned max)
{
    uint64_t missed;
    if (now < *next)
        return 0;
    *next = period_next_due(*next, period, now, &missed);
    return missed + 1u < max ? (unsigned)missed + 1u : max;
}

#endif
