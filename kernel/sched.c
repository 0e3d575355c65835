// SPDX-License-Identifier: MIT
// Ready queues and the choice of the next thread. Invariants: a READY thread is on exactly
// one ready queue, that of its effective priority; bit p of a queue set's map is set iff its
// queue p is non-empty; a RUNNING thread (some CPU's current) is on no queue. Each CPU's idle
// thread (priority 0, pinned to it) is always runnable there.
//
// Multiprocessor (KMAX_CPUS > 1; docs/smp.md, "Run queues"): one set
// of queues per CPU (struct runq), each under its own spinlock in shared mode (klock.h, rank
// RUNQ; the exclusive side runs alone and takes none). Invariants, on top of the above:
// - R1 A READY thread is on the queue of a CPU it may run on (t->rq_cpu; affinity), and a
//   thread moves between queues only with both queues' locks held (pull, in CPU-id order).
// - R2 bit c of rq_overloaded is set iff runqs[c] holds a thread that may run on another CPU
//   (runqs[c].nmigr > 0), written under runqs[c]'s lock: other CPUs look there, and only there,
//   for work to pull.
// - R3 No double run: a thread is "on" CPU x while k_cpus[x].current is it, which lasts until
//   x's choice stores another there (release). A thread that blocked on x and was made ready
//   by another CPU before that is on a queue but still on x: a chooser on any other CPU skips
//   it. Nobody waits for it (a wait under a queue lock could close a cycle); instead x, after
//   its store, a full barrier, then looks at that thread: still READY, x's sched_kick_others
//   looks at every CPU for it. A chooser that skipped it does the mirror image (its store of
//   current, a barrier, a look at the queues), so one of the two always sees the other.
// - R4 The real-time rule: no READY thread waits while a CPU it may run on runs a lower one.
//   A thread made ready goes where it runs at once if there is such a CPU (the waking CPU when
//   it will take it or runs the same priority, its last CPU, else the CPU running the lowest
//   priority: place), that CPU interrupted (IPI) by sched_kick_others; else it waits on its
//   last CPU's queue. A CPU that
//   chooses pulls the most urgent waiting thread it may run from another CPU's queue if that
//   beats its own (pull). The waker/chooser race: the waker enqueues (and sets R2's bit) and
//   then, after a full barrier, reads every CPU's current; a chooser stores its current and
//   then, after a full barrier, reads the queues (settle); one of the two sees the other's
//   store, and interrupts the chooser (or the chooser itself) when a waiting thread beats it.
// A same-CPU message round trip between threads bound to one CPU touches that CPU's queue and
// lock alone: R2's bit is not set for them, and no other CPU is looked at.
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/kview.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/board.h>

// One CPU's ready queues (R1, R2), on cache lines of their own. With one CPU the queues and
// their map are two arrays of their own (RQ_Q, RQ_MAP: the layout the one-CPU scheduler was
// measured with, docs/PERFORMANCE.md), and the rest of struct runq is never used.
#if KMAX_CPUS > 1
struct runq {
    struct kspin lock;          // shared mode (klock.h, rank RUNQ)
    uint32_t nmigr;             // queued threads that may run on another CPU too
    uint32_t words;             // bit w: map[w] non-zero (the top in two clz)
    uint32_t map[8];            // bit p: q[p] non-empty
    struct list q[256];         // FIFO per priority
} KCPU_LINE_ALIGNED;
#define RQ_Q(c) (runqs[c].q)
#define RQ_MAP(c) (runqs[c].map)
#else
struct runq {
    struct kspin lock;
    uint32_t nmigr, words;
};
static struct list ready_q[256];
static uint32_t ready_map[8];
#define RQ_Q(c) ((void)(c), ready_q)
#define RQ_MAP(c) ((void)(c), ready_map)
#endif
static struct runq runqs[KMAX_CPUS];
// R2's flags, one byte per CPU (each written by plain stores under its queue's lock, read
// together by the others): 1 while runqs[c].nmigr > 0.
static union {
    volatile uint8_t cpu[KMAX_CPUS];
    uint32_t any[(KMAX_CPUS + 3) / 4];
} rq_over KCPU_LINE_ALIGNED;

// Whether a CPU other than `self` has a thread another CPU may take (R2): a load or two.
static inline bool others_overloaded(unsigned self)
{
    if (!KSMP)
        return false;
    if (KMAX_CPUS <= 4)
        return (__atomic_load_n(&rq_over.any[0], __ATOMIC_RELAXED) & ~(0xffu << (8u * self))) != 0;
    for (unsigned i = 0; i < (KMAX_CPUS + 3) / 4; i++) {
        uint32_t w = __atomic_load_n(&rq_over.any[i], __ATOMIC_RELAXED);
        if (i == self / 4)
            w &= ~(0xffu << (8u * (self % 4)));
        if (w)
            return true;
    }
    return false;
}

