// SPDX-License-Identifier: MIT
// The profile provider's timer work on each CPU: the capture's stack samples (tracelogger -p)
// and D's profile-N and tick-N probes, each at its own times (its period's multiples since
// boot for profile-N and the samples, a period after the program's start for tick-N), from a
// timer of their own: each CPU's profile timer (kernel/ptimer.h), armed for the earliest time
// any of them is next due on that CPU, as Solaris's cyclic subsystem keeps one interrupt per
// CPU for the earliest of its cyclics. So a sampler at 997 Hz samples at 997 Hz, not at the
// first of the kernel's 1 kHz ticks after each of its times, and does not lock to a periodic
// device on the same clock (docs/profiling.md "The profile timer"). Where the board has no such
// timer (ptimer_present() false, a constant of the board) the same work runs at every tick
// instead: each fires at the first tick at or after its time.
//
// Whose state: the schedules are their owners' (ktrace_stack.c's sample times, kdtrace.c's
// probe times), one per CPU, written by that CPU here or by the exclusive side when they
// change (kprof_update's callers); this runs in kernel entries with interrupts off, on several
// CPUs only in exclusive ones (KENTRY_PROFILE is never taken shared; the tick reaches
// kprof_tick only without the timer, which a multiprocessor board here always has).
#include <kernel/kprof.h>
#include <kernel/ptimer.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/kview.h>
#include <kernel/kdtrace.h>
#include <kernel/ktrace_stack.h>

uint64_t kprof_ns_to_cycles(uint64_t ns)
{
    // ns % 1e9 < 2^30 and the rate < 2^32: the product fits in 64 bits
    uint64_t hz = board_cycles_per_sec();
    return ns / 1000000000u * hz + (ns % 1000000000u * hz + 999999999u) / 1000000000u;
}

// The earliest time (ns since boot) anything is due on cpu; 0: nothing. tick-N runs on CPU 0.
static uint64_t next_due(unsigned cpu)
{
    uint64_t at = ktrace_stack_next(cpu), d = kdt_timers_next(cpu, cpu == 0);
    if (!at || (d && d < at))
        at = d;
    return at;
}

static void arm(unsigned cpu)
{
    uint64_t at = next_due(cpu);
    ptimer_arm(cpu, at ? kprof_ns_to_cycles(at) : 0);
}

// The samples and probes due on this CPU now. D decides by the time the sample's STACK event
// was stamped with when there is one: dtrace -i fires profile-N at a capture's samples by their
// times, so it then decides as the board did (docs/profiling.md "profile-N's times").
static void run(bool tick_cpu)
{
    uint32_t ts;
    uint64_t now = board_cycles();
    bool sampled = ktrace_stack_due(kview_ns(now), &ts);
    if (!kdt_active)
        return;
    if (sampled) {
        now = board_cycles();
        now -= (uint32_t)now - ts;      // the sample's time: a moment ago, in the low word
    }
    kdt_timers_run(tick_cpu, now);
}

void kprof_expired(void)
{
    unsigned cpu = cpu_id();
    run(cpu == 0);
    arm(cpu);
}

void kprof_tick(bool kernel_tick_is)
{
    if (!ptimer_present())
        run(kernel_tick_is);
}

void kprof_update(void)
{
    if (!ptimer_present())
        return;
    for (unsigned c = 0; c < k_ncpus; c++)
        arm(c);
}
