// SPDX-License-Identifier: MIT
// Tick-based timers on one list sorted by deadline (earliest first). Starting is O(n) in the
// number of active timers (a few dozen at most); the tick only looks at the head.
// Several CPUs: starting and stopping take timer_lock (klock.h, rank TIMER, the last), since
// shared entries on different CPUs arm and cancel timeouts at once; ktimer_run is the tick's,
// which runs exclusive (no shared entry in the kernel), and takes the lock only through the
// timers' functions restarting timers. A period with no timer due is taken on the shared side
// instead (ktimer_tick_shared, below): k_ticks and k_ticks_late then move under timer_lock.
#include <kernel/ktimer.h>
#include <kernel/board.h>
#include <kernel/arch.h>
#include <kernel/smp.h>
#include <kernel/kloadavg.h>

static struct kspin timer_lock;     // smp_spin_lock: while more than one CPU runs

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

// t on the list at `expires`, in order (timer_lock held, several CPUs).
static inline void ktimer_insert(struct ktimer *t, uint64_t expires)
{
    struct list *pos;
    list_unlink(&t->link);
    t->expires = expires;
    list_for_each(pos, &timers) {
        if (list_entry(pos, struct ktimer, link)->expires > expires)
            break;
    }
    list_insert_before(pos, &t->link);
}

void ktimer_start(struct ktimer *t, uint64_t expires)
{
    smp_spin_lock(&timer_lock, KLOCK_RANK_TIMER);
    ktimer_insert(t, expires);
    smp_spin_unlock(&timer_lock, KLOCK_RANK_TIMER);
}

// ktimer_stop's (ktimer.h) for a timer on the list.
void ktimer_stop_linked(struct ktimer *t)
{
    smp_spin_lock(&timer_lock, KLOCK_RANK_TIMER);
    list_unlink(&t->link);
    smp_spin_unlock(&timer_lock, KLOCK_RANK_TIMER);
}

// The tick on the shared side (several CPUs; docs/smp.md, "The tick"). Under
// timer_lock: the periods that ended and no tick has counted (arch_tick_pending, by the
// counter) are claimed here (arch_tick_claim moves the arch's end of period on), and k_ticks
// moves by them, unless a timer is due by the new count, which needs the exclusive tick
// (ktimer_run calls functions that wake threads, under no lock of theirs). The lock makes the
// claim: two CPUs whose timers see the same period end take it one after the other, and the
// second finds nothing pending (KTICK_SHARE). A CPU that answers KTICK_EXCLUSIVE changed
// nothing, and its exclusive entry counts the periods as before (which may by then be none:
// another CPU's exclusive tick took them first).
//
// The race with arming (why ktimer_start_after reads k_ticks under this lock): a timeout
// armed on another CPU's shared side while this tick is taken. Each is one hold of
// timer_lock, so one comes first. Armed first: its timer is on the list, and this look sees
// it due (KTICK_EXCLUSIVE: the exclusive tick runs it on time) or not due. Taken first: the
// arming reads the new k_ticks and counts its ticks from there. Had the arming read k_ticks
// before the lock (the old count K), a timer of one tick (K + 1) inserted just after this
// claim of period K + 1 would sit behind k_ticks, seen by no look until the next period's
// tick: fired a period late (test/unit/test_ktimer_smp.c stages exactly that). With the
// exclusive tick it could not happen: the tick waited for the arming's shared entry to end.
//
// Readers of k_ticks take what they see: an aligned 64-bit store is single-copy atomic
// (AArch64), and every other reader runs exclusive (SysInfo, TimerSettime's ktimer_now, the
// timers' functions), where no shared tick runs.
enum ktick_shared ktimer_tick_shared(struct ktick_span *span)
{
    enum ktick_shared r = KTICK_SHARE;
    smp_spin_lock(&timer_lock, KLOCK_RANK_TIMER);
    unsigned n = arch_tick_pending();
    if (n) {
        uint64_t ticks = k_ticks + n;
        if (!list_empty(&timers) &&
            list_entry(timers.next, struct ktimer, link)->expires <= ticks) {
            r = KTICK_EXCLUSIVE;
        } else {
            smp_tick_claim(n);
            __atomic_store_n(&k_ticks, ticks, __ATOMIC_RELAXED);
            if (n > 1)
                __atomic_store_n(&k_ticks_late, k_ticks_late + (n - 1u), __ATOMIC_RELAXED);
            cpu_count_ticks_shared(this_cpu(), n);
            kloadavg_tick(ticks);   // avenrun, once a second, under timer_lock (kloadavg.c)
            if (span)
                span->from = ticks - n, span->to = ticks;
            r = KTICK_TAKEN;
        }
    }
    smp_spin_unlock(&timer_lock, KLOCK_RANK_TIMER);
    return r;
}

void ktimer_start_after_locked(struct ktimer *t, uint64_t ticks)
{
    smp_spin_lock(&timer_lock, KLOCK_RANK_TIMER);
    ktimer_insert(t, k_ticks + ticks);
    smp_spin_unlock(&timer_lock, KLOCK_RANK_TIMER);
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