// The CPUs whose queues hold a thread another CPU may take (R2), a bit each.
static inline uint32_t rq_overloaded(void)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < (KMAX_CPUS + 3) / 4; i++)
        if (__atomic_load_n(&rq_over.any[i], __ATOMIC_RELAXED))
            for (unsigned j = 0; j < 4 && i * 4 + j < KMAX_CPUS; j++)
                m |= (uint32_t)(rq_over.cpu[i * 4 + j] != 0) << (i * 4 + j);
    return m;
}
// kick_check_pending: set by whoever may have made work for another CPU during this CPU's
// entry: a thread made ready that may run on a CPU other than this one, a running thread's
// priority lowered, a thread released that another CPU skipped (R3). sched_kick_others looks
// at the other CPUs only when it is set, so an entry that touched threads bound to its own
// CPU (the common same-CPU message round trip) looks at none. Per CPU (the entry's own).
#define kick_check_pending (this_cpu()->kick_check)
#define NO_CPU 0xffu
struct cpu k_cpus[KMAX_CPUS];
unsigned k_ncpus = 1;

void sched_init(void)
{
    for (unsigned c = 0; c < KMAX_CPUS; c++) {
        for (unsigned i = 0; i < 256; i++)
            list_init(&RQ_Q(c)[i]);
        for (unsigned i = 0; i < 8; i++)
            RQ_MAP(c)[i] = 0;
        if (KSMP) {
            runqs[c].nmigr = 0;
            runqs[c].words = 0;
            kspin_init(&runqs[c].lock);
            rq_over.cpu[c] = 0;
        }
    }
    for (unsigned c = 0; c < KMAX_CPUS; c++) {
        k_cpus[c].id = c;
        k_cpus[c].current = NULL;
        k_cpus[c].yield_pending = false;
        k_cpus[c].kicked = false;
        k_cpus[c].context_switches = 0;
    }
    k_cpus[0].online = true;
    k_ncpus = 1;
}

static inline bool may_run_on(const struct thread *t, unsigned cpu)
{
    return !KSMP || !t->affinity || ((t->affinity >> cpu) & 1u);
}

// Puts t on CPU cpu's queues (its lock held in shared mode).
static inline __attribute__((always_inline)) void enqueue_on(unsigned cpu, struct thread *t,
                                                             bool at_head)
{
    KASSERT(!list_linked(&t->qlink), "ready thread already queued");
    t->state = THS_READY;
    t->waitq = NULL;
    if (at_head)
        list_push_front(&RQ_Q(cpu)[t->prio], &t->qlink);
    else
        list_push_back(&RQ_Q(cpu)[t->prio], &t->qlink);
    RQ_MAP(cpu)[t->prio >> 5] |= 1u << (t->prio & 31);
    if (KSMP) {
        runqs[cpu].words |= 1u << (t->prio >> 5);
        thread_set_rq_cpu(t, cpu);
        if ((!t->affinity || (t->affinity & ~(1u << cpu))) && runqs[cpu].nmigr++ == 0)
            rq_over.cpu[cpu] = 1;
    }
}

// Takes t off its queue (its lock held in shared mode).
static inline __attribute__((always_inline)) void dequeue(struct thread *t)
{
    const unsigned cpu = thread_rq_cpu(t);
    list_unlink(&t->qlink);
    if (list_empty(&RQ_Q(cpu)[t->prio])) {
        RQ_MAP(cpu)[t->prio >> 5] &= ~(1u << (t->prio & 31));
        if (KSMP && !RQ_MAP(cpu)[t->prio >> 5])
            runqs[cpu].words &= ~(1u << (t->prio >> 5));
    }
    if (KSMP && (!t->affinity || (t->affinity & ~(1u << cpu))) && --runqs[cpu].nmigr == 0)
        rq_over.cpu[cpu] = 0;
}

// ---- Multiprocessor: locks, looks at other CPUs, placement ----

// The run-queue locks' contention (KLOCK_STATS images, make KLOCK_STATS=1; docs/smp.md):
// takes in shared mode, takes that found the lock held (a look at its word just before), and
// the counter cycles from the take to the release. Empty otherwise.
#ifdef KLOCK_STATS
static inline void rq_stats_take(struct runq *q)
{
    struct cpu *c = this_cpu();
    c->runq_takes++;
    c->runq_found_taken += q->lock.word != 0;
}
static inline void rq_stats_taken(void) { this_cpu()->runq_taken_at = board_cycles(); }
static inline void rq_stats_release(void)
{
    struct cpu *c = this_cpu();
    c->runq_hold_cycles += board_cycles() - c->runq_taken_at;
}
#else
static inline void rq_stats_take(struct runq *q) { (void)q; }
static inline void rq_stats_taken(void) { }
static inline void rq_stats_release(void) { }
#endif

