// SPDX-License-Identifier: MIT
// The kernel's last words (kernel/kpanic.c). kpanic() (kernel.h) is a software panic;
// kpanic_fault() is the arch's report of a fault taken in the kernel itself, with what the
// CPU said about it, decoded as a thread's fault is (the arch's fault_where.c). Both write the SYSTEM KPANIC event into the trace ring when tracing runs
// (docs/trace-events.md), print the message and stop: in flight-recorder mode (the ring in
// TRACE_POLICY_RING) the CPU halts in place, interrupts off, for a debugger and kevdump
// (docs/tracelogger.md); otherwise the board halts as always (under QEMU: its exit).
#ifndef KERNEL_KPANIC_H
#define KERNEL_KPANIC_H

#include <kernel/kernel.h>
#include <kernel/arch.h>    // struct arch_fault_where: the fault's kind, pc and address
#include <trace/kev.h>

_Noreturn void kpanic_fault(const struct arch_fault_where *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// Stops this CPU where it is, interrupts off, in a loop a debugger can halt (per arch).
_Noreturn void arch_halt_in_place(void);

#endif
