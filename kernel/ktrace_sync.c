// SPDX-License-Identifier: MIT
// Ownership and priority: the SYSTEM events SYNC_WAIT and PRIO_CHANGE (docs/trace-events.md),
// each produced here at the one site that also fires its D probe (sched:::change-pri), or that
// tells lockstat (kernel/klockstat.c) when and behind whom the thread blocked.
#include <kernel/ktrace.h>
#include <kernel/kev_emit.h>
#include <kernel/kdtrace.h>
#include <kernel/kview.h>
#include <d/dprobes.h>

// With D: out of line, so that the path without D is the ring's write alone.
static __attribute__((noinline)) void prio_ev_d(const struct thread *t, unsigned prio,
                                                unsigned cause)
{
    if (cause == KEV_PRIO_INITIAL || cause >= KEV_PRIO_NCAUSES)   // (the caller's test: the
        __builtin_unreachable();        // row's `unless cause=0` and the field's mask fold)
    kev_emit_prio_change(KEV_D, ktrace_who(t), prio, t->prio, cause);
}

// (An initial priority, at a thread's creation or in the snapshot, is no change: no probe.)
void ktrace_prio_ev(const struct thread *t, unsigned prio, unsigned cause)
{
    if (cause >= KEV_PRIO_NCAUSES)      // (every caller's is a KEV_PRIO_*: the field's mask folds)
        __builtin_unreachable();
    if (cause != KEV_PRIO_INITIAL && kdt_on(KEV_C_SYSTEM) && kdt_wanted(DPROBE_SCHED_CHANGE_PRI)) {
        prio_ev_d(t, prio, cause);
        return;
    }
    kev_emit_prio_change(KEV_RING, ktrace_who(t), prio, t->prio, cause);
}

// The time blocked runs from the SYNC_WAIT event's stamp to the call's exit event's (both
// their sites' times, kdt_site_cycles), in cycles converted once, as dtrace -i measures it.
void ktrace_sync_wait_ev(struct thread *t, uint32_t obj, const struct thread *owner)
{
    uint32_t who = owner ? ktrace_who(owner) : 0;
    if (!kdt_lockstat || !kdt_on(KEV_C_SYSTEM) || !klockstat_on()) {
        trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, obj, who);
        return;
    }
    uint32_t before = kev_site_open(true);
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, obj, who);
    kev_site_stamp(true, before);
    klockstat_blocked(t, who, kdt_site_cycles());
    kev_site_close(true);
}
