// SPDX-License-Identifier: MIT
// The message fast path: MsgSend, MsgReceive, MsgReply and MsgError run in the big-reader
// lock's shared mode (kernel/klock.h), so that CPUs passing messages on different channels do
// not wait for one another. Everything else, and anything unusual these calls find, runs
// exclusive: a call that returns KSHARED_RETRY changed nothing, and the entry runs again under
// the exclusive lock (kernel/arch/<arch>/cpu.c, which inlines it: it is the fast path's whole
// entry). Only with
// more than one CPU (KMAX_CPUS > 1). The SYNC_* calls take the same entry (sync.c, "The
// shared side", priority inheritance included), and TimerTimeout: a timeout is armed and
// cancelled under the timer list's own lock (ktimer.c), and the calls that touch only their
// caller, the clock and the timer list (shared_local_call: ClockTime, ClockCycles, ThreadSelf,
// ProcSelf, ThreadSleep, ThreadYield, the null call), the console's calls (DebugWrite,
// semihosting's WRITEC and WRITE0: kconsole.c's own lock) and TraceEvent's user-event inserts
// (shared_trace_insert). So do a reschedule IPI and a CPU's timer
// interrupt, whose work is the choice (kentry_choose_shared_*, below), its own slice and, for
// the CPU that takes a period with no kernel timer due, the tick count (ktimer.c): a wake-up
// across CPUs, or a period's tick, then stops no other CPU. So do
// InterruptMask and InterruptUnmask (the line's lock), and an interrupt on a line a process
// attached as an event (kernel/irq.c: the line masked under its lock, the pulse queued under
// the channel's), between the same two halves.
//
// What a shared entry touches, and under what: its own thread and CPU (no lock: nobody else
// writes them while it runs); the connection and channel tables, processes' memory maps and
// thread slots (read only: they change on the exclusive side alone); a channel's queues and
// its threads' IPC state (the channel's lock); a mutex's, semaphore's or condvar's state and
// its waiters' (the object's lock, sync.c); the ready queues (a run-queue lock per CPU: this
// CPU's kept from the first thread made ready here (sync.c: or blocked) until its choice, and
// taken by the choice itself when the entry made none ready (a MsgReceive that blocks: a thread
// that blocked stays this CPU's until its choice, sched.c R3), another CPU's only
// where its queue is touched: sched.c, sched_choose_shared).
// MsgSendPulse too, and a MsgReceive that finds a pulse: the pulse pool under its own lock,
// between the channel's and the run queue's (ipc.c). An interrupt line's mask and counts: the
// line's lock (irq.c), held alone.
#include <kernel/kernel.h>
#include <kernel/klock.h>
#include <kernel/thread.h>
#include <kernel/sched.h>
#include <kernel/ipc.h>
#include <kernel/kcall.h>
#include <kernel/arch.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/sync.h>
#include <kernel/irq.h>
#include <kernel/shost.h>
#include <arch_kcall.h>
#include <uapi/kcall.h>

#ifndef KERNEL_KENTRY_SHARED_H
#define KERNEL_KENTRY_SHARED_H
#if KMAX_CPUS > 1
// The end of a traced entry (ktrace_exit_begin, kernel/ktrace.h) on the shared side, which cannot
// raise the synthetic interrupt: that sends a pulse and wakes the logger, work of the exclusive
// side (the channel's queue and the ready queues, unlocked there). This CPU's notifications
// stay queued, and a reschedule IPI to itself brings the exclusive entry that delivers them
// as soon as the shared one returns (the IPI's entry goes exclusive while they wait).
static inline bool ktrace_notes_mine(void)
{
    return __builtin_expect((ktrace_hot.notes >> cpu_id()) & 1u, 0);
}
static inline void ktrace_exit_begin_shared(void)
{
    if (ktrace_notes_mine())
        ktrace_notes_defer();
}

// The end of every shared entry: this CPU's choice under the run-queue lock, and out of the
// shared side.
static inline __attribute__((always_inline)) void shared_exit(struct thread *t, const bool traced)
{
    if (traced)
        ktrace_exit_begin_shared();     // (notifications: the exclusive side's, ktrace.h)
    struct thread *next = traced ? sched_choose_shared_traced() : sched_choose_shared();
    if (traced)
        ktrace_exit_end(next);
    if (next != t) {
        if (next->proc != t->proc)
            arch_mpu_switch(next->proc);
        else
            arch_stack_guard(next);     // another thread of the process: its stack's guard
    }
    arch_kernel_exit_shared();
}

