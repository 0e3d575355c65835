// SPDX-License-Identifier: MIT
// A ThreadSleep measured on the generic timer's counter (st_sleep.h), and the bound a sleep's
// end must keep. The kernel sleeps whole ticks (kernel/ktimer.c, thread.c): a sleep of ns asked
// after tick k was taken expires at tick k + ceil(ns / P) + 1, P the tick period (the "+1":
// the current period is partly gone). The tick of a period is taken by the first CPU whose
// timer interrupt comes no earlier than P/8 before the period's end, and with 4 CPUs their
// timers are staggered by P/4 (kernel/arch/aarch64/irq_timer.c), so a tick is taken within P/8
// of its period's end. A sleep asked at T therefore expires by T + (ceil(ns/P) + 1) P + P/4,
// less than T + ns + 2 P + P/4. (When the expiring tick came before T + ns by the counter, the
// kernel puts the end off by one tick, thread_timeout_fired: that case ends earlier still.)
// Then the wake-up: the CPU that ran the timer interrupts the sleeper's CPU (IPI) and it
// switches, microseconds; under -icount, where QEMU runs the virtual CPUs one at a time, the
// woken CPU may also wait for the others' turns. One period is allowed for it: the bound is
// 3 P + P/4 past the time asked. A later end is a wake-up the kernel did not deliver on its
// tick (a timer not run, a period lost, a CPU that did not choose the thread). A lost IPI
// alone stays within it, the CPU's own timer choosing again within a period: st_ipi.c checks
// that. The bound holds on the instruction-count clock (-icount); on the host's clock a
// virtual CPU the host does not run is late by that much, whatever the kernel does.
#include "st_sleep.h"
#include <kern.h>
#include <board_clock.h>

static uint64_t hz, tick_ns;
uint32_t sleep_seed;
static uint32_t jitter_state;

// Not 0 (smpstress's seed=N): before each sleep a pseudo-random spin of up to 1023 counter
// reads, and every sleep asked a pseudo-random 0..999 ns longer, so that each seed moves the
// calls against the CPUs' ticks and gives another interleaving of the CPUs under -icount (where
// one command line gives the same run every time). A sleep is checked against what was asked.
static uint64_t jitter(void)
{
    if (!sleep_seed)
        return 0;
    uint32_t x = __atomic_add_fetch(&jitter_state, 0x9e3779b9u, __ATOMIC_RELAXED) ^ sleep_seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    for (uint32_t i = x >> 22; i > 0; i--)
        (void)board_cntvct();
    return x % 1000u;
}

void sleep_clock_init(void)
{
    uint32_t t = 0;
    hz = ClockCyclesPerSec();
    SysInfo(KSYSINFO_TICK_NS, &t);
    tick_ns = t ? t : 1000000u;
}

uint64_t sleep_tick_ns(void)
{
    return tick_ns;
}

uint64_t sleep_cycles_per_sec(void)
{
    return hz;
}

static uint64_t ns_to_cycles(uint64_t ns)
{
    return ns / 1000000000u * hz + ns % 1000000000u * hz / 1000000000u;
}

uint64_t sleep_bound_cycles(void)
{
    return ns_to_cycles(3u * tick_ns + tick_ns / 4u);
}

void timed_sleep(uint64_t ns, struct sleep_stats *s)
{
    ns += jitter();
    uint64_t want = ns_to_cycles(ns);
    uint64_t t0 = board_cntvct();
    ThreadSleep(ns);
    uint64_t took = board_cntvct() - t0;
    s->n++;
    if (took < want) {
        s->early++;
        return;
    }
    uint64_t over = took - want;
    if (over > s->worst)
        s->worst = over;
    s->late += over > sleep_bound_cycles();
}

void sleep_stats_add(struct sleep_stats *sum, const struct sleep_stats *a)
{
    sum->n += a->n;
    sum->early += a->early;
    sum->late += a->late;
    if (a->worst > sum->worst)
        sum->worst = a->worst;
}
