// SPDX-License-Identifier: MIT
// The derived D probes' rules (trace/include/trace/kev_derived.h): the blocked states' table
// and, for each change a reader follows, its firings in order with their arguments. The kernel
// fires what these return at the change's site; dtrace -i fires the same over the capture.
// Each probe's arguments: docs/d-probes.md ("The sched, proc and lockstat providers").
// Freestanding, no state.
#include <trace/kev_derived.h>
#include <trace/kev.h>
#include <trace/kev_events.h>
#include <d/dutext.h>
#include <uapi/kcall.h>
#include <uapi/ktrace.h>

// The blocked states that fire sched:::sleep, and the block-* probe after it. A state not here
// (STOPPED, WAITPAGE, SIGSUSPEND, INTR, ...) fires neither. A new blocked state is a line here.
static const struct kev_dblock blocks[] = {
    { KEV_TH_SEND, DPROBE_SCHED_BLOCK_SEND, KC_MsgSend, 0 },          // its connection
    { KEV_TH_RECEIVE, DPROBE_SCHED_BLOCK_RECEIVE, KC_MsgReceive, 0 }, // its channel
    { KEV_TH_REPLY, DPROBE_SCHED_BLOCK_REPLY, KC_MsgSend, 0 },        // its connection
    { KEV_TH_NANOSLEEP, DPROBE_SCHED_BLOCK_SLEEP, 0, 0 },
    { KEV_TH_MUTEX, DPROBE_SCHED_BLOCK_MUTEX, 0, 0 },
    { KEV_TH_CONDVAR, DPROBE_SCHED_BLOCK_COND, 0, 0 },
    { KEV_TH_JOIN, DPROBE_SCHED_BLOCK_JOIN, KC_ThreadJoin, KC_ProcWait }, // whom it waits for
    { KEV_TH_SEM, DPROBE_SCHED_BLOCK_SEM, 0, 0 },
};

const struct kev_dblock *kev_derived_block(unsigned state)
{
    for (unsigned i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++)
        if (blocks[i].state == state)
            return &blocks[i];
    return 0;
}

// fire: out[n] is probe id in context `as` with up to four arguments (n of them); returns n + 1.
static unsigned fire(struct kev_dfire *out, unsigned n, uint32_t id, unsigned as, unsigned nargs,
                     uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    struct kev_dfire *f = &out[n];
    f->id = id;
    f->n = (uint8_t)nargs;
    f->as = (uint8_t)as;
    f->a[0] = a0;
    f->a[1] = a1;
    f->a[2] = a2;
    f->a[3] = a3;
    for (unsigned k = 4; k < KEV_DFIRE_ARGS; k++)
        f->a[k] = 0;
    return n + 1u;
}

// thread: a firing about the changed thread: its who, pid and priority, then arg3.
static unsigned thread(struct kev_dfire *out, unsigned n, uint32_t id, const struct kev_dchange *c,
                       uint64_t a3)
{
    return fire(out, n, id, KEV_DAS_SITE, 4, c->who, c->pid, c->prio, a3);
}

unsigned kev_derived_change(struct kev_dfire *out, const struct kev_dchange *c)
{
    unsigned n = 0;
    if (c->next == KEV_TH_RUNNING) {
        n = thread(out, n, DPROBE_SCHED_DEQUEUE, c, c->rq_cpu);
        return fire(out, n, KEV_DSTEP_SWITCH, KEV_DAS_SITE, 0, 0, 0, 0, 0);
    }
    if (c->next == KEV_TH_DEAD)
        return thread(out, n, DPROBE_PROC_LWP_EXIT, c, 0);
    if (c->next == KEV_TH_READY) {
        if (c->prev == KEV_TH_READY)
            return 0;
        if (c->prev == KEV_TH_RUNNING)
            n = thread(out, n, DPROBE_SCHED_PREEMPT, c, 0);
        else
            n = thread(out, n, DPROBE_SCHED_WAKEUP, c,
                       c->prev == KEV_DSTATE_UNKNOWN ? 0u : c->prev);
        return thread(out, n, DPROBE_SCHED_ENQUEUE, c, c->rq_cpu);
    }
    const struct kev_dblock *b = kev_derived_block(c->next);
    if (!b)
        return 0;
    n = thread(out, n, DPROBE_SCHED_SLEEP, c, c->next);
    return b->probe ? thread(out, n, b->probe, c, b->call ? c->obj : 0u) : n;
}

unsigned kev_derived_dequeue_cpu(unsigned cpu, uint32_t from)
{
    return from == KEV_DSTEAL_NONE ? cpu : from;
}

unsigned kev_derived_offcpu(struct kev_dfire *out, uint64_t who, uint64_t pid, uint64_t prio,
                            uint64_t off_state)
{
    return fire(out, 0, DPROBE_SCHED_OFFCPU, KEV_DAS_OFF, 4, who, pid, prio, off_state);
}

unsigned kev_derived_tick(struct kev_dfire *out, uint64_t irq, uint64_t who, uint64_t pid,
                          uint64_t prio)
{
    if (irq != KIRQ_TICK && irq != KIRQ_CPUTICK)
        return 0;
    return fire(out, 0, DPROBE_SCHED_TICK, KEV_DAS_SITE, 3, who, pid, prio, 0);
}

unsigned kev_derived_first_run(struct kev_dfire *out, uint64_t who, uint64_t pid, uint64_t prio)
{
    unsigned n = pid && kev_who_tid(who) == 1u ? kev_derived_spawned(out, who, pid, prio) : 0;
    return fire(out, n, DPROBE_PROC_LWP_START, KEV_DAS_THREAD, 4, who, pid, prio, 0);
}

unsigned kev_derived_spawned(struct kev_dfire *out, uint64_t who, uint64_t pid, uint64_t prio)
{
    unsigned n = fire(out, 0, DPROBE_PROC_START, KEV_DAS_PARENT, 3, who, pid, prio, 0);
    n = fire(out, n, DPROBE_PROC_EXEC, KEV_DAS_PARENT, 1, DUTEXT_ADDR, 0, 0, 0);
    return fire(out, n, DPROBE_PROC_EXEC_SUCCESS, KEV_DAS_THREAD, 1, pid, 0, 0, 0);
}

unsigned kev_derived_spawn_failed(struct kev_dfire *out, uint64_t err)
{
    unsigned n = fire(out, 0, DPROBE_PROC_EXEC, KEV_DAS_SITE, 1, DUTEXT_ADDR, 0, 0, 0);
    return fire(out, n, DPROBE_PROC_EXEC_FAILURE, KEV_DAS_SITE, 1, err, 0, 0, 0);
}

unsigned kev_derived_thcreate(struct kev_dfire *out, uint64_t who, uint64_t pid, uint64_t prio)
{
    unsigned n = fire(out, 0, DPROBE_SCHED_CREATE, KEV_DAS_SITE, 3, who, pid, prio, 0);
    return fire(out, n, DPROBE_PROC_LWP_CREATE, KEV_DAS_SITE, 3, who, pid, prio, 0);
}

unsigned kev_derived_thdestroy(struct kev_dfire *out, uint64_t who, uint64_t status)
{
    return fire(out, 0, DPROBE_SCHED_EXIT, KEV_DAS_SITE, 2, who, status, 0, 0);
}

unsigned kev_derived_fault(struct kev_dfire *out, uint64_t signal)
{
    return fire(out, 0, DPROBE_PROC_FAULT, KEV_DAS_SITE, 1, signal, 0, 0, 0);
}