// Into the shared side for thread t's entry: false, out again and having changed nothing, when
// the entry is to run exclusive. Checked inside: only the exclusive side sets them, and it
// cannot run now. An untraced entry goes exclusive while tracing or a D program runs
// (ktrace_kernel_on: it came through the untraced entry before the switch); a traced one runs
// shared with a D program too: D's probes take no lock of their own (kdt_fire.c, LOCKING),
// so a running D program does not keep the other CPUs out of the kernel.
static inline __attribute__((always_inline)) bool shared_enter(const struct thread *t,
                                                               const bool traced)
{
    if (unlikely(!arch_kernel_enter_shared()))
        return false;                   // a writer is in or queued: queue behind it
    if (unlikely(t->dying || (!traced && ktrace_kernel_on))) {
        arch_kernel_exit_shared();
        return false;
    }
    return true;
}

// The calls the fast path takes.
static inline bool shared_call(uint32_t n)
{
    return n == KC_MsgSend || n == KC_MsgReceive || n == KC_MsgReply || n == KC_MsgError ||
           n == KC_MsgSendPulse || n == KC_TimerTimeout || n == KC_InterruptUnmask ||
           n == KC_InterruptMask;
}

// The calls that touch only their caller, the clock, and (a sleep) the timer list under its
// own lock: its own thread's and process's numbers, the generic timer's counter, a sleep (its
// timer armed, the thread blocked: kcall_sleep), a yield (its CPU's yield flag, which the
// exit's choice reads under this CPU's run-queue lock). Nothing else another CPU writes, so
// they run shared: a program's clock_gettime, sleep or sched_yield on one CPU does not stop
// the others, which a kernel-wide exclusion for each call would (docs/smp.md, "What runs
// shared").
static inline bool shared_local_call(uint32_t n)
{
    return n == KC_ClockTime || n == KC_ClockCycles || n == KC_ThreadSelf ||
           n == KC_ProcSelf || n == KC_ThreadSleep || n == KC_ThreadYield || n == KC_Null;
}

// The console's calls: DebugWrite, and semihosting's console writes (SYS_WRITEC, SYS_WRITE0:
// picolibc's printf makes one a character). They touch the caller's memory and the console,
// which has a lock of its own (kernel/kconsole.c). Shared, so that a printing program's
// characters (one call each) do not keep the other CPUs out of the kernel (docs/smp.md,
// "What runs shared").
static inline bool shared_console_call(const struct thread *t, uint32_t n)
{
    return n == KC_DebugWrite || (n == KC_Semihost && shost_console_op(arch_kc_arg(&t->ctx, 0)));
}

// TraceEvent's inserts of a user event (QNX's API for them, each one call): the caller's
// rings, this CPU's trace buffer and D's firing, each under its own lock or none
// (ktrace.c ktrace_insert_user), so no kernel-wide exclusion is needed.
static inline bool shared_trace_insert(const struct thread *t, uint32_t n)
{
    if (n != KC_TraceEvent)
        return false;
    uint32_t cmd = arch_kc_arg(&t->ctx, 0);
    return cmd == KTRACE_INSERTSUSEREVENT || cmd == KTRACE_INSERTCUSEREVENT ||
           cmd == KTRACE_INSERTUSRSTREVENT;
}

// One of those, with its arguments a: its result; the clocks write their 64-bit result
// themselves (kcall.h); a sleep's comes when its timer wakes it (thread.c).
static inline int local_call_shared(struct thread *t, uint32_t n, const uint32_t a[6])
{
    switch (n) {
    case KC_DebugWrite:  return kcall_debug_write(t, a[0], a[1]);
    case KC_Semihost:    return shost_call(t->proc, a[0], a[1]);    // (a console write)
    case KC_TraceEvent:  return ktrace_insert_user(t, a[0], a[1], a[2], a[3]);    // (an insert)
    case KC_ClockCycles: kcall_clock(t, false); return 0;
    case KC_ClockTime:   kcall_clock(t, true); return 0;
    case KC_ThreadSelf:  return t->tid;
    case KC_ProcSelf:    return t->proc->pid;
    case KC_ThreadSleep: return kcall_sleep(t, kcall_ns_arg(a[0], a[1]));
    case KC_ThreadYield: sched_yield_current(); arch_spin_hint(); return 0;
    default:             return 0;      // KC_Null
    }
}

// Which calls a shared entry's body runs (a constant in each copy, so that the message path's
// code is what it was before the others came: kernel_entry_shared below).
enum shared_form { SHARED_MSG, SHARED_SYNC, SHARED_LOCAL };

// A full user-event ring's drain, TraceEvent(KTRACE_USERDRAIN) (user/lib/trace_uring.c): the
// entry has drained the caller's ring before any lock (the arch's entry,
// kuring_drain_unlocked); nothing else is left to do, so two flooding threads on two CPUs
// take no exclusive entry for it (docs/smp.md, "User events").
static inline bool shared_user_drain(const struct thread *t, uint32_t n)
{
    return n == KC_TraceEvent && arch_kc_arg(&t->ctx, 0) == KTRACE_USERDRAIN;
}

