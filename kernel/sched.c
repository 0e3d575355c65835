// SPDX-License-Identifier: MIT
// Ready queues and the choice of the next thread. Invariants: a READY thread is on exactly
// the queue of its effective priority; bit p of ready_map is set iff queue p is non-empty; a
// RUNNING thread (some CPU's current) is on no queue. Each CPU's idle thread (priority 0,
// pinned to it) is always runnable there.
//
// Multiprocessor (KMAX_CPUS > 1): one global ready queue, not one per CPU, under the big
// lock's exclusive side or, in shared mode, its own spinlock (runq_lock, kernel/klock.h). It
// gives the rule a real-time user expects for free: the N highest-priority ready threads run,
// one per CPU, and a thread never waits behind a lower one on another CPU's queue. A CPU
// takes the first thread of the highest priority it may run (affinity: idle threads, and
// threads bound to one CPU's devices); after every kernel entry the CPU that ran it looks
// at the others and interrupts (IPI) each one now running something less urgent than a ready
// thread it could run (sched_kick_others). Its cost, measured (make KLOCK_STATS=1): a shared
// call holds the lock about 212 instructions, from its first enqueue to its CPU's choice, a
// third of a message-passing CPU's time (docs/smp.md, "Issue 28, third round").
#include <kernel/sched.h>
#include <kernel/arch.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kdtrace.h>
#include <kernel/board.h>
#include <d/dprobes.h>

static struct list ready_q[256];
static uint32_t ready_map[8];
#if KMAX_CPUS > 1
#include <kernel/klock.h>
// kick_check_pending: set by whoever may have made work for another CPU during this CPU's
// entry: a thread made ready that may run on a CPU other than this one, or a running thread's
// priority lowered. sched_kick_others looks at the other CPUs only when it is set, so an entry
// that touched threads bound to its own CPU (the common same-CPU message round trip) looks at
// none. Per CPU (the entry's own), so that entries in shared mode do not clear each other's.
#define kick_check_pending (this_cpu()->kick_check)
// The ready queues, every CPU's current and kicked, in shared mode (klock.h, rank RUNQ).
static struct kspin runq_lock;
#endif
struct cpu k_cpus[KMAX_CPUS];
unsigned k_ncpus = 1;
uint64_t k_context_switches;

void sched_init(void)
{
    for (unsigned i = 0; i < 256; i++)
        list_init(&ready_q[i]);
    for (unsigned i = 0; i < 8; i++)
        ready_map[i] = 0;
    for (unsigned c = 0; c < KMAX_CPUS; c++) {
        k_cpus[c].id = c;
        k_cpus[c].current = NULL;
        k_cpus[c].yield_pending = false;
        k_cpus[c].kicked = false;
    }
    k_cpus[0].online = true;
    k_ncpus = 1;
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
#if KMAX_CPUS > 1
    if (k_ncpus > 1 && (!t->affinity || (t->affinity & ~(1u << cpu_id()))))
        kick_check_pending = true;
#endif
}

void sched_make_ready(struct thread *t, bool at_head)
{
    enqueue(t, at_head);
    ktrace_state(t);    // last, so that the hook's call is a tail call
}

void sched_make_ready_quiet(struct thread *t, bool at_head)
{
    enqueue(t, at_head);
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
    this_cpu()->yield_pending = true;
}

static inline bool may_run_on(const struct thread *t, unsigned cpu)
{
    return KMAX_CPUS == 1 || !t->affinity || ((t->affinity >> cpu) & 1u);
}

// The first ready thread of the highest priority that CPU `cpu` may run, or NULL.
static inline __attribute__((always_inline)) struct thread *top_ready(unsigned cpu)
{
    for (int w = 7; w >= 0; w--) {
        uint32_t m = ready_map[w];
        while (m) {
            unsigned p = (unsigned)w * 32u + 31u - (unsigned)__builtin_clz(m);
            if (KMAX_CPUS == 1 || k_ncpus == 1)     // one CPU: every thread may run here
                return list_entry(ready_q[p].next, struct thread, qlink);
            struct list *pos;
            list_for_each(pos, &ready_q[p]) {
                struct thread *t = list_entry(pos, struct thread, qlink);
                if (may_run_on(t, cpu))
                    return t;
            }
            m &= ~(1u << (p & 31u));
        }
    }
    return NULL;
}