static inline bool in_shared(void)
{
    return smp_in_shared();
}

static inline __attribute__((always_inline)) void rq_lock(unsigned cpu, const bool shared)
{
    if (shared) {
        rq_stats_take(&runqs[cpu]);
        kspin_lock(&runqs[cpu].lock, KLOCK_RANK_RUNQ);
        rq_stats_taken();
    }
}

static inline __attribute__((always_inline)) void rq_unlock(unsigned cpu, const bool shared)
{
    if (shared) {
        rq_stats_release();
        kspin_unlock(&runqs[cpu].lock, KLOCK_RANK_RUNQ);
    }
}

// In a shared entry, this CPU's own queue lock is taken at its first use (a thread made ready
// here, or this CPU's choice) and kept until its choice (c->rq_held): a same-CPU message round
// trip takes one lock, its own CPU's, once per entry.
static inline __attribute__((always_inline)) void own_lock(struct cpu *c)
{
    if (!c->rq_held) {
        rq_lock(c->id, true);
        c->rq_held = true;
    }
}

static inline __attribute__((always_inline)) void own_unlock(struct cpu *c)
{
    if (c->rq_held) {
        c->rq_held = false;
        rq_unlock(c->id, true);
    }
}

// Another CPU's queue lock in a shared entry, this CPU's own perhaps held: two queue locks
// are only ever held in increasing CPU id (the own one is let go and taken again after a lower
// one), so that two CPUs cannot wait for each other. The second is one take of the rank for
// the lock-order check (klock.h).
static void other_lock(struct cpu *c, unsigned o)
{
    if (!c->rq_held) {
        rq_lock(o, true);
        return;
    }
    rq_stats_take(&runqs[o]);
    if (o < c->id) {
        kspin_raw_unlock(&runqs[c->id].lock);
        kspin_raw_lock(&runqs[o].lock);
        kspin_raw_lock(&runqs[c->id].lock);
    } else {
        kspin_raw_lock(&runqs[o].lock);
    }
}

static void other_unlock(struct cpu *c, unsigned o)
{
    if (!c->rq_held)
        rq_unlock(o, true);
    else
        kspin_raw_unlock(&runqs[o].lock);
}

// The highest priority queued on CPU cpu, or -1: a look without its lock (a hint, rechecked
// under the lock before anything is taken).
static inline int peek_top(unsigned cpu)
{
    uint32_t words = __atomic_load_n(&runqs[cpu].words, __ATOMIC_RELAXED);
    if (!words)
        return -1;
    int w = 31 - __builtin_clz(words);
    uint32_t m = __atomic_load_n(&RQ_MAP(cpu)[w], __ATOMIC_RELAXED);
    return m ? w * 32 + 31 - __builtin_clz(m) : w * 32;    // (a word emptied meanwhile)
}

// The thread CPU cpu runs (a look without a lock) and the priority it runs at: -1 while it is
// in the kernel with its thread blocked (it is about to choose).
static inline struct thread *current_of(unsigned cpu)
{
    return __atomic_load_n(&k_cpus[cpu].current, __ATOMIC_ACQUIRE);
}

static int running_prio(unsigned cpu)
{
    const struct thread *cur = current_of(cpu);
    return cur && cur->state == THS_RUNNING ? (int)cur->prio : -1;
}

// Whether t is still another CPU's than `cpu` (R3): that CPU has not chosen since t blocked.
static inline bool on_other_cpu(const struct thread *t, unsigned cpu)
{
    return t->cpu != cpu && current_of(t->cpu) == t;
}

// The level a thread made ready must beat to run on CPU cpu at once: what it runs, or what
// waits on its queue, whichever is higher.
static int level_of(unsigned cpu)
{
    int r = running_prio(cpu), q = peek_top(cpu);
    return r > q ? r : q;
}

