// SPDX-License-Identifier: MIT
// The traced entry path's inline events: a kernel call's entry and exit (kcall_dispatch_traced,
// kernel_entry_traced), the scheduler's and the message calls' (sched.c, ipc.c), so that the
// common case costs no call or frame of its own. The words of ktrace_hot (ktrace.h) say which
// classes take the inline path (the ring records them with no filter and no D program runs:
// `fast` in fast mode, `plain` in either mode for events that are always simple): one test
// replaces the separate ring, D, wide-mode and filter tests. The entry event reuses the number
// and arguments the dispatcher read from the saved frame; the exit's bookkeeping is one
// compare (cpu.h trace_ran) that sends the rare cases aside: a switch's end (its ONCPU event
// inline, or ktrace_switched, ktrace.c) and D's side (ktrace_switched too).
#ifndef KERNEL_KTRACE_KCALL_H
#define KERNEL_KTRACE_KCALL_H

#include <kernel/kview.h>
#include <kernel/smp.h>
#include <kernel/ktrace.h>
#include <kernel/kuring.h>
#include <kernel/kev_emit.h>
#include <kernel/ktrace_tick.h>
#include <uapi/kcall.h>
#include <arch_kcall.h>

// The general paths: D's probes, wide mode, filtered classes (ktrace.c).
void ktrace_kcall_entry_full(struct thread *t, uint32_t n, const uint32_t *a);
void ktrace_kcall_entry_frame(struct thread *t, uint32_t n);
void ktrace_kcall_exit_full(struct thread *t, unsigned n);
// A traced exit into another thread than this CPU's last (cpu.h trace_ran), whose ONCPU the
// inline path does not write, or any traced exit while D runs: returns true when it ended the
// exit itself (D's side, after the call's exit event).
bool ktrace_switched(struct thread *next);

// The call's entry event: number n, arguments a[0..5] as the dispatcher read them. On
// several CPUs (AArch64) only the fast case is inline: the wide event (every argument) and the
// general path read the six arguments from the saved frame themselves
// (ktrace_kcall_entry_frame), so that the traced dispatcher keeps its arguments in registers
// instead of an array on its stack (8 instructions of a traced null call). On one CPU (the
// Cortex-M, whose dispatcher has fewer registers to keep them in) the shape is the one
// measured best there: the wide event inline, the array passed.
static inline void ktrace_kcall_entry(struct thread *t, uint32_t n, const uint32_t *a)
{
    if (__builtin_expect(n < ktrace_hot.kc_limit, 1)) {   // fast, and a known number
        trace_emit_simple_fast(&ktrace, KEV_C_KER_CALL, KEV_KC_ENTRY(n), a[0], a[1]);
        t->kc_trace = (uint16_t)(n + 1u);
        return;
    }
    if (KSMP) {
        ktrace_kcall_entry_frame(t, n);
        return;
    }
    if (n < KEV_KC_MAX && ((ktrace_hot.plain >> KEV_C_KER_CALL) & 1u) &&
        trace_is_wide(&ktrace, KEV_C_KER_CALL, KEV_KC_ENTRY(n))) {   // wide: every argument
        trace_emit_words(&ktrace, KEV_C_KER_CALL, KEV_KC_ENTRY(n), a, 6);
        t->kc_trace = (uint16_t)(n + 1u);
        return;
    }
    ktrace_kcall_entry_full(t, n, a);
}

// A traced exit's kernel-call exit event (t->kc_trace, set at the entry): inline while
// KER_CALL is on the inline path, else the general hook (D's probe, filters).
static inline void ktrace_exit_call(struct thread *next)
{
    unsigned kc = next->kc_trace;
    if (kc) {
        next->kc_trace = 0;
        if (__builtin_expect((ktrace_hot.plain >> KEV_C_KER_CALL) & 1u, 1)) {
            uint32_t r0 = arch_kc_result(&next->ctx, 0), r1 = arch_kc_result(&next->ctx, 1);
            ktrace_kcall_exit_words(kc, &r0, &r1);
            trace_emit_simple_fast(&ktrace, KEV_C_KER_CALL, KEV_KC_EXIT(kc - 1u), r0, r1);
        } else {
            ktrace_kcall_exit_full(next, kc - 1u);
        }
    }
}

