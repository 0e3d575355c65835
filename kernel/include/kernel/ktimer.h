// SPDX-License-Identifier: MIT
// Kernel timers: one sorted list of deadlines in ticks, checked on every tick. Used for sleeps,
// kernel-call timeouts and the user timers that deliver pulses.
#ifndef KERNEL_KTIMER_H
#define KERNEL_KTIMER_H

#include <kernel/kernel.h>
#include <kernel/list.h>
#include <kernel/cpu.h>
#include <kernel/smp.h>

struct ktimer;
typedef void (*ktimer_fn)(struct ktimer *t);

struct ktimer {
    struct list link;
    uint64_t expires;       // tick number
    ktimer_fn fn;
};

extern uint64_t k_ticks;
// Tick periods that ended while the tick was late, counted by the next tick beyond its own
// period (arch_tick_periods): k_ticks includes them. SysInfo(KSYSINFO_TICKS_LATE), which is
// modulo 2^32 anyway (32 bits: netduinoplus2's kernel RAM is that tight).
extern uint32_t k_ticks_late;

void ktimer_subsystem_init(void);
// The tick count now by the counter: k_ticks and the periods that ended since the last tick
// entry counted (its interrupt pending or held up, arch_tick_pending). A deadline armed from
// k_ticks alone while the tick is late would end early by the lag once the late tick counts
// the periods it missed (docs/timers.md).
uint64_t ktimer_now(void);
void ktimer_init(struct ktimer *t, ktimer_fn fn);
void ktimer_start(struct ktimer *t, uint64_t expires_tick);
// Starts t to expire `ticks` ticks after the tick count k_ticks, read under the timer list's
// lock on several CPUs, where a tick may be taken on the shared side meanwhile (ktimer.c,
// ktimer_tick_shared: the race it closes). One CPU: ktimer_start(t, k_ticks + ticks).
void ktimer_start_after_locked(struct ktimer *t, uint64_t ticks);
static inline void ktimer_start_after(struct ktimer *t, uint64_t ticks)
{
    if (KSMP)
        ktimer_start_after_locked(t, ticks);
    else
        ktimer_start(t, k_ticks + ticks);
}

// Several CPUs: what a CPU whose timer interrupt came may do on the shared side (ktimer_tick_shared).
enum ktick_shared {
    KTICK_SHARE,        // no period is left to count: another CPU took it; this is its share
    KTICK_TAKEN,        // the periods that ended were counted here, no timer due by them
    KTICK_EXCLUSIVE,    // a timer is due by them: nothing changed, take the tick exclusive
};
// For KTICK_TAKEN, *span (when not NULL) says what this CPU's claim moved k_ticks from and to
// (the traced tick's TIME event looks for a second crossed in it: kernel/main.c); otherwise
// it is left as it was.
struct ktick_span {
    uint64_t from, to;
};
enum ktick_shared ktimer_tick_shared(struct ktick_span *span);
bool ktimer_active(const struct ktimer *t);
void ktimer_stop_linked(struct ktimer *t);

// Stops t. One not on the list (the common case: a thread woken with no timeout armed) is left
// alone, inline and without the timer list's lock (several CPUs: ktimer.c). Safe unlocked: a
// timer is started and stopped only under the lock of what its thread waits for (or by the
// exclusive side), so nobody links it meanwhile, and other timers' unlinking changes a linked
// one's neighbours, never makes it look unlinked.
static inline void ktimer_stop(struct ktimer *t)
{
    if (list_linked(&t->link))
        ktimer_stop_linked(t);
}
// Runs every timer whose deadline is <= now. Called from the tick with the tick count.
void ktimer_run(uint64_t now);
// Spins in the kernel (interrupts masked) for n tick periods by the cycle counter: the
// stall a late tick follows, on purpose (KTRACE_BENCH_STALL, for its test).
int ktimer_stall_periods(uint32_t n);
// Ticks to wait for at least `ns` nanoseconds (rounded up, plus one for the partial tick).
uint64_t ktimer_ns_to_ticks(uint64_t ns);
// Nanoseconds in `cycles` of the board's cycle counter (ClockTime, D's timestamps), without
// overflowing the 64-bit product for any counter value.
uint64_t ktimer_cycles_to_ns(uint64_t cycles);

#endif