// Where a thread made ready on CPU `self` is queued (R4): a CPU it may run on where it runs at
// once (this one, its last one, else the one running the lowest priority), else its last CPU
// (where it waits, for a CPU whose choice falls to pull it). This CPU also when its own thread
// is of the same priority: the usual waker is about to block (a MsgSend, a reply before the
// next receive), and the thread then runs here with no IPI; a waker that keeps running has the
// thread pulled by a lower CPU, which this entry's sched_kick_others interrupts.
static __attribute__((noinline)) unsigned place(const struct thread *t, unsigned self)
{
    uint32_t a = t->affinity;
    if (a && !(a & (a - 1u)))
        return (unsigned)__builtin_ctz(a);     // bound to one CPU
    int p = t->prio;
    if (may_run_on(t, self) && level_of(self) <= p)
        return self;
    unsigned last = t->cpu;
    bool last_ok = last < k_ncpus && k_cpus[last].online && may_run_on(t, last);
    if (last_ok && last != self && level_of(last) < p)
        return last;
    unsigned low = NO_CPU;
    int low_level = 256;
    for (unsigned i = 0; i < k_ncpus; i++) {
        if (i == self || i == last || !k_cpus[i].online || !may_run_on(t, i))
            continue;
        int l = level_of(i);
        if (l < low_level) {
            low_level = l;
            low = i;
        }
    }
    if (low != NO_CPU && low_level < p)
        return low;
    if (last_ok)
        return last;
    if (may_run_on(t, self))
        return self;
    return low != NO_CPU ? low : (unsigned)__builtin_ctz(a);
}

// The first thread of the highest priority on CPU q's queues that CPU cpu may run now (not on
// another CPU, R3), or NULL; *skipped set when a more urgent one was passed over for R3.
// q's lock held in shared mode.
static __attribute__((noinline)) struct thread *top_for(unsigned q, unsigned cpu, bool *skipped)
{
    for (int w = runqs[q].words ? 31 - __builtin_clz(runqs[q].words) : -1; w >= 0; w--) {
        uint32_t m = RQ_MAP(q)[w];
        while (m) {
            unsigned p = (unsigned)w * 32u + 31u - (unsigned)__builtin_clz(m);
            struct list *pos;
            list_for_each(pos, &RQ_Q(q)[p]) {
                struct thread *t = list_entry(pos, struct thread, qlink);
                if (!may_run_on(t, cpu))
                    continue;
                if (on_other_cpu(t, cpu)) {
                    *skipped = true;
                    continue;
                }
                return t;
            }
            m &= ~(1u << (p & 31u));
        }
    }
    return NULL;
}

// Whether CPU i could now take a thread more urgent than `floor` from one of the queues in
// `look` (bit per CPU: its own, and those R2 names). Takes each queue's lock in shared mode,
// one at a time (none may be held), and only that of a queue whose look promises one.
static __attribute__((noinline)) bool waiting_above_in(unsigned i, int floor, const bool shared,
                                                       uint32_t look)
{
    while (look) {
        unsigned o = (unsigned)__builtin_ctz(look);
        look &= look - 1u;
        if (o >= k_ncpus || peek_top(o) <= floor)
            continue;
        bool skipped = false;
        rq_lock(o, shared);
        const struct thread *t = top_for(o, i, &skipped);
        bool above = t && (int)t->prio > floor;
        rq_unlock(o, shared);
        if (above)
            return true;
    }
    return false;
}

// The same over i's own queue and every queue R2 names.
static inline bool waiting_above(unsigned i, int floor, const bool shared)
{
    return waiting_above_in(i, floor, shared, rq_overloaded() | 1u << i);
}

static void kick(unsigned i)
{
    struct cpu *c = &k_cpus[i];
    const struct thread *cur = current_of(i);
    ktrace_surrender(cur, i);       // D's sched:::surrender
    c->kicked = true;
    smp_kick(i);
}

// A choice's start on CPU self: the most urgent thread on another CPU's queue that self may
// run moves to self's queue (at its head: it was waiting) when it beats both self's own queue
// and `floor` (what self's running thread keeps the CPU at; -1 none). Each queue whose look
// promises one is taken in turn; a thread moved here and then beaten by another queue's stays
// on this one (it may run here, and others may pull it again). Returns the last thread moved
// (the one the choice then takes, at the head of the queue's top: choose checks it), *from
// the CPU whose queue it left; NULL when none moved.
static __attribute__((noinline)) struct thread *pull(struct cpu *c, int floor, const bool shared,
                                                     unsigned *from)
{
    struct thread *moved = NULL;
    const unsigned self = c->id;
    uint32_t over = rq_overloaded() & ~(1u << self);
    int local = peek_top(self);
    if (local > floor)
        floor = local;
    while (over) {
        unsigned o = (unsigned)__builtin_ctz(over);
        over &= over - 1u;
        if (o >= k_ncpus || peek_top(o) <= floor)
            continue;
        if (shared)
            other_lock(c, o);
        bool skipped = false;
        struct thread *t = top_for(o, self, &skipped);
        struct thread *mine = top_for(self, self, &skipped);
        if (t && (int)t->prio > floor && (!mine || t->prio > mine->prio)) {
            dequeue(t);
            enqueue_on(self, t, true);
            floor = t->prio;
            moved = t;
            *from = o;
        }
        if (shared)
            other_unlock(c, o);
    }
    return moved;
}

