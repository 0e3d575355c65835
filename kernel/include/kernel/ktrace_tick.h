// SPDX-License-Identifier: MIT
// The tick's decision in the trace (REMAIN_CPU): a traced timer interrupt marks its CPU's exit
// key (ktrace_tick_mark, ktrace_state.h), and the exit into the thread it interrupted writes
// the event. An inline helper of its own, apart from the traced entry's (ktrace_kcall.h), so
// that KTRACE_BENCH measures the same code (kernel/ktrace_bench.c) with no call back into the
// tracing layer.
#ifndef KERNEL_KTRACE_TICK_H
#define KERNEL_KTRACE_TICK_H

#include <kernel/kview.h>
#include <kernel/ktrace_state.h>
#include <trace/kev.h>

// A traced tick's exit into the thread it interrupted (KTRACE_RAN_TICK), SYSTEM inline:
// REMAIN_CPU, and the key back to next. False for any other exit.
static inline bool ktrace_tick_kept(struct cpu *cpu, const struct thread *next)
{
    if ((cpu->trace_ran ^ (uintptr_t)next) != KTRACE_RAN_TICK)
        return false;
    cpu->trace_ran = (uintptr_t)next;
    trace_emit_simple_fast(&ktrace, KEV_C_SYSTEM, KEV_SYS_REMAIN_CPU, ktrace_who(next),
                           next->prio);
    return true;
}

#endif
