// SPDX-License-Identifier: MIT
// Threads. A thread belongs to one process (or to the kernel: the idle thread) and is always in
// exactly one place: running (k_current), on a ready queue, or blocked in one wait queue.
// Locking: the kernel is entered only through exceptions of one priority, so kernel code never
// runs concurrently with itself; no locks are needed on a single CPU.
#ifndef KERNEL_THREAD_H
#define KERNEL_THREAD_H

#include <kernel/kernel.h>
#include <kernel/list.h>
#include <kernel/ktimer.h>
#include <arch_context.h>
#include <uapi/kstate.h>
#include <kernel/ktrace.h>
#include <kernel/cpu.h>
#include <kernel/klock.h>

struct proc;
struct channel;
struct kmutex;

struct thread {
    struct arch_context ctx;    // first member: the exception entry code saves into it
    uint16_t index;             // slot in the thread pool
    uint16_t gen;               // bumped each time the slot is reused (rcvids carry it)
    uint16_t tid;               // 1-based within the process
    uint8_t  state;             // enum thread_state; THS_DEAD = free slot or zombie
    uint8_t  policy;            // enum sched_policy
    uint8_t  prio;              // effective priority (what the scheduler uses)
    uint8_t  base_prio;         // set by the thread itself
    uint8_t  ipc_prio;          // priority inherited from a message or pulse; 0 = none
    uint8_t  slice;             // round-robin ticks left
    bool     in_use;
    bool     detached;
    // The words naming it in trace events: its tid (the kernel's threads are numbered by slot
    // from 1) and its process's pid (0 for the kernel's threads). Set with the tid.
    uint16_t trace_tid;
    struct proc *proc;          // NULL for kernel threads
    struct list qlink;          // ready queue or the wait queue of what it is blocked on
    struct list *waitq;         // the wait queue it is on, if blocked on one
    struct list plink;          // link in proc->threads
    struct ktimer timeout;      // sleep and kernel-call timeouts
    uint64_t timeout_ns;        // armed by TimerTimeout for the next blocking call; 0 = none
    uint64_t wake_cycles;       // the timeout may not end before the cycle counter is here

    // Message passing.
    struct channel *chan;       // SEND/RECEIVE: channel; REPLY: channel the message went to
    uint32_t msg_buf, msg_len;  // SEND: message; RECEIVE: receive buffer
    uint32_t reply_buf, reply_len;
    uint32_t info_buf;          // RECEIVE: where to write struct kmsg_info
    int32_t  coid;              // SEND/REPLY: connection used
    struct thread *server;      // REPLY: the thread that received the message

    // Synchronisation.
    struct kmutex *wait_mutex;  // MUTEX: what it waits for (priority inheritance follows it)
    struct list held_mutexes;   // mutexes this thread owns
    int32_t join_tid;           // JOIN: which thread, or with wait_child which pid (-1 any)
    int32_t wake_ret;           // result to deliver once a condvar waiter owns its mutex
    int32_t exit_status;
    uint16_t kc_trace;          // traced kernel call in progress: event id + 1 (0: none)
    uint8_t  traced_state;      // the state the tracer last saw (D's wakeup probe says it)
    uint8_t  dt_unstarted;      // created while D ran, not yet run (proc:::lwp-start)
    uint32_t trace_who;         // trace_pid << 16 | trace_tid, one word (thread_set_trace_ids)
    // D's vtimestamp: cycles on the CPU while a D program runs (kernel/kdt_fire.c); vt_since
    // is when it last went on the CPU, 0 while it is off or not yet seen. Under vt_lock on
    // several CPUs (the CPU it leaves and the one it goes on may both write them).
    uint64_t vt_cycles, vt_since;
    struct kspin vt_lock;
    // Multiprocessor (kernel/cpu.h): the CPU it runs or last ran on, the CPUs it may run on
    // (bit per CPU; 0 = any), and a destruction asked for by another CPU while it ran here.
    uint8_t  cpu;
    bool     dying;
    bool     affinity_fixed;    // bound by the arch to a CPU's device (ThreadCtl may not move it)
    bool wait_child;            // JOIN in ProcWait (waitpid): QNX has no state of its own for
                                // it, so it is JOIN, the wait for a termination (kev-format.md);
                                // here it fills a hole: trace_who takes no room (netduinoplus2)
    uint32_t affinity;
    // The KSTACK_GUARD bytes at the bottom of its stack that it may not touch while it runs
    // (arch_stack_guard; kernel/kcall.c), 0 for none: the main thread's stack lies at the
    // bottom of the process's RAM slot, and what lies below it is no memory of the process's.
    uint32_t stack_guard;
    // Its stack, [stack_base, stack_top): the one ThreadCreate was given (its guard in it, when
    // it has one), the main thread's at the bottom of its RAM slot; 0, 0 for a kernel thread.
    // Read to say a fault below it is the stack's overflow (kernel/kfault_stack.c).
    uint32_t stack_base, stack_top;
    int32_t  dying_status;
    char name[KNAME_MAX];
    uint32_t trace_pid;         // trace_tid's process (above); here it fills the tail padding
#if KMAX_CPUS > 1
    struct kuring ur;           // its own user-event ring (kernel/kuring.c): several CPUs only
    uint8_t rq_cpu;             // READY: the CPU whose ready queue holds it (sched.c)
#endif
} KCPU_LINE_ALIGNED;    // (its registers are saved at every entry: threads on two CPUs share no line)

