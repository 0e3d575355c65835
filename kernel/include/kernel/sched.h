// SPDX-License-Identifier: MIT
// The scheduler: 256 priorities, a FIFO ready queue per priority and a bitmap to find the
// highest non-empty one in a few instructions; several CPUs: one such set per CPU, the real-time
// rule kept across them (sched.c). The running thread is not on a ready queue.
// Policies: FIFO (runs until it blocks or a higher priority is ready) and round-robin (also
// yields to equal priorities when its timeslice of RR_TIMESLICE ticks runs out).
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <kernel/thread.h>

void sched_init(void);
// Puts a thread on its ready queue: at the tail, or at the head when it was preempted (a
// preempted thread keeps its place in line, as POSIX requires).
void sched_make_ready(struct thread *t, bool at_head);
// The same without the state's trace hook (thread_block_quiet's counterpart, thread.h).
void sched_make_ready_quiet(struct thread *t, bool at_head);
// The same for the message calls' traced copies (ipc.c), the event by their hook
// (ktrace_state_traced). Several CPUs only: a thread queued on another CPU's queue has its
// event recorded before that queue's lock is let go (sched.c, TRACE ORDER), which the quiet
// call followed by the hook could not do. (One CPU: the quiet call and the hook inline.)
void sched_make_ready_traced(struct thread *t, bool at_head);
// Takes a READY thread off its ready queue (one CPU, or the exclusive side: a shared entry
// changes a ready thread's priority with sched_set_prio_shared).
void sched_remove(struct thread *t);
// Highest priority that has a ready thread, or -1 when none.
int sched_top_prio(void);
// Chooses the thread to run when the kernel returns; called on every kernel exit.
// Returns the thread that will run (also stored in k_current). sched_choose_traced is the
// same for a traced kernel entry: the READY and RUNNING state events of a switch come from it.
struct thread *sched_choose(void);
struct thread *sched_choose_traced(void);
// Asks for the current thread to go to the back of its priority's queue on kernel exit.
void sched_yield_current(void);
// Round-robin accounting of this CPU's running thread at its own timer interrupt, with the
// periods the interrupt covers (one CPU: the tick's, arch_tick_periods; several: this CPU's
// timer's, arch_cpu_tick_periods, each CPU charging its own thread, at the kernel's tick or
// at its share of it). Exclusive side (or one CPU).
void sched_tick(unsigned periods);
// ThreadCtl(KTCTL_RUNMASK): binds the running thread `t` to the CPUs in `mask` (bit per CPU)
// that the kernel has (k_ncpus), online or still starting. 0, or -EINVAL when none of them
// is. When the thread's CPU is not one of them it goes back to the ready queue (its call's
// result set), for one of its CPUs to take.
int sched_set_runmask(struct thread *t, uint32_t mask);
// Several CPUs (the rest of this header; on one CPU never called, and dropped from the image):
// the running thread t uses a device of the CPUs in mask (kernel/arch.h arch_irq_cpu): bound
// to them for good (ThreadCtl may not move it), and back on the ready queue, for one of them
// to take, when it runs elsewhere. Its registers are left as they are.
void sched_bind_fixed(struct thread *t, uint32_t mask);
// After a kernel entry: interrupts each other CPU that should now run another thread.
void sched_kick_others(void);
// A running thread's priority went down (thread_update_prio): a ready thread may now be more
// urgent than it on its CPU, so the next sched_kick_others looks at every CPU.
void sched_running_prio_lowered(void);
// Shared mode: t's effective priority becomes p, t on no wait queue (thread.c prio_set), where
// another CPU may queue or take t meanwhile; a READY t is requeued at p.
void sched_set_prio_shared(struct thread *t, uint8_t p);
// Shared mode (kernel/klock.h): takes this CPU's ready-queue lock unless it holds it already;
// it is kept until the entry's choice (sched_choose_shared), which also kicks the other CPUs.
// (Other CPUs' queues are locked by the functions above where they touch them.)
void sched_lock_shared(void);
// sched_tick on the shared side: under this CPU's queue lock (sched_lock_shared's, kept until
// the entry's choice, which honours a slice that ran out).
void sched_tick_shared(unsigned periods);
struct thread *sched_choose_shared(void);
struct thread *sched_choose_shared_traced(void);

#endif
