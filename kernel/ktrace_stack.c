// SPDX-License-Identifier: MIT
// Stacks in the trace: SYSTEM STACK events (layout: trace/kev.h, docs/trace-events.md). At each
// sample (KTRACE_STACKSAMPLE's rate, on each CPU, run by kernel/kprof.c from the profile timer
// or the tick) the running thread's user stack (kind USER), or, when a kernel thread (a CPU's
// idle thread) ran, the pc it was interrupted at (kind KERNEL); after a FAULT the faulting
// thread's user stack. The walks are D's (kernel/unwind.h, kernel/kstack.c): the same frames
// ustack( )/stack( ) give at profile-N and proc:::fault, so dtrace -i over the capture sees what
// D saw live. Runs in the kernel entry (interrupts off); the pcs live on this kernel stack (32
// frames). The sample times are CPU c's own, written by CPU c (kprof.c's callers) or by the
// exclusive side when the rate changes.
#include <kernel/ktrace_stack.h>
#include <kernel/arch_trace.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kstack.h>
#include <kernel/unwind.h>
#include <kernel/kview.h>
#include <d/dstacks.h>
#include <kernel/ptimer.h>
#include <kernel/board.h>
#include <trace/period_due.h>
#include <uapi/kerrno.h>
#include <kev_emit_gen.h>

_Static_assert(KEV_STACK_MAXDEPTH == DVM_STACK_MAXDEPTH, "a STACK event holds what D walks");

uint32_t ktrace_stack_period;
// CPU c's next sample time, the low 32 bits of ns since boot (compared across the wrap: a
// sample is due at most a period, at most a second, ahead; netduinoplus2's kernel RAM has
// no 4 bytes more a CPU for the whole time).
static uint32_t sample_next[KMAX_CPUS];

int ktrace_stack_set_rate(uint32_t hz)
{
    // From the profile timer any rate up to the profile provider's (DTrace's profile-5000);
    // from the tick, at most one a tick.
    if (hz > (ptimer_present() ? KTRACE_STACK_MAX_HZ : TICK_HZ))
        return -EINVAL;
    ktrace_stack_period = hz ? 1000000000u / hz : 0;
    // On its period's multiples since boot, as profile-N's times are (trace/period_due.h):
    // a sampler and a profile-N probe of one rate interrupt together.
    uint64_t now = kview_ns(board_cycles());
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        sample_next[c] = hz ? (uint32_t)period_first_due(ktrace_stack_period, now) : 0;
    return (int)hz;
}

// The full time of a low word due within 2^31 ns of now (before or after it).
static uint64_t widen(uint32_t low, uint64_t now)
{
    return now + (uint64_t)(int64_t)(int32_t)(low - (uint32_t)now);
}

uint64_t ktrace_stack_next(unsigned cpu)
{
    if (!ktrace_stack_period)
        return 0;
    return widen(sample_next[cpu], kview_ns(board_cycles()));
}

// The reason a walk was cut short: the unwind error it counted (unwind_errors[] before and
// after; a walk counts at most one). Another CPU walking at the same instant could be
// taken for this one's: a wrong reason on one event, never a wrong stack.
static unsigned walk_error(const uint32_t before[UNWIND_E_COUNT])
{
    for (unsigned e = 1; e < UNWIND_E_COUNT; e++)
        if (unwind_errors[e] != before[e])
            return e;
    return 0;
}

// The STACK event; true and its time in *ts when it was recorded.
static bool emit(uint32_t who, unsigned kind, const uint64_t *pcs, unsigned n, unsigned ended,
                 uint32_t *ts)
{
    // who, info (packed by the row's layout), then the pcs: one word each, or two (high
    // first) where pcs are 64-bit
    uint32_t w[2 + 2 * KEV_STACK_MAXDEPTH];
    const bool pc64 = sizeof(uintptr_t) == 8;
    const unsigned depth = n;
    const bool at_max = n == KEV_STACK_MAXDEPTH;
    if (kind > KEV_STACK_FAULT || depth > KEV_STACK_MAXDEPTH || ended >= UNWIND_E_COUNT)
        __builtin_unreachable();    // (each fits its field: the masks fold)
    unsigned nw = 2;
    kev_pack_stack(w, who, kind, depth, ended, at_max, pc64);
    for (unsigned i = 0; i < n; i++) {
        if (pc64)
            w[nw++] = (uint32_t)(pcs[i] >> 32);
        w[nw++] = (uint32_t)pcs[i];
    }
    return trace_emit_words_stamped(&ktrace, KEV_C_SYSTEM, KEV_SYS_STACK, w, nw, ts);
}

static bool user_stack(const struct thread *t, unsigned kind, uint32_t *ts)
{
    uint64_t pcs[KEV_STACK_MAXDEPTH];
    uint32_t before[UNWIND_E_COUNT];
    kmemcpy(before, unwind_errors, sizeof(before));
    unsigned n = arch_unwind_user(t, pcs, KEV_STACK_MAXDEPTH);
    return emit(ktrace_who(t), kind, pcs, n, walk_error(before), ts);
}

void ktrace_stack_user(const struct thread *t, unsigned kind)
{
    if (!KTRACE_ON(KEV_C_SYSTEM) || !ktrace.tr_running)
        return;
    uint32_t ts;
    user_stack(t, kind, &ts);
}

bool ktrace_stack_due(uint64_t now, uint32_t *ts)
{
    unsigned cpu = cpu_id();
    if (!ktrace_stack_period)
        return false;
    const struct thread *t = k_current;
    uint64_t next = widen(sample_next[cpu], now);
    // A late interrupt samples the periods it passed over too (period_fires_catch_up): one
    // STACK event each, so that a capture's samples are its CPU's time at the sampler's rate.
    unsigned n = period_fires_catch_up(&next, ktrace_stack_period, now, PERIOD_CATCH_UP_MAX);
    if (!n)
        return false;
    sample_next[cpu] = (uint32_t)next;
    if (!t || !KTRACE_ON(KEV_C_SYSTEM) || !ktrace.tr_running)
        return false;
    if (t->proc) {
        bool ok = true;
        for (unsigned i = 0; i < n && ok; i++)
            ok = user_stack(t, KEV_STACK_USER, ts);
        return ok;
    }
    // A kernel thread (a CPU's idle thread): where the interrupt found it, its saved pc, the
    // one frame stack( ) gives at profile-N there (kernel/kstack.c), not the sampler's own
    // frames (which are the same at every sample).
    uint64_t pc = arch_thread_pc(t);
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i++)
        ok = emit(ktrace_who(t), KEV_STACK_KERNEL, &pc, 1, 0, ts);
    return ok;
}
