// SPDX-License-Identifier: MIT
// A process's thread faulted: the one site that records it (docs/trace-events.md "Stacks and
// faults"). It feeds the ring (SYSTEM FAULT [who, signal | kind << 8 | addr-valid, pc, address],
// then the thread's STACK of kind FAULT) and D (proc:::fault, arg0 the signal, in the faulting
// thread's context, where ustack( ) walks the same stack), so dtrace -i fires proc:::fault
// over a capture with what the board's D saw. Called by kernel_fault before the process ends.
#include <kernel/ktrace_stack.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kdtrace.h>
#include <kernel/thread.h>
#include <d/dprobes.h>

void ktrace_fault(struct thread *t, int sig, const struct arch_fault_where *where)
{
    if (KTRACE_ON(KEV_C_SYSTEM) && ktrace.tr_running) {
        uint32_t w[6] = {
            ktrace_who(t),
            ((uint32_t)sig & 0xffu) | (where->kind & 0xffu) << 8 |
                (where->addr_valid ? KEV_FAULT_ADDR_VALID : 0u),
            (uint32_t)(where->pc >> 32), (uint32_t)where->pc,
            (uint32_t)(where->addr >> 32), (uint32_t)where->addr,
        };
        trace_emit_words(&ktrace, KEV_C_SYSTEM, KEV_SYS_FAULT, w, 6);
        ktrace_stack_user(t, KEV_STACK_FAULT);
    }
    if (kdt_active)     // proc:::fault, in the faulting thread's context: arg0 the signal
        kdt_fire(DPROBE_PROC_FAULT, (uint64_t)sig, 0, 0, 0);
}