// The end of a traced kernel entry, before choosing the next thread: the notifications of
// buffers that filled, delivered (rare; kernel/ktrace.h).
static inline void ktrace_exit_begin(ktrace_raise_fn raise)
{
    if (__builtin_expect(ktrace_hot.notes != 0, 0))
        ktrace_exit_notify(raise);
}

// The end of a traced kernel entry, once the next thread is chosen. When it is another thread
// than this CPU's last exit returned to (the switch ends here, the last portable step before
// the arch restores next's registers): the ring learns its current thread (its PID/TID
// filters) and the ONCPU event is written, inline while SYSTEM is on the inline path (no D, no
// filter, fast mode), else by ktrace_switched, which D's every exit reaches too (the bit in
// trace_ran) and which then ends the exit itself. A traced tick's exit into the thread it
// interrupted (KTRACE_RAN_TICK, ktrace_tick_mark) writes REMAIN_CPU the same two ways. Then
// the kernel call's exit event. The one compare is all an exit into the same thread pays. Classes that change outside the commands
// (the ring stopping itself) are synced where they change (ktrace_port_stopped).
static inline void ktrace_exit_end(struct thread *next)
{
    struct cpu *cpu = this_cpu();
    if (__builtin_expect((uintptr_t)next != cpu->trace_ran, 0)) {
        if (__builtin_expect(ktrace_fast_on(KEV_C_SYSTEM), 1)) {
            if (!ktrace_tick_kept(cpu, next)) {
                cpu->trace_ran = (uintptr_t)next;
                trace_ring_set_current(&ktrace, ktrace_pid(next), ktrace_tid(next));
                trace_emit_simple_fast(&ktrace, KEV_C_SYSTEM, KEV_SYS_ONCPU, ktrace_who(next),
                                       cpu_id());
            }
        } else if (ktrace_switched(next)) {
            return;
        }
    }
    ktrace_exit_call(next);
}

// A thread's state change on a traced path (the scheduler's traced pass, ipc.c's traced
// copies): inline when the class is on the inline path, else the general hook (D's probes,
// wide mode, filters).
static inline void ktrace_state_inline(struct thread *t)
{
    if (ktrace_fast_on(KEV_C_PR_TH)) {  // (traced_state is D's: kept on the general path)
        trace_emit_simple_fast(&ktrace, KEV_C_PR_TH, t->state, ktrace_pid(t), ktrace_tid(t));
        return;
    }
    ktrace_state(t);
}

// The same out of line (ktrace.c).
void ktrace_state_call(struct thread *t);

// What the traced paths call (ipc.c's traced copies, the Cortex-M's scheduler pass; on several
// CPUs the scheduler's pass emits its two at its end, sched.c traced_choice_end). On several
// CPUs (AArch64) it is a call: inline, its slow path made the traced pass around it keep more
// registers, saved and restored whether a thread changed state or not, where the call costs
// about 5 a state change. With one CPU (the Cortex-M) the inline copy is the cheaper
// (docs/PERFORMANCE.md, the traced paths' added instructions).
static inline void ktrace_state_traced(struct thread *t)
{
    if (KSMP)
        ktrace_state_call(t);
    else
        ktrace_state_inline(t);
}

// t's effective priority is about to become prio (PRIO_CHANGE, kernel/ktrace_sync.c), once
// the caller saw KTRACE_ON(KEV_C_SYSTEM): inline when SYSTEM is on the inline path (it is in
// the default capture, and a server takes its client's priority twice a message), else the
// general hook (D's change-pri, wide mode, filters).
static inline void ktrace_prio_traced(const struct thread *t, unsigned prio, unsigned cause)
{
    if (ktrace_fast_on(KEV_C_SYSTEM)) {
        if (cause >= KEV_PRIO_NCAUSES)  // (every caller's is a KEV_PRIO_*: the field's mask folds)
            __builtin_unreachable();
        kev_emit_prio_change(KEV_INLINE, ktrace_who(t), prio, t->prio, cause);
        return;
    }
    ktrace_prio_ev(t, prio, cause);
}