// The shared entry around call n's body: a message call, a SYNC_* call or a local one (form).
static inline __attribute__((always_inline)) bool entry_shared_body(struct thread *t,
                                                                   uint32_t n,
                                                                   const bool traced,
                                                                   const enum shared_form form)
{
    if (!shared_enter(t, traced))
        return false;
    this_cpu()->kicked = false;
    // (The thread's user-event ring, its own or its process's, was drained before the lock:
    // the arch's entry, kuring_drain_unlocked (with a D program, inside the shared side, for
    // user:::event), which waits only while t is dying, which sends the entry exclusive.
    // The process's ring is not drained here again: a thread with a ring of its own would
    // then drain another thread's, on another CPU, and the two writers' lines would bounce.)
    const uint32_t a[6] = { arch_kc_arg(&t->ctx, 0), arch_kc_arg(&t->ctx, 1),
                            arch_kc_arg(&t->ctx, 2), arch_kc_arg(&t->ctx, 3),
                            arch_kc_arg(&t->ctx, 4), arch_kc_arg(&t->ctx, 5) };
    if (traced)
        ktrace_kcall_entry(t, n, a);    // (the exclusive re-run does not record it again)
    int r;
    if (form == SHARED_SYNC)
        r = sync_call_shared(t, n, (int)a[0], a[1]);    // (the trace's hooks need no lock either)
    else if (form == SHARED_LOCAL)
        r = local_call_shared(t, n, a);
    else if (n == KC_MsgSend)
        r = ipc_send_shared(t, (int)a[0], a[1], a[2], a[3], a[4], traced);
    else if (n == KC_MsgReceive)
        r = ipc_receive_shared(t, (int)a[0], a[1], a[2], a[3], traced);
    else if (n == KC_MsgReply)
        r = ipc_reply_shared(t, (int)a[0], (int32_t)a[1], a[2], a[3], traced);
    else if (n == KC_MsgError)
        r = ipc_error_shared(t, (int)a[0], (int32_t)a[1], traced);
    else if (n == KC_TimerTimeout)      // (a timeout is armed by the call it bounds: thread.c)
        r = kcall_timer_timeout(t, kcall_ns_arg(a[0], a[1]));
    else if (n == KC_InterruptUnmask || n == KC_InterruptMask)    // (irq.c: the line's lock)
        r = irq_mask_shared(t->proc, a[0], (int)a[1], n == KC_InterruptMask);
    else if (n == KC_TraceEvent)
        r = 0;                          // KTRACE_USERDRAIN: drained at the entry, before the lock
    else    // KC_MsgSendPulse (ipc.c: the pool's lock)
        r = ipc_send_pulse_shared(t->proc, (int)a[0], (int)a[1], (int32_t)a[2], (int32_t)a[3]);
    if (r == KSHARED_RETRY)
        goto retry;
    if (n != KC_TimerTimeout)
        t->timeout_ns = 0;              // TimerTimeout covers only the next kernel call
    this_cpu()->shared_kcalls++;
    if (t->state == THS_RUNNING && !(form == SHARED_LOCAL && kcall_result64(n)))
        thread_set_result(t, r);
    shared_exit(t, traced);
    return true;
retry:
    arch_kernel_exit_shared();
    return false;
}

// An interrupt whose only work is to choose again, as a shared call's exit does, under the
// run-queue lock: a reschedule IPI (another CPU made ready a thread that this one should run,
// or ended this one's slice), and, untraced, this CPU's timer interrupt (its share of a tick
// another CPU took, or the tick itself with no timer due: the arch's entry counts it and
// charges this CPU's slice between the two halves); and a device interrupt on a line attached
// as an event, whose pulse comes first (irq_dispatch_shared). The arch's entry takes it in two
// halves around its acknowledgement (kernel/arch/<arch>/cpu.c). The first answers false, having
// changed nothing, when the entry is to run exclusive: as a call's, and while this CPU has
// notifications to deliver.
static inline __attribute__((always_inline)) bool kentry_choose_shared_begin(struct thread *t,
                                                                             const bool traced)
{
    if (!shared_enter(t, traced))
        return false;
    if (traced && ktrace_notes_mine()) {
        arch_kernel_exit_shared();
        return false;
    }
    return true;
}

static inline __attribute__((always_inline)) void kentry_choose_shared_end(struct thread *t,
                                                                           const bool traced)
{
    this_cpu()->kicked = false;
    shared_exit(t, traced);
}

static inline __attribute__((always_inline)) bool kernel_entry_shared(struct thread *t,
                                                                      const bool traced)
{
    uint32_t n = arch_kc_number(&t->ctx);
    if (shared_call(n) || shared_user_drain(t, n))
        return entry_shared_body(t, n, traced, SHARED_MSG);
    if (sync_shared_call(n))
        return entry_shared_body(t, n, traced, SHARED_SYNC);
    if (shared_local_call(n) || shared_console_call(t, n) || shared_trace_insert(t, n))
        return entry_shared_body(t, n, traced, SHARED_LOCAL);
    return false;
}

#endif
#endif