// STEAL. A thread that a traced choice takes to run from another CPU's queue (pull moved it to
// this CPU's queue in the same choice): D's sched:::dequeue names the queue it was taken from,
// as Solaris's does for a thread an idle CPU steals (args[2], the cpuinfo_t of that queue's
// CPU), not this CPU's, where it stayed only for the choice. Its rq_cpu, which a RUNNING thread
// on no queue no longer needs (R1 holds it for READY threads; enqueue_on writes it again), is
// set to that CPU for the RUNNING event's dequeue (ktrace_ev.c runq_cpu), and the STEAL event
// records the move for dtrace -i, on this CPU before that RUNNING (ktrace_steal: only while
// SYSTEM is traced). Any other choice takes its thread from this CPU's own queue (top_ready),
// and its rq_cpu is this CPU. A thread pulled here and beaten in the same choice stays on this
// queue, a READY thread of it: its later dequeue names this CPU, or its next steal's source.
// Only on the traced path (D fires nowhere else), out of line: a steal is rare.
static __attribute__((noinline, cold)) void steal_taken(struct thread *t, unsigned from)
{
    thread_set_rq_cpu(t, from);
    ktrace_steal(t, from);
}

// A choice's end on CPU c (after its store of current, its queue's lock let go): R3's and R4's
// second halves. A full barrier, then: the thread it switched away from, if made ready
// meanwhile (another CPU may have skipped it), has every CPU looked at (sched_kick_others);
// and a waiting thread that beats what c now runs (queued while c chose) interrupts c itself.
// Only another CPU's queue can have gained one unseen (R4's race: its waker may have read c's
// current before the store), and c's own queue only when the choice skipped a thread there
// (`skipped`, R3's mirror image). A thread queued on c's own queue otherwise was either there
// when c chose (c's choice held that queue's lock, or ran exclusive, from its look at the
// queue to its store of current), or queued after: its waker took the lock after c let it
// go (or entered after the exclusive side left), so it reads c's new current and interrupts c
// itself (sched_kick_others). So c's own queue is looked at only after a skip: a same-CPU
// round trip's choice loads R2's flags and nothing else (docs/smp.md, "Run queues").
static inline __attribute__((always_inline)) void settle(struct cpu *c,
                                                         const struct thread *prev,
                                                         const struct thread *next,
                                                         bool skipped, const bool shared)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (prev && prev != next && prev->state == THS_READY)
        kick_check_pending = true;
    if (!c->kicked &&
        (others_overloaded(c->id) || (skipped && peek_top(c->id) > (int)next->prio)) &&
        waiting_above(c->id, next->prio, shared)) {
        c->kicked = true;
        smp_kick(c->id);
    }
}

// TRACE ORDER (several CPUs). A thread's READY event is recorded before another CPU can take
// it from the queue it was put on, so that the capture, and D, see it made ready before it
// runs. A shared entry that queues it on another CPU's queue records it under that queue's
// lock (make_ready_placed, with `record`); on this CPU's own queue the lock is kept until this
// CPU's choice (own_lock), and an exclusive entry has no other CPU in the kernel, so there the
// caller records it after. (Recorded after the other queue's lock was let go, the other CPU
// could choose the thread first: its RUNNING came before its READY, or the waker, reading the
// state by then, recorded RUNNING on its own CPU, and a capture read back ran the thread there.
// dtrace -i's answers over a capture then differed from the live ones by one, in 1 CI run;
// test/qemu/thread_states_check.py holds captures to the order.) The queue lock ranks below
// D's and the ring's, which the event takes, as traced_choice_end's does.
// make_ready for a thread that may run on another CPU than this one (c): placed (R4). Returns
// whether t's state event was recorded (TRACE ORDER).
static __attribute__((noinline)) bool make_ready_placed(struct cpu *c, struct thread *t,
                                                       bool at_head, bool record)
{
    unsigned self = c->id;
    unsigned to = place(t, self);
    const bool shared = in_shared();
    bool recorded = false;
    if (shared && to == self)
        own_lock(c);
    else if (shared)
        other_lock(c, to);
    enqueue_on(to, t, at_head);
    if (shared && to != self) {
        if (record) {
            if (KTRACE_ON(KEV_C_PR_TH))
                ktrace_state_call(t);
            recorded = true;
        }
        other_unlock(c, to);
    }
    kick_check_pending = true;      // (to another CPU, or may run on another: the rule's check)
    return recorded;
}

