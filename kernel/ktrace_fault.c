// SPDX-License-Identifier: MIT
// A process's thread faulted: the one site that records it (docs/trace-events.md "Stacks and
// faults"). It feeds the ring (SYSTEM FAULT [who, signal | kind << 8 | addr-valid, pc, address],
// then the thread's STACK of kind FAULT) and D (proc:::fault, arg0 the signal, in the faulting
// thread's context, where ustack( ) walks the same stack), so dtrace -i fires proc:::fault
// over a capture with what the board's D saw. Called by kernel_fault before the process ends.
// First it records the signal as QNX does, COMM SIGNAL [si_signo, si_code] in the faulting
// thread's context (nano_trace.c's fast form), so QNX's own tools see the fault too.
#include <kernel/ktrace_stack.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kdtrace.h>
#include <kernel/kev_emit.h>
#include <kernel/kview.h>
#include <d/dprobes.h>

// The si_code QNX's siginfo.h gives the fault the hardware reported (KEV_FAULT_*).
static uint32_t fault_si_code(unsigned kind)
{
    switch (kind) {
    case KEV_FAULT_ACCESS: case KEV_FAULT_EXEC: case KEV_FAULT_STACKING:
        return 2;   // SEGV_ACCERR: the MPU/MMU refused it
    case KEV_FAULT_ALIGN: return 1;     // BUS_ADRALN
    case KEV_FAULT_BUS: return 2;       // BUS_ADRERR
    case KEV_FAULT_UNDEF: return 1;     // ILL_ILLOPC
    case KEV_FAULT_DIVZERO: return 1;   // FPE_INTDIV
    case KEV_FAULT_BREAK: return 1;     // TRAP_BRKPT
    default: return 0;
    }
}

void ktrace_fault(struct thread *t, int sig, const struct arch_fault_where *where)
{
    ktrace_comm(KEV_COMM_SIGNAL, (uint32_t)sig, fault_si_code(where->kind));
    // FAULT, its STACK and proc:::fault (in the faulting thread's context: arg0 the signal)
    // at the FAULT event's time (kev_emit.h)
    kev_emit_fault(kdt_on(KEV_C_SYSTEM), KTRACE_ON(KEV_C_SYSTEM) && ktrace.tr_running, t, ktrace_who(t),
                   sig, where->kind, where->addr_valid, where->pc, where->addr);
}