// Round-robin accounting for a CPU's running thread, `periods` ticks of it (more than one
// after a late tick); true when its slice ran out.
static bool slice_used_up(struct cpu *c, unsigned periods)
{
    struct thread *t = c->current;
    if (t && t->state == THS_RUNNING && t->policy == SCHED_POLICY_RR && t->prio > 0) {
        t->slice = t->slice > periods ? (uint8_t)(t->slice - periods) : 0;
        if (t->slice == 0) {
            t->slice = RR_TIMESLICE;
            c->yield_pending = true;
            return true;
        }
    }
    return false;
}

#if KMAX_CPUS > 1
// Whether CPU `cpu`, whose running thread's slice just ran out, would now choose another:
// only a ready thread of its priority or above that may run there takes its place (choose).
// With none, an IPI would only make it enter the kernel and choose the same thread again.
static bool slice_end_changes_choice(unsigned cpu)
{
    const struct thread *best = top_ready(cpu);
    return best && best->prio >= k_cpus[cpu].current->prio;
}
#endif

// The tick comes to one CPU; it keeps the slices of every CPU's thread. Another CPU whose
// slice ran out is interrupted only when a thread waits to take its place; otherwise its
// yield stays pending, for its next choice (its own tick within a period, or any kernel entry)
// to honour should an equal one be ready by then. An IPI for every slice that ran out was a
// kernel entry on every CPU running a busy round-robin thread every RR_TIMESLICE ticks, three
// IPIs in four with nothing to do (the traced demo on 4 CPUs), each exclusive while D runs;
// with interrupts acknowledged before the kernel lock they kept three CPUs from running a
// single user instruction for seconds under -icount (docs/smp.md, "Why acknowledging every
// interrupt before the lock stalled the traced demo").
void sched_tick(unsigned periods)
{
    struct cpu *self = this_cpu();
    slice_used_up(self, periods);
#if KMAX_CPUS > 1
    for (unsigned i = 0; i < k_ncpus; i++) {
        struct cpu *c = &k_cpus[i];
        if (c != self && c->online && slice_used_up(c, periods) && !c->kicked &&
            slice_end_changes_choice(i)) {
            c->kicked = true;
            arch_cpu_kick(i);
        }
    }
#endif
}

// The traced pass's end on several CPUs: the state events of the thread it put back on the
// ready queue (requeued, READY; NULL: none) and of the one it chose (RUNNING), then the CPU's
// current thread changes, after them (D's probes in them fire in the old thread's context,
// as when they were emitted in place). The pass's tail call: with nothing of the pass live
// across the events' calls, a pass whose thread keeps its CPU keeps no registers for them
// (7 instructions of a traced null call on AArch64; docs/PERFORMANCE.md, issue 28).
static __attribute__((noinline, unused)) struct thread *
traced_choice_end(struct cpu *c, struct thread *requeued, struct thread *next)
{
    if (requeued)
        ktrace_state_inline(requeued);  // (ktrace_kcall.h; inline here, out of the pass)
    ktrace_state_inline(next);
    c->current = next;
    return next;
}

static inline __attribute__((always_inline)) struct thread *choose(const bool traced)
{
    struct cpu *c = this_cpu();
    struct thread *cur = c->current;
    struct thread *next = top_ready(cpu_id());
    int top = next ? (int)next->prio : -1;
    bool yield = c->yield_pending;
    struct thread *requeued = NULL;

    c->yield_pending = false;
    if (cur && cur->state == THS_RUNNING) {
        if (top < (int)cur->prio || (top == (int)cur->prio && !yield))
            return cur;     // (D's sched:::remain-cpu: ktrace.c, at the exit)
        // Preempted threads keep their place at the head; yielding ones go to the back.
        enqueue(cur, !yield);
        if (traced && KMAX_CPUS == 1)
            ktrace_state_traced(cur);   // inline (ktrace_kcall.h); several CPUs: at the end
        requeued = cur;
        next = top_ready(cpu_id());
    }
    KASSERT(next, "no runnable thread (idle missing)");
    sched_remove(next);
    next->state = THS_RUNNING;
    next->cpu = (uint8_t)cpu_id();
    if (traced && KMAX_CPUS == 1)
        ktrace_state_traced(next);      // (the Cortex-M's shape: each event in place is the
    if (next != cur)                    // cheaper there, measured)
        k_context_switches++;
    if (traced && KMAX_CPUS > 1)
        return traced_choice_end(c, requeued, next);
    c->current = next;
    return next;
}

