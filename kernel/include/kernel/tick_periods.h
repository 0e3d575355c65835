// SPDX-License-Identifier: MIT
// How many tick periods one tick interrupt covers, from a free-running counter: the arithmetic
// alone (no state, no hardware), so that every arch's tick uses the same rule and a host unit
// test checks it (test/unit/test_tick_periods.c).
//
// `*end` is the counter value at which the next period to count ends, `now` the counter when
// a tick is taken, `early` how far ahead of its end a period may be counted (AArch64 takes a
// period's tick up to P/8 before its end, kernel/arch/aarch64/irq_timer.c). The tick counts
// every period that ended by now + early: its own and every whole period that also ended
// while the interrupt waited (interrupts masked, the kernel lock held by another CPU, a
// virtual CPU the host did not run: the timer hardware keeps one interrupt pending, not one
// per period). `*end` moves on by the periods counted, so it keeps its phase (end modulo
// period does not change), as illumos's cyclic subsystem keeps a late cyclic's expiry on its
// interval's boundaries; it is then after now + early.
//
// So the count follows the counter, whatever the tick timer does: a self-reloading timer
// (SysTick, the PIT) that runs a little fast against the counter (netduinoplus2's SysTick in
// QEMU, 0.8 %), or whose interrupts QEMU delivers early and late in turn (-icount
// shift=auto), now and then brings an interrupt before the next end: it counts 0, and the
// count catches up at a later one. A timer that runs slow is counted one period more now and
// then. The count is never ahead of the counter by more than `early`. tick_periods_due is
// the same count without moving the end: the periods ended that no tick has counted yet.
#ifndef KERNEL_TICK_PERIODS_H
#define KERNEL_TICK_PERIODS_H

#include <stdint.h>

static inline uint64_t tick_periods_due(uint64_t end, uint64_t period, uint64_t now,
                                        uint64_t early)
{
    if (end > now + early)
        return 0;
    uint64_t behind = now + early - end;
    return behind < period ? 1 : behind / period + 1;      // no division on time
}

static inline uint64_t tick_periods_ended(uint64_t *end, uint64_t period, uint64_t now,
                                          uint64_t early)
{
    uint64_t n = tick_periods_due(*end, period, now, early);
    *end += n * period;
    return n;
}

// True when the tick count went from `before` to `after` across (or onto) a multiple of `m`:
// what `after % m == 0` says when the count moves by one, kept true when it jumps.
static inline int tick_crossed_multiple(uint64_t before, uint64_t after, uint64_t m)
{
    return before / m != after / m;
}

#endif