// Makes t ready on the queue its placement gives (one CPU: the one queue). With `record`, it
// may record t's state event itself (TRACE ORDER): returns whether it did.
static inline __attribute__((always_inline)) bool make_ready(struct thread *t, bool at_head,
                                                             const bool record)
{
    if (!KSMP) {
        enqueue_on(0, t, at_head);
        return false;
    }
    struct cpu *c = this_cpu();
    unsigned self = c->id;
    if (__builtin_expect(t->affinity == 1u << self || k_ncpus == 1, 1)) {
        // Bound to this CPU (a same-CPU round trip), or the only one: its queue, its lock
        // (kept until this CPU's choice), no other CPU looked at.
        if (!c->rq_held && in_shared())
            own_lock(c);
        enqueue_on(self, t, at_head);
        return false;
    }
    return make_ready_placed(c, t, at_head, record);
}

void sched_make_ready(struct thread *t, bool at_head)
{
    if (!make_ready(t, at_head, true))
        ktrace_state(t);    // last, so that the hook's call is a tail call
}

void sched_make_ready_quiet(struct thread *t, bool at_head)
{
    make_ready(t, at_head, false);
}

void sched_make_ready_traced(struct thread *t, bool at_head)
{
    if (!make_ready(t, at_head, true))
        ktrace_state_call(t);
}

void sched_remove(struct thread *t)
{
    KASSERT(!in_shared(), "sched_remove in a shared entry");
    dequeue(t);
}

// Every CPU's queue lock, in CPU-id order (the rule for two extended to all: no cycle), one
// take of the rank for the check; this CPU's own, if held, is held again after (own_lock).
// Returns whether it was.
static bool all_lock(struct cpu *c)
{
    bool held = c->rq_held;
    if (held)
        kspin_raw_unlock(&runqs[c->id].lock);
    else
        klock_check_acquire(KLOCK_RANK_RUNQ);
    for (unsigned i = 0; i < KMAX_CPUS; i++)
        kspin_raw_lock(&runqs[i].lock);
    return held;
}

static void all_unlock(struct cpu *c, bool held)
{
    for (unsigned i = KMAX_CPUS; i-- > 0;)
        if (!held || i != c->id)
            kspin_raw_unlock(&runqs[i].lock);
    if (!held)
        klock_check_release(KLOCK_RANK_RUNQ);
}

// A priority written in a shared entry where another CPU may queue or take t at the same
// time: t READY on any CPU's queue, RUNNING on another CPU (whose choice may put it back on
// its queue), or blocked where another CPU may make it ready. Every queue that may hold t, or
// receive it, is locked meanwhile, so a queued thread's priority is always its list's. (A
// write after a look at the state without them could land on a thread another CPU had just
// queued at the old priority; its dequeue would then clear the bit of the new one, leaving a
// map bit over an empty list, whose head the next choice runs as a thread, or a thread on a
// list no bit names: a panic or a hang. smpstress's test 16, under the host's clock, drives
// this.) A READY
// t is requeued at p on the same CPU's queue; the entry's sched_kick_others then interrupts
// any CPU it should now run on (R4), whose choice pulls it. t's own CPU, with t RUNNING there,
// is the only one that moves it: its write needs no lock.
void sched_set_prio_shared(struct thread *t, uint8_t p)
{
    struct cpu *c = this_cpu();
    if (t == c->current && t->state == THS_RUNNING) {
        if (p < t->prio)
            kick_check_pending = true;
        t->prio = p;
        return;
    }
    bool held = all_lock(c);
    if (t->state == THS_READY && list_linked(&t->qlink)) {
        unsigned q = thread_rq_cpu(t);
        dequeue(t);
        t->prio = p;
        enqueue_on(q, t, false);
        kick_check_pending = true;
        ktrace_state(t);
    } else {
        if (p < t->prio && t->state == THS_RUNNING)
            kick_check_pending = true;
        t->prio = p;
    }
    all_unlock(c, held);
}

int sched_top_prio(void)
{
    if (KSMP) {
        int top = -1;
        smp_for_each_cpu(c) {
            int p = peek_top(c);
            if (p > top)
                top = p;
        }
        return top;
    }
    for (int w = 7; w >= 0; w--)
        if (RQ_MAP(0)[w])
            return w * 32 + 31 - __builtin_clz(RQ_MAP(0)[w]);
    return -1;
}

void sched_yield_current(void)
{
    this_cpu()->yield_pending = true;
}