#if KMAX_CPUS > 1
// After an entry on this CPU: every other CPU running something less urgent than a ready
// thread it may run is interrupted, once (its `kicked` stays set until it enters the kernel).
void sched_kick_others(void)
{
    if (!kick_check_pending)
        return;
    kick_check_pending = false;
    unsigned self = cpu_id();
    for (unsigned i = 0; i < k_ncpus; i++) {
        struct cpu *c = &k_cpus[i];
        if (i == self || !c->online || c->kicked)
            continue;
        struct thread *best = top_ready(i);
        const struct thread *cur = c->current;
        if (best && (!cur || cur->state != THS_RUNNING || best->prio > cur->prio)) {
            if (__builtin_expect(kdt_active, 0) && cur)     // D's sched:::surrender
                kdt_fire(DPROBE_SCHED_SURRENDER, ktrace_who(cur), ktrace_pid(cur), cur->prio, i);
            c->kicked = true;
            arch_cpu_kick(i);
        }
    }
}

void sched_running_prio_lowered(void)
{
    kick_check_pending = true;
}
#endif

int sched_set_runmask(struct thread *t, uint32_t mask)
{
    uint32_t online = 0;
    for (unsigned i = 0; i < k_ncpus && i < 32u; i++)
        if (k_cpus[i].online)
            online |= 1u << i;
    mask &= online;
    if (!mask)
        return -EINVAL;
    t->affinity = mask == online ? 0 : mask;
    if (!may_run_on(t, cpu_id())) {
        thread_set_result(t, 0);
        sched_make_ready(t, false);     // the exit's choice takes another; its CPU is kicked
    }
    return 0;
}

struct thread *sched_choose(void)
{
    return choose(false);
}

#if KMAX_CPUS > 1
// The run-queue lock's contention (KLOCK_STATS images, make KLOCK_STATS=1; docs/smp.md, "the
// run queue"): whether a take found the lock held (a look at its word just before), and the
// counter cycles from the take to the release. Empty otherwise.
#ifdef KLOCK_STATS
static inline void runq_stats_before_take(struct cpu *c)
{
    c->runq_takes++;
    c->runq_found_taken += runq_lock.word != 0;
}

static inline void runq_stats_taken(struct cpu *c)
{
    c->runq_taken_at = board_cycles();
}

static inline void runq_stats_release(struct cpu *c)
{
    c->runq_hold_cycles += board_cycles() - c->runq_taken_at;
}
#else
static inline void runq_stats_before_take(struct cpu *c) { (void)c; }
static inline void runq_stats_taken(struct cpu *c) { (void)c; }
static inline void runq_stats_release(struct cpu *c) { (void)c; }
#endif

void sched_lock_shared(void)
{
    struct cpu *c = this_cpu();
    if (!c->runq_held) {
        runq_stats_before_take(c);
        kspin_lock(&runq_lock, KLOCK_RANK_RUNQ);
        runq_stats_taken(c);
        c->runq_held = true;
    }
}

static inline __attribute__((always_inline)) struct thread *choose_shared(const bool traced)
{
    sched_lock_shared();
    struct thread *next = choose(traced);
    sched_kick_others();
    this_cpu()->runq_held = false;
    runq_stats_release(this_cpu());
    kspin_unlock(&runq_lock, KLOCK_RANK_RUNQ);
    return next;
}

struct thread *sched_choose_shared(void)
{
    return choose_shared(false);
}

struct thread *sched_choose_shared_traced(void)
{
    return choose_shared(KTRACE_HOOKS);
}
#endif

struct thread *sched_choose_traced(void)
{
    return choose(KTRACE_HOOKS);
}
