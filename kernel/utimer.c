// SPDX-License-Identifier: MIT
// User timers delivering pulses (see utimer.h).
#include <kernel/utimer.h>
#include <kernel/ktimer.h>
#include <kernel/ipc.h>
#include <kernel/proc.h>
#include <kernel/ktrace.h>
#include <trace/period_due.h>

struct utimer {
    bool in_use;
    uint8_t prio;           // of its pulses (KPRIO_MIN..KPRIO_MAX)
    struct proc *proc;
    int32_t coid, code, value;
    uint32_t lost;          // pulses that found no room since TimerCreate (TIMER_LOST's count)
    uint64_t interval_ticks;
    struct ktimer kt;
};

#define TIMER_ID_BASE 1

static struct utimer utimers[KMAX_TIMERS];
uint64_t k_timer_fires;
uint32_t k_timer_overruns;

void utimer_init(void)
{
    kmemset(utimers, 0, sizeof(utimers));
    k_timer_fires = 0;
    k_timer_overruns = 0;
}

// A periodic timer's next expiry after the one at `expired` fired at tick `now`: one interval
// on. When a late tick jumped k_ticks past that too (arch_tick_periods), the firings that fell
// in the gap are skipped and counted in *overruns (POSIX's timer overrun count; a burst of
// pulses would only fill the pulse pool), and the timer keeps its phase (trace/period_due.h).
static uint64_t utimer_next_expiry(uint64_t expired, uint64_t interval, uint64_t now,
                                   uint32_t *overruns)
{
    uint64_t missed;
    uint64_t next = period_next_due(expired, interval, now, &missed);
    *overruns += (uint32_t)missed;
    return next;
}

static void utimer_fired(struct ktimer *kt)
{
    struct utimer *u = container_of(kt, struct utimer, kt);
    k_timer_fires++;
    ktrace_timer((uint32_t)(u - utimers) + TIMER_ID_BASE, (uint32_t)u->proc->pid);
    if (u->interval_ticks)
        ktimer_start(&u->kt, utimer_next_expiry(kt->expires, u->interval_ticks, k_ticks,
                                                &k_timer_overruns));
    // A timer whose connection is gone (detached after TimerCreate) is disarmed: it would
    // only fail again at every period. Its loss is said once.
    int r = ipc_kernel_pulse(u->proc, u->coid, u->prio, u->code, u->value);
    if (r == -EBADF || r == -ESRCH) {
        ktimer_stop(&u->kt);
        kprintf("kernel: timer %d of pid %d: connection gone, timer disarmed\n",
                (int)(u - utimers) + TIMER_ID_BASE, (int)u->proc->pid);
    } else if (r < 0) {
        // No room (the owner's or the channel's bound, or the pool): each loss is a TIMER_LOST
        // event with the timer's running count; the console says only the first of a timer's.
        const uint32_t timer_id = (uint32_t)(u - utimers) + TIMER_ID_BASE;
        const uint32_t pid = (uint32_t)u->proc->pid;
        const uint32_t lost = ++u->lost;
        ktrace_timer_lost(timer_id, pid, lost);
        if (lost == 1)
            kprintf("kernel: timer pulse to pid %d lost (timer %d; every loss is a TIMER_LOST "
                    "event)\n", (int)pid, (int)timer_id);
    }
}

static struct utimer *utimer_lookup(const struct proc *p, int id)
{
    return proc_pool_owned(utimers, KMAX_TIMERS, id, TIMER_ID_BASE, proc, p);
}

int utimer_create(struct proc *p, int prio, int coid, int32_t code, int32_t value)
{
    if (code < KPULSE_CODE_MIN_USER)
        return -EINVAL;
    if (!ipc_conn_ok(p, coid))     // only a connection of the caller's own
        return -EBADF;
    struct utimer *u = proc_pool_take(p, utimers, KMAX_TIMERS, proc, KLIM_TIMERS);
    if (!u)
        return -EAGAIN;
    u->coid = coid;
    u->code = code;
    u->value = value;
    u->prio = (uint8_t)prio;
    u->lost = 0;
    u->interval_ticks = 0;
    ktimer_init(&u->kt, utimer_fired);
    return (int)(u - utimers) + TIMER_ID_BASE;
}

int utimer_settime(struct proc *p, int id, uint32_t first_us, uint32_t interval_us)
{
    struct utimer *u = utimer_lookup(p, id);
    if (!u)
        return -EINVAL;
    ktimer_stop(&u->kt);
    u->interval_ticks = interval_us ? ktimer_ns_to_ticks((uint64_t)interval_us * 1000u) - 1 : 0;
    if (first_us)
        ktimer_start(&u->kt, ktimer_now() + ktimer_ns_to_ticks((uint64_t)first_us * 1000u));
    return 0;
}

int utimer_destroy(struct proc *p, int id)
{
    struct utimer *u = utimer_lookup(p, id);
    if (!u)
        return -EINVAL;
    ktimer_stop(&u->kt);
    u->in_use = false;
    return 0;
}

void utimer_proc_gone(struct proc *p)
{
    for (int i = 0; i < KMAX_TIMERS; i++) {
        if (utimers[i].in_use && utimers[i].proc == p) {
            ktimer_stop(&utimers[i].kt);
            utimers[i].in_use = false;
        }
    }
}
