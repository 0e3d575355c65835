// SPDX-License-Identifier: MIT
// The lockstat provider (docs/d-probes.md), fired where a SYNC_* kernel call returns to its
// thread, in that thread's context, from what its entry and its SYNC_WAIT left for the thread
// (struct dt_sync): so that dtrace -i derives the same firings from the capture's KER_CALL
// entry/exit and SYNC_WAIT events (tools/dtrace/kevreplay.c). The kernel-call events' site
// (kernel/kev_emit.h) and SYNC_WAIT's (ktrace_sync.c) tell it; it fires through kdt_fire.c.
#include <kernel/kdtrace.h>
#include <kernel/kview.h>
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

int klockstat_d_start(void)
{
    if (!dt_sync)
        dt_sync = kview_alloc(KMAX_THREADS * sizeof(*dt_sync), 8);
    if (!dt_sync)
        return -ENOMEM;
    kmemset(dt_sync, 0, KMAX_THREADS * sizeof(*dt_sync));
    return 0;
}

void klockstat_d_stop(void)
{
    if (dt_sync)
        kview_free(dt_sync);
    dt_sync = NULL;
}

bool klockstat_on(void)
{
    return dt_sync != NULL;
}

// t blocked behind who at `since` (the SYNC_WAIT event's site, in cycles).
void klockstat_blocked(const struct thread *t, uint32_t who, uint64_t since)
{
    dt_sync[t->index].owner = who;
    dt_sync[t->index].since = since ? since : 1u;   // (0 means not blocked)
}

_Static_assert(DPROBE_LOCKCALL_MUTEX_LOCK == KC_MutexLock &&
               DPROBE_LOCKCALL_MUTEX_UNLOCK == KC_MutexUnlock &&
               DPROBE_LOCKCALL_COND_WAIT == KC_CondWait && DPROBE_LOCKCALL_SEM_POST == KC_SemPost &&
               DPROBE_LOCKCALL_SEM_WAIT == KC_SemWait, "d/lockstat.h: the SYNC_* call numbers");

void klockstat_call_entry(struct thread *t, uint32_t n, const uint32_t *a)
{
    if (dt_sync && dprobe_lockcall(n)) {
        struct dt_sync *d = &dt_sync[t->index];
        d->obj = a[0];
        d->owner = 0;
        d->since = 0;
    }
}

// lockstat's probes at a SYNC_* call's successful return (d/lockstat.h), within the exit
// event's site (kev_emit_kcall_exit): arg0 the object; the *-block probes arg1 the time
// blocked (ns), arg2 the owner (who) it blocked behind, 0 when none known.
void klockstat_call_return(struct thread *t, unsigned n, int32_t result)
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
