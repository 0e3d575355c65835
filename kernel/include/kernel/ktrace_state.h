// SPDX-License-Identifier: MIT
// The tracing layer's state the core's hooks test and every tracing file reads: the kernel's
// ring, each class's on byte (KTRACE_ON), the traced entry's one test (ktrace_kernel_on), the
// inline paths' words (ktrace_hot), and a user-event ring's state, which the core's objects
// hold, and the step that brings the flags up to date (ktrace_sync). Nothing here calls
// above it (kernel/ktrace_state.c), so a file of the tracing layer's lower levels reads it
// without depending on the hooks above (ktrace.h).
#ifndef KERNEL_KTRACE_STATE_H
#define KERNEL_KTRACE_STATE_H

#include <kernel/kernel.h>
#include <kernel/cpu.h>
#include <trace/trace_ring.h>
#include <uapi/ktrace.h>
#include <d/dprobes.h>

extern struct trace_ring ktrace;

// Mirror of ktrace.tr_active, one byte a class: the hooks' test.
extern uint8_t ktrace_cls_on[KEV_NCLASS];
// Non-zero while tracing runs or notifications wait: the exception entry's one test, which
// picks kernel_entry_traced over kernel_entry.
extern uint32_t ktrace_kernel_on;

#ifdef KTRACE_DISABLED
#define KTRACE_ON(cls) 0
#define KTRACE_HOOKS 0
#else
#define KTRACE_ON(cls) unlikely(ktrace_cls_on[(cls)] != 0)
#define KTRACE_HOOKS 1
#endif

// What the traced entry's inline paths read (ktrace_kcall.h), together so that they reach
// it through one address.
struct ktrace_hot {
    uint32_t kc_limit;  // KEV_KC_MAX while kernel-call events take the inline path, else 0:
                        // the entry's one compare also keeps the call number in range
    uint32_t fast;      // classes on the inline path: recorded, fast mode, no filter, no D
    uint32_t plain;     // the same in either mode (kernel-call exits are simple even when wide)
    unsigned notes;     // a bit per CPU with buffer-full notifications (or the ring's own
                        // stop) waiting for its kernel exit (ktrace.c)
};
extern struct ktrace_hot ktrace_hot;

// The kernel's side of one user-event ring (kernel/kuring.c), the tracing state the core's
// objects hold: a process's shared ring (struct proc.ur) and, on boards with several CPUs, each
// thread's own (struct thread.ur). Kernel memory: the one copy of the ring's state the kernel
// trusts. As large as the process's fields it replaced on one CPU (netduinoplus2's kernel RAM
// has no byte to spare).
struct kuring {
    uint32_t addr;          // the ring (struct kuser_ring) in the process's RAM, or 0
    uint32_t mask;          // records in the ring - 1
    uint32_t tail;          // records consumed: the kernel's copy, the one it trusts
    uint32_t last;          // the time given to the last record emitted (its order in time)
    uint32_t skip_before;   // a capture began: skip records stamped before this
#if KMAX_CPUS > 1
    uint32_t lock;          // the fields above and the drain (kuring.c, LOCKING)
#endif
    bool     have_last;
    bool     skip_old;
};

// The ring's lock (several CPUs; with one, nothing): the trace ring's spinlock.
#if KMAX_CPUS > 1
static inline void kuring_lock(struct kuring *k) { trace_lock(&k->lock); }
static inline void kuring_unlock(struct kuring *k) { trace_unlock(&k->lock); }
#else
static inline void kuring_lock(struct kuring *k) { (void)k; }
static inline void kuring_unlock(struct kuring *k) { (void)k; }
#endif

// A D program runs (kernel/kdt_fire.c), and the hooks its probes need (DPROBE_H_*,
// d/dprobes.h; kernel/kdtrace.c sets them at KDT_GO from the probes it enables): the classes
// whose sites it watches, the traced exit's D side. A site of a class the program does not
// watch, and the exits while it needs none, cost what they cost without a program; lockstat's
// hold on the SYNC_* calls' sites only while one of its probes is enabled (kdt_lockstat).
// Written on the exclusive side alone.
extern bool kdt_active;
extern uint32_t kdt_hooks;
extern bool kdt_lockstat;

