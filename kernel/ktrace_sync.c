// SPDX-License-Identifier: MIT
// Ownership and priority: the SYSTEM events SYNC_WAIT and PRIO_CHANGE (docs/trace-events.md),
// each produced here at the one site that also fires its D probe (sched:::change-pri), and
// the lockstat provider (docs/d-probes.md), fired where a SYNC_* kernel call returns to its
// thread, in that thread's context, from what its entry and its SYNC_WAIT left for the thread
// (struct dt_sync): so that dtrace -i derives the same firings from the capture's KER_CALL
// entry/exit and SYNC_WAIT events (tools/dtrace/kevreplay.c).
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kev_emit.h>
#include <kernel/kdtrace.h>
#include <kernel/kview.h>
#include <kernel/board.h>
#include <d/dprobes.h>
#include <d/lockstat.h>
#include <uapi/kcall.h>

// Per thread slot, while a D program runs: the object of its traced SYNC_* call (its first
// argument), and when (cycles; 0: not blocked) and behind whom (who) it blocked.
// Taken from the contiguous allocator when a D program is loaded and given back at unload,
// not kept in struct thread: the smallest boards have no RAM for it (KDT_LOAD fails with
// ENOMEM without it). No lock of its own: a slot is written by its own thread's entries (the
// thread is k_current there, on one CPU at a time), or, while the thread is blocked, by the
// entry that requeues it on a mutex (a CondSignal: under the objects' locks, which ordered its
// block before), shared or exclusive; the pointer changes at KDT_LOAD and KDT_UNLOAD, exclusive.
struct dt_sync {
    uint32_t obj, owner;
    uint64_t since;
};
static struct dt_sync *dt_sync;

int ktrace_sync_d_start(void)
{
    if (!dt_sync)
        dt_sync = kview_alloc(KMAX_THREADS * sizeof(*dt_sync), 8);
    if (!dt_sync)
        return -ENOMEM;
    kmemset(dt_sync, 0, KMAX_THREADS * sizeof(*dt_sync));
    return 0;
}

void ktrace_sync_d_stop(void)
{
    if (dt_sync)
        kview_free(dt_sync);
    dt_sync = NULL;
}

// With D: out of line, so that the path without D is the ring's write alone.
static __attribute__((noinline)) void prio_ev_d(const struct thread *t, unsigned prio,
                                                unsigned cause)
{
    kev_emit_prio_change(true, ktrace_who(t), ktrace_pid(t), prio, t->prio, cause);
}

// (An initial priority, at a thread's creation or in the snapshot, is no change: no probe.)
void ktrace_prio_ev(const struct thread *t, unsigned prio, unsigned cause)
{
    if (kdt_active && cause != KEV_PRIO_INITIAL) {
        prio_ev_d(t, prio, cause);
        return;
    }
    kev_emit_prio_change(false, ktrace_who(t), 0, prio, t->prio, cause);
}

// The time blocked runs from the SYNC_WAIT event's stamp to the call's exit event's (both
// their sites' times, kdt_site_cycles), in cycles converted once, as dtrace -i measures it.
void ktrace_sync_wait_ev(struct thread *t, uint32_t obj, const struct thread *owner)
{
    uint32_t who = owner ? ktrace_who(owner) : 0;
    if (!kdt_active || !dt_sync) {
        trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, obj, who);
        return;
    }
    uint32_t before = kev_site_open(true);
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, obj, who);
    kev_site_stamp(true, before);
    uint64_t since = kdt_site_cycles();
    dt_sync[t->index].owner = who;
    dt_sync[t->index].since = since ? since : 1u;   // (0 means not blocked)
    kev_site_close(true);
}

_Static_assert(DPROBE_LOCKCALL_MUTEX_LOCK == KC_MutexLock &&
               DPROBE_LOCKCALL_MUTEX_UNLOCK == KC_MutexUnlock &&
               DPROBE_LOCKCALL_COND_WAIT == KC_CondWait && DPROBE_LOCKCALL_SEM_POST == KC_SemPost &&
               DPROBE_LOCKCALL_SEM_WAIT == KC_SemWait, "d/lockstat.h: the SYNC_* call numbers");

void ktrace_sync_call_entry(struct thread *t, uint32_t n, const uint32_t *a)
{
    if (dt_sync && dprobe_lockcall(n)) {
        struct dt_sync *d = &dt_sync[t->index];
        d->obj = a[0];
        d->owner = 0;
        d->since = 0;
    }
}

// lockstat's probes at a SYNC_* call's successful return (d/lockstat.h), within the exit
// event's site (ktrace_kcall_exit_full): arg0 the object; the *-block probes arg1 the time
// blocked (ns), arg2 the owner (who) it blocked behind, 0 when none known.
void ktrace_sync_call_return(struct thread *t, unsigned n, int32_t result)
{
    const struct dprobe_lockcall *lc = dprobe_lockcall(n);
    if (result < 0 || !dt_sync || !lc)
        return;
    struct dt_sync *d = &dt_sync[t->index];
    if (d->since && lc->blocked)
        kdt_fire(lc->blocked, d->obj, kview_ns(kdt_site_cycles() - d->since),
                 d->owner, 0);
    if (lc->done)
        kdt_fire(lc->done, d->obj, 0, 0, 0);
    d->since = 0;
}
