// SPDX-License-Identifier: MIT
// Tick-based timers on one list sorted by deadline (earliest first). Starting is O(n) in the
// number of active timers (a few dozen at most); the tick only looks at the head.
// Several CPUs: starting and stopping take timer_lock (klock.h, rank TIMER, the last), since
// shared entries on different CPUs arm and cancel timeouts at once; ktimer_run is the tick's,
// which runs exclusive (no shared entry in the kernel), and takes the lock only through the
// timers' functions restarting timers.
#include <kernel/ktimer.h>
#include <kernel/board.h>
#include <kernel/arch.h>
#include <kernel/cpu.h>
#if KMAX_CPUS > 1
#include <kernel/klock.h>
static struct kspin timer_lock;
static inline void timers_lock(void)
{
    if (k_ncpus > 1)
        kspin_lock(&timer_lock, KLOCK_RANK_TIMER);
}
static inline void timers_unlock(void)
{
    if (k_ncpus > 1)
        kspin_unlock(&timer_lock, KLOCK_RANK_TIMER);
}
#else
static inline void timers_lock(void) {}
static inline void timers_unlock(void) {}
#endif

static struct list timers = LIST_INIT(timers);
uint64_t k_ticks;
uint32_t k_ticks_late;

// An arch whose tick cannot tell how many periods passed (kernel/arch.h): one a tick.
__attribute__((weak)) unsigned arch_tick_periods(void)
{
    return 1;
}

__attribute__((weak)) unsigned arch_tick_pending(void)
{
    return 0;
}

uint64_t ktimer_now(void)
{
    return k_ticks + arch_tick_pending();
}

void ktimer_subsystem_init(void)
{
    list_init(&timers);
    k_ticks = 0;
    k_ticks_late = 0;
}

void ktimer_init(struct ktimer *t, ktimer_fn fn)
{
    list_init(&t->link);
    t->expires = 0;
    t->fn = fn;
}

bool ktimer_active(const struct ktimer *t)
{
    return list_linked(&t->link);
}

void ktimer_start(struct ktimer *t, uint64_t expires)
{
    struct list *pos;
    timers_lock();
    list_unlink(&t->link);
    t->expires = expires;
    list_for_each(pos, &timers) {
        if (list_entry(pos, struct ktimer, link)->expires > expires)
            break;
    }
    list_insert_before(pos, &t->link);
    timers_unlock();
}

// ktimer_stop's (ktimer.h) for a timer on the list.
void ktimer_stop_linked(struct ktimer *t)
{
    timers_lock();
    list_unlink(&t->link);
    timers_unlock();
}

void ktimer_run(uint64_t now)
{
    while (!list_empty(&timers)) {
        struct ktimer *t = list_entry(timers.next, struct ktimer, link);
        if (t->expires > now)
            break;
        list_unlink(&t->link);
        t->fn(t);       // may restart t or start others
    }
}

int ktimer_stall_periods(uint32_t n)
{
    uint64_t until = board_cycles() + (uint64_t)n * (board_cycles_per_sec() / TICK_HZ);
    while (board_cycles() < until)
        ;
    return 0;
}

uint64_t ktimer_cycles_to_ns(uint64_t c)
{
    uint64_t hz = board_cycles_per_sec();
    return (c / hz) * 1000000000ull + (c % hz) * 1000000000ull / hz;
}

uint64_t ktimer_ns_to_ticks(uint64_t ns)
{
    const uint64_t tick_ns = 1000000000ull / TICK_HZ;
    return (ns + tick_ns - 1) / tick_ns + 1;
}
