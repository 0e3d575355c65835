// SPDX-License-Identifier: MIT
// Stacks in the trace: SYSTEM STACK events (layout: trace/kev.h, docs/trace-events.md). At a
// sampling tick the running thread's user stack (kind USER), or the kernel's own stack when
// a kernel thread (idle) ran (kind KERNEL); after a FAULT the faulting thread's user stack.
// The walks are D's (kernel/unwind.h, kernel/kstack.c): the same frames ustack( )/stack( )
// give at profile-N and proc:::fault, so dtrace -i over the capture sees what D saw live.
// Runs in the kernel entry (interrupts off); the pcs live on this kernel stack (32 frames).
#include <kernel/ktrace_stack.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kstack.h>
#include <kernel/unwind.h>
#include <kernel/thread.h>
#include <d/dstacks.h>
#include <uapi/kerrno.h>

_Static_assert(KEV_STACK_MAXDEPTH == DVM_STACK_MAXDEPTH, "a STACK event holds what D walks");

uint32_t ktrace_stack_period;
static uint32_t countdown[KMAX_CPUS];

int ktrace_stack_set_rate(uint32_t hz)
{
    if (hz > TICK_HZ)
        return -EINVAL;
    ktrace_stack_period = hz ? TICK_HZ / hz : 0;
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        countdown[c] = ktrace_stack_period;
    return hz ? (int)(TICK_HZ / ktrace_stack_period) : 0;
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
    // who, info, then the pcs: one word each, or two (high first) where pcs are 64-bit
    uint32_t w[2 + 2 * KEV_STACK_MAXDEPTH];
    const bool pc64 = sizeof(uintptr_t) == 8;
    uint32_t info = KEV_STACK_INFO(kind, n, ended) | (pc64 ? KEV_STACK_PC64 : 0u) |
                    (n == KEV_STACK_MAXDEPTH ? KEV_STACK_AT_MAX : 0u);
    unsigned nw = 2;
    w[0] = who;
    w[1] = info;
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

__attribute__((noinline)) bool ktrace_stack_sample(uint32_t *ts)
{
    unsigned cpu = cpu_id();
    if (--countdown[cpu] != 0)
        return false;
    countdown[cpu] = ktrace_stack_period;
    const struct thread *t = k_current;
    if (!t || !KTRACE_ON(KEV_C_SYSTEM) || !ktrace.tr_running)
        return false;
    if (t->proc)
        return user_stack(t, KEV_STACK_USER, ts);
    // a kernel thread: the kernel's stack from the tick's site, as stack( ) gives it at
    // profile-N (kstack_for_d leaves out the frames below the marked site)
    uint64_t pcs[KEV_STACK_MAXDEPTH];
    uint32_t before[UNWIND_E_COUNT];
    kmemcpy(before, unwind_errors, sizeof(before));
    KSTACK_MARK_PROBE_SITE();
    unsigned n = kstack_for_d(DVM_STACK_KERNEL, pcs, KEV_STACK_MAXDEPTH);
    return emit(ktrace_who(t), KEV_STACK_KERNEL, pcs, n, walk_error(before), ts);
}