extern struct thread k_threads[KMAX_THREADS];

// Every change of a thread's state goes through here, so that the trace sees all of them.
static inline void thread_set_state(struct thread *t, uint8_t state)
{
    t->state = state;
    ktrace_state(t);
}

struct thread *thread_alloc(struct proc *p);
struct thread *thread_by_tid(struct proc *p, int tid);
void thread_set_name(struct thread *t, const char *name);

// Blocking. thread_block() takes the current thread off the CPU in state `state`, on wait queue
// `q` (NULL: none) ordered by priority. It arms the thread's pending TimerTimeout, if any.
void thread_block(struct thread *t, uint8_t state, struct list *q);
// Makes a blocked thread ready with kernel-call result `ret`; removes it from its wait queue
// and stops its timeout.
void thread_unblock(struct thread *t, int32_t ret);
// The same without the state's trace hook: for the message calls' copies (ipc.c), where the
// untraced entry's has no trace code and the traced entry's records the event itself.
void thread_block_quiet(struct thread *t, uint8_t state, struct list *q);
void thread_unblock_quiet(struct thread *t, int32_t ret);
// thread_unblock for the traced copies: sched_make_ready_traced's (sched.h).
void thread_unblock_traced(struct thread *t, int32_t ret);
// Kills a thread wherever it is (process exit or fault): undoes what its state holds.
void thread_destroy(struct thread *t, int32_t status);
// Returns a zombie (or dead) thread's slot to the pool.
void thread_free(struct thread *t);

// The words naming t in trace events and D (trace_pid, trace_tid, and the two as one `who`,
// docs/trace-events.md), set once here so that each event loads them instead of building them.
static inline void thread_set_trace_ids(struct thread *t, uint32_t pid, uint16_t tid)
{
    t->trace_pid = pid;
    t->trace_tid = tid;
    t->trace_who = pid << 16 | tid;
}

// Sets the result registers of a thread's pending kernel call.
void thread_set_result(struct thread *t, int32_t ret);
void thread_set_result64(struct thread *t, uint64_t ret);

// Priority: recompute the effective priority from base, inherited IPC priority and the
// waiters of held mutexes, and propagate along a chain of mutex owners. t is the caller's own
// (several CPUs): this CPU's running thread, or a server the message path took off its
// channel, which no other CPU makes ready meanwhile (the owners down the chain need not be).
void thread_update_prio(struct thread *t);
// The same after the message path set or cleared t's ipc_prio (ipc.c): the trace's cause is
// the message's priority where that is what t takes.
void thread_update_prio_msg(struct thread *t);
// The same without the PRIO_CHANGE hook: for the message calls' untraced copies (ipc.c).
void thread_update_prio_quiet(struct thread *t);
// Several CPUs: the priority lock (KLOCK_RANK_PRIO, kernel/klock.h; what it guards: thread.c).
// thread_update_prio and its quiet twin take it themselves when t holds a mutex; the _locked
// one is for a caller that holds it, or runs exclusive (sync.c).
void prio_lock(void);
void prio_unlock(void);
void thread_update_prio_locked(struct thread *t);
// Shared side, under the priority lock: a thread of priority p has just queued for a mutex
// that t owns. _ok answers whether the raise of the chain of owners from t can be made here
// (no thread of it on a queue other than a mutex's); thread_raise_prio_shared makes it, the
// run-queue lock held too (sched_lock_shared: a READY owner moves to its new queue).
bool thread_raise_prio_shared_ok(const struct thread *t, uint8_t p);
void thread_raise_prio_shared(struct thread *t, uint8_t p);
// ThreadSetPrio / SchedSet: t's own priority becomes prio (the trace's PRIO_CHANGE says "call").
void thread_set_base_prio(struct thread *t, uint8_t prio);
// Arms t's timeout for at least ns nanoseconds, by the tick and by the cycle counter.
void thread_arm_timeout(struct thread *t, uint64_t ns);
void waitq_insert(struct list *q, struct thread *t);

#endif