// The message events on a traced path (ipc.c's traced copies), each through its own helper
// (kev_emit.h): inline when COMM records simple events on the inline path (either mode), else
// the general path, which fires D's msg probe from the client (kernel/ktrace_ev.c).
static inline bool ktrace_comm_inline(void)
{
    return __builtin_expect((ktrace_hot.plain >> KEV_C_COMM) & 1u, 1);
}

static inline void ktrace_rec_message_traced(uint32_t rcvid, uint32_t who,
                                             const struct thread *client)
{
    if (ktrace_comm_inline())
        kev_emit_rec_message(KEV_INLINE, rcvid, who, 0, 0);
    else if (KTRACE_ON(KEV_C_COMM))
        ktrace_rec_message_ev(rcvid, who, client);
}

static inline void ktrace_reply_message_traced(uint32_t rcvid, uint32_t status,
                                               const struct thread *client)
{
    if (ktrace_comm_inline())
        kev_emit_reply_message(KEV_INLINE, rcvid, status, 0);
    else if (KTRACE_ON(KEV_C_COMM))
        ktrace_reply_message_ev(rcvid, status, client);
}

static inline void ktrace_msg_error_traced(uint32_t rcvid, uint32_t err,
                                           const struct thread *client)
{
    if (ktrace_comm_inline())
        kev_emit_msg_error(KEV_INLINE, rcvid, err, 0, 0);
    else if (KTRACE_ON(KEV_C_COMM))
        ktrace_msg_error_ev(rcvid, err, client);
}

// ---- a traced entry's user events -----------------------------------------------------------
// The records of the entering thread's user-event rings (kernel/kuring.c) go into the trace
// before the entry's own events: the core's entry calls kuring_drain_thread (kernel/main.c)
// or, with several CPUs, the arch's entry kuring_drain_unlocked before the kernel lock.

// One load and a branch for a ring not registered or empty (read unlocked: the drain checks
// again under the ring's lock).
static inline void kuring_drain_ring_if(struct proc *p, struct kuring *k)
{
    if (__builtin_expect(k->addr != 0, 0) &&
        ((const volatile struct kuser_ring *)(uintptr_t)k->addr)->head != k->tail)
        kuring_drain_ring(p, k);
}

// p's shared ring (p may be NULL: a kernel thread).
static inline void kuring_drain_current(struct proc *p)
{
    if (p)
        kuring_drain_ring_if(p, &p->ur);
}

// The traced entry's drain for thread t: its own ring when it has one (several CPUs: a thread
// with a ring of its own writes no other), else its process's, which the threads without one
// share. So a thread's entry reads no line another CPU's writer writes.
static inline void kuring_drain_thread(struct thread *t)
{
    struct kuring *own = thread_ring(t);
    if (KSMP && own->addr) {
        kuring_drain_ring_if(t->proc, own);
        return;
    }
    kuring_drain_current(t->proc);
}

// The traced entry's drain before it takes the kernel lock (SMP): t, this CPU's running
// thread, has its rings drained into this CPU's buffer without that lock (each ring has a lock
// of its own, kuring.c): its process's memory is the one mapped, and a teardown on another
// CPU waits for the ring's lock, then finds the ring gone. With t being destroyed, it waits for
// the lock: the drain after it (kernel_entry_body) does it. With a D program running the
// drain fires user:::event (under the D lock, kdtrace.c), so it runs inside the big-reader
// lock's shared side: the D program's block is freed by an exclusive entry (KDT_UNLOAD), which
// waits for every CPU in the shared side; outside it the drain could fire into freed memory.
static inline void kuring_drain_unlocked(struct thread *t)
{
    if (__builtin_expect(!kdt_on(KEV_C_USER), 1)) {
        if (!t->dying)
            kuring_drain_thread(t);
        return;
    }
    kuring_drain_in_shared(t);
}

#endif