// The first ready thread of the highest priority on this CPU's queues that it may run now,
// or NULL (several CPUs: its lock held in shared mode; *skipped as top_for).
static inline __attribute__((always_inline)) struct thread *top_ready(unsigned cpu, bool *skipped,
                                                                   const bool smp)
{
    if (KSMP && smp) {
        // The usual case first: the first thread of the top queue may run here now.
        int p = peek_top(cpu);
        if (p < 0)
            return NULL;
        struct thread *t = list_entry(RQ_Q(cpu)[p].next, struct thread, qlink);
        if (may_run_on(t, cpu) && !on_other_cpu(t, cpu))
            return t;
        return top_for(cpu, cpu, skipped);
    }
    for (int w = 7; w >= 0; w--) {
        uint32_t m = RQ_MAP(cpu)[w];
        if (m) {
            unsigned p = (unsigned)w * 32u + 31u - (unsigned)__builtin_clz(m);
            return list_entry(RQ_Q(cpu)[p].next, struct thread, qlink);
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

// The round-robin slice of this CPU's running thread, charged at this CPU's own timer
// interrupt (several CPUs: each CPU its own, at the kernel's tick or at its share of it, so
// that the CPU taking the tick touches no other CPU's thread or flags). A slice that ran out
// leaves this CPU's yield pending, which this entry's own choice honours: another ready
// thread of the same priority that may run here (on its queue, or pulled from another CPU's)
// takes its place, else it keeps running. The real-time rule (R4) is not the tick's: a more
// urgent thread made ready interrupts the CPU when it is queued. So the CPU that takes the
// kernel's tick touches no other CPU's thread, slice or flags, and sends no IPI for a slice
// (docs/smp.md, "The tick").
void sched_tick(unsigned periods)
{
    slice_used_up(this_cpu(), periods);
}

// The same on the shared side (its timer's interrupt, kernel/arch/<arch>/cpu.c), under this
// CPU's own queue lock, taken here and kept until the entry's choice (own_lock), as a shared
// call's first make_ready does. What it writes is this CPU's alone: its running thread's slice
// (only the CPU a thread runs on charges it; a thread moves to another CPU only through a
// choice, which this CPU makes only after this) and its yield flag (read by its own choice).
// No other CPU is looked at and none is interrupted: an interrupt for another CPU's slice
// (the old sched_tick's) is that CPU's own timer interrupt now, within one period.
// What a CPU in a shared entry may see meanwhile: nothing of this. Another CPU's choice reads
// this CPU's current and its priority (R3, R4: running_prio), never its slice or flags; a
// pull takes only READY threads from this CPU's queue, under this queue's lock.
// So the slices need no lock of their own; the queue's lock is held as every shared writer of
// this CPU's scheduling state holds it, and the choice that reads the flag holds it anyway.
void sched_tick_shared(unsigned periods)
{
    struct cpu *c = this_cpu();
    own_lock(c);
    slice_used_up(c, periods);
}

// The traced pass's end on several CPUs: the state events of the thread it put back on the
// ready queue (requeued, READY; NULL: none) and of the one it chose (RUNNING), then the CPU's
// current thread changes, after them (D's probes in them fire in the old thread's context,
// as when they were emitted in place). The pass's tail call: with nothing of the pass live
// across the events' calls, a pass whose thread keeps its CPU keeps no registers for them
// (7 instructions of a traced null call on AArch64; docs/PERFORMANCE.md).
static __attribute__((noinline, unused)) struct thread *
traced_choice_end(struct cpu *c, struct thread *requeued, struct thread *next)
{
    if (requeued)
        ktrace_state_inline(requeued);  // (ktrace_kcall.h; inline here, out of the pass)
    ktrace_state_inline(next);
    __atomic_store_n(&c->current, next, __ATOMIC_RELEASE);     // (R3: the switch away)
    return next;
}

// The choice of CPU c's next thread. Several CPUs online (`smp`): with `shared`, under c's
// queue lock (and a pull's second one), taken here; the exclusive side takes none. With one
// online (smp false: the one-CPU boards, and a multiprocessor before its others start) there is
// nothing to pull, skip or settle, and the choice is the one-CPU kernel's.
static inline __attribute__((always_inline)) struct thread *choose(const bool traced,
                                                                   const bool shared,
                                                                   const bool smp)
{
    struct cpu *c = this_cpu();
    struct thread *cur = c->current, *stolen = NULL;
    bool skipped = false;
    const unsigned self = KSMP ? c->id : 0;
    unsigned from = self;
    if (KSMP && shared)
        own_lock(c);
    if (KSMP && smp && __builtin_expect(others_overloaded(self), 0))
        stolen = pull(c, cur && cur->state == THS_RUNNING ?
                         (int)cur->prio - (c->yield_pending ? 1 : 0) : -1, shared, &from);
    struct thread *next = top_ready(self, &skipped, smp);
    int top = next ? (int)next->prio : -1;
    bool yield = c->yield_pending;
    struct thread *requeued = NULL;

    c->yield_pending = false;
    if (cur && cur->state == THS_RUNNING) {
        if (top < (int)cur->prio || (top == (int)cur->prio && !yield)) {
            if (KSMP && shared)
                own_unlock(c);
            if (KSMP && smp && skipped)
                settle(c, cur, cur, true, shared);
            return cur;     // (D's sched:::remain-cpu: ktrace.c, at the exit)
        }
        // Preempted threads keep their place at the head; yielding ones go to the back.
        enqueue_on(self, cur, !yield);
        if (traced && !KSMP)
            ktrace_state_traced(cur);   // inline (ktrace_kcall.h); several CPUs: at the end
        requeued = cur;
        next = top_ready(self, &skipped, smp);
    }
    KASSERT(next, "no runnable thread (idle missing)");
    dequeue(next);
    next->state = THS_RUNNING;
    next->cpu = (uint8_t)self;
    if (KSMP && traced && smp && __builtin_expect(next == stolen, 0))
        steal_taken(next, from);        // (STEAL: before its RUNNING, traced_choice_end's)
    if (traced && !KSMP)
        ktrace_state_traced(next);      // (the Cortex-M's shape: each event in place is the
    if (next != cur)                    // cheaper there, measured)
        c->context_switches++;
    if (!KSMP) {
        c->current = next;
        return next;
    }
    if (traced)     // (its result, next: a tail call with one CPU online, 5 instructions of a
                    // traced null call on AArch64 that kept next in a saved register)
        next = traced_choice_end(c, requeued, next);
    else
        __atomic_store_n(&c->current, next, __ATOMIC_RELEASE);     // (R3: the switch away)
    if (shared)
        own_unlock(c);
    if (smp)
        settle(c, cur, next, skipped, shared);
    return next;
}

// After an entry on this CPU: every other CPU running something less urgent than a ready
// thread it may take is interrupted, once (its `kicked` stays set until it enters the kernel).
// The full barrier first: the waker's half of R4 (this entry's enqueues, then the looks at
// the other CPUs' current threads).
void sched_kick_others(void)
{
    if (!kick_check_pending)
        return;
    kick_check_pending = false;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    const bool shared = in_shared();
    unsigned self = cpu_id();
    uint32_t over = rq_overloaded();
    smp_for_each_cpu(i) {
        struct cpu *c = &k_cpus[i];
        if (i == self || !c->online || c->kicked)
            continue;
        // Its own queue by its look alone (a kick for a thread it then finds still on another
        // CPU costs an IPI; its choice looks again under its lock, settle), others locked.
        int floor = running_prio(i);
        if (peek_top(i) > floor || ((over & ~(1u << i)) &&
                                    waiting_above_in(i, floor, shared, over & ~(1u << i))))
            kick(i);
    }
}

void sched_running_prio_lowered(void)
{
    kick_check_pending = true;
}

int sched_set_runmask(struct thread *t, uint32_t mask)
{
    // The kernel's CPUs (k_ncpus, SysInfo's KSYSINFO_NCPUS), online or still starting: the
    // others start on their own after the boot CPU runs the first program, and a program
    // that binds a thread at once (a tracelogger's -x cpu=1) found its CPU not online yet in
    // 1 run of 20 on the host's clock and failed. A thread bound to a CPU still starting
    // waits on that CPU's queue (place) for its first choice.
    uint32_t cpus = k_ncpus >= 32u ? ~0u : (1u << k_ncpus) - 1u;
    mask &= cpus;
    if (!mask)
        return -EINVAL;
    t->affinity = mask == cpus ? 0 : mask;
    if (!may_run_on(t, cpu_id())) {
        thread_set_result(t, 0);
        sched_make_ready(t, false);     // the exit's choice takes another; its CPU is kicked
    }
    return 0;
}

void sched_bind_fixed(struct thread *t, uint32_t mask)
{
    t->affinity = mask;
    t->affinity_fixed = true;
    if (t->state == THS_RUNNING && !may_run_on(t, cpu_id()))
        sched_make_ready(t, false);     // the exit's choice takes another; its CPU is kicked
}

static __attribute__((noinline)) struct thread *choose_smp(const bool traced)
{
    return traced ? choose(KTRACE_HOOKS, false, true) : choose(false, false, true);
}

struct thread *sched_choose(void)
{
    if (KSMP && k_ncpus > 1)
        return choose_smp(false);
    return choose(false, false, false);
}

// Shared mode: this CPU's queue lock, unless held already, kept until its choice (own_lock).
// Another CPU's is taken where it is touched (make_ready, pull), never held
// across the entry; R3, not a lock, keeps a thread that blocked here from running elsewhere.
void sched_lock_shared(void)
{
    own_lock(this_cpu());
}

static inline __attribute__((always_inline)) struct thread *choose_shared(const bool traced)
{
    struct thread *next = choose(traced, true, true);
    sched_kick_others();
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

struct thread *sched_choose_traced(void)
{
    if (KSMP && k_ncpus > 1)
        return choose_smp(true);
    return choose(KTRACE_HOOKS, false, false);
}