// The hooks D needs now: none while no program runs.
static inline uint32_t kdt_hooks_now(void)
{
    return kdt_active ? kdt_hooks : 0u;
}

// Does the running program watch class cls's sites? (A site's test before its D path.)
static inline bool kdt_on(unsigned cls)
{
    return kdt_active && ((kdt_hooks >> cls) & 1u);
}

// Is the ring recording this class? (The hooks also run for D probes.)
static inline bool ktrace_ring_on(unsigned cls)
{
    return trace_on(&ktrace, cls);
}

// Each CPU's exit key (cpu.h trace_ran): the thread its last traced exit returned to, and
// KTRACE_RAN_D while the D program needs the exits (DPROBE_H_EXIT), so that every traced exit
// reaches ktrace_switched (D's on-cpu, remain-cpu, a call's return, a first run); KTRACE_RAN_TICK from a traced tick while SYSTEM is traced to the exit, whose
// choice, when it keeps that thread, is a REMAIN_CPU event (ktrace_tick_mark); ktrace_ran_d:
// the bit as ktrace_sync last set it. ktrace_ran_set_all sets every CPU's bit to d and, with
// forget, forgets their threads too (a capture starts).
#define KTRACE_RAN_D ((uintptr_t)1u)
#define KTRACE_RAN_TICK ((uintptr_t)2u)     // (a thread is aligned to at least 4)
extern bool ktrace_ran_d;
void ktrace_ran_set_all(bool forget, bool d);

// A traced timer interrupt on this CPU (the kernel's tick or its share, main.c tick_traced):
// its exit's choice is a decision on the running thread, written as REMAIN_CPU when it keeps
// it (ktrace_exit_end, ktrace_tick.h). Only while SYSTEM is traced, ring or D: nothing
// otherwise.
static inline void ktrace_tick_mark(void)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        this_cpu()->trace_ran |= KTRACE_RAN_TICK;
}

// Brings the hooks' flags up to date with the ring and the D provider (after anything that
// may change them): a class's hooks run while the ring records it or the D program watches it
// (kdt_hooks); the entry is traced while either runs or notifications wait. The changes out of
// line (kernel/ktrace_state.c).
extern uint32_t ktrace_synced_classes;
void ktrace_sync_classes(uint32_t want);
void ktrace_kernel_on_changed(uint32_t on);
// Runs at every traced kernel exit: the common case (nothing changed) is a compare.
static inline void ktrace_sync(void)
{
    const uint32_t d = kdt_hooks_now();
    uint32_t want = ktrace.tr_active | (d & DPROBE_H_CLASSES);
    if (__builtin_expect(want != ktrace_synced_classes, 0))
        ktrace_sync_classes(want);
    uint32_t on = ktrace.tr_running || ktrace_hot.notes || d != 0;
    if (__builtin_expect(on != ktrace_kernel_on, 0))
        ktrace_kernel_on_changed(on);
    // D's exits out of line (ktrace_exit_end), before the inline paths may be taken again
    const bool dx = (d & DPROBE_H_EXIT) != 0;
    if (__builtin_expect(dx != ktrace_ran_d, 0))
        ktrace_ran_set_all(false, dx);
    // The inline paths: classes recorded in fast mode with no filter and no D watching (its
    // probes are on the general paths); SYSTEM's ONCPU and REMAIN_CPU not while D needs the
    // exits (ktrace_switched writes them then).
    ktrace_hot.plain = ktrace.tr_active & ~ktrace.tr_slow & ~d & ~(dx ? 1u << KEV_C_SYSTEM : 0u);
    ktrace_hot.fast = ktrace_hot.plain & ~ktrace.tr_wide;
    ktrace_hot.kc_limit = (ktrace_hot.fast >> KEV_C_KER_CALL) & 1u ? KEV_KC_MAX : 0u;
}

#endif
