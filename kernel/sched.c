// SPDX-License-Identifier: MIT
// Ready queues and the choice of the next thread. Invariants: a READY thread is on exactly
// the queue of its effective priority; bit p of ready_map is set iff queue p is non-empty; the
// RUNNING thread (k_current) is on no queue. The idle thread (priority 0) is always runnable.
#include <kernel/sched.h>
#include <kernel/arch.h>

static struct list ready_q[256];
static uint32_t ready_map[8];
static bool yield_pending;
struct thread *k_current;
uint64_t k_context_switches;

void sched_init(void)
{
    for (unsigned i = 0; i < 256; i++)
        list_init(&ready_q[i]);
    for (unsigned i = 0; i < 8; i++)
        ready_map[i] = 0;
    yield_pending = false;
    k_current = NULL;
    k_context_switches = 0;
}

static inline __attribute__((always_inline)) void enqueue(struct thread *t, bool at_head)
{
    KASSERT(!list_linked(&t->qlink), "ready thread already queued");
    t->state = THS_READY;
    t->waitq = NULL;
    if (at_head)
        list_push_front(&ready_q[t->prio], &t->qlink);
    else
        list_push_back(&ready_q[t->prio], &t->qlink);
    ready_map[t->prio >> 5] |= 1u << (t->prio & 31);
}

void sched_make_ready(struct thread *t, bool at_head)
{
    enqueue(t, at_head);
    ktrace_state(t);    // last, so that the hook's call is a tail call
}

void sched_remove(struct thread *t)
{
    list_unlink(&t->qlink);
    if (list_empty(&ready_q[t->prio]))
        ready_map[t->prio >> 5] &= ~(1u << (t->prio & 31));
}

int sched_top_prio(void)
{
    for (int w = 7; w >= 0; w--)
        if (ready_map[w])
            return w * 32 + 31 - __builtin_clz(ready_map[w]);
    return -1;
}

void sched_yield_current(void)
{
    yield_pending = true;
}

void sched_tick(void)
{
    struct thread *t = k_current;
    if (t && t->state == THS_RUNNING && t->policy == SCHED_POLICY_RR && t->prio > 0) {
        if (t->slice > 0)
            t->slice--;
        if (t->slice == 0) {
            t->slice = RR_TIMESLICE;
            yield_pending = true;
        }
    }
}

static inline __attribute__((always_inline)) struct thread *choose(const bool traced)
{
    struct thread *cur = k_current;
    int top = sched_top_prio();
    bool yield = yield_pending;

    yield_pending = false;
    if (cur && cur->state == THS_RUNNING) {
        if (top < (int)cur->prio || (top == (int)cur->prio && !yield))
            return cur;
        // Preempted threads keep their place at the head; yielding ones go to the back.
        enqueue(cur, !yield);
        if (traced)
            ktrace_state(cur);
    }
    top = sched_top_prio();
    KASSERT(top >= 0, "no runnable thread (idle missing)");
    struct thread *next = list_entry(ready_q[top].next, struct thread, qlink);
    sched_remove(next);
    next->state = THS_RUNNING;
    if (traced)
        ktrace_state(next);
    if (next != cur)
        k_context_switches++;
    k_current = next;
    return next;
}

struct thread *sched_choose(void)
{
    return choose(false);
}

struct thread *sched_choose_traced(void)
{
    return choose(KTRACE_HOOKS);
}
