// SPDX-License-Identifier: MIT
// The kernel's last words (kernel/kpanic.c). kpanic() (kernel.h) is a software panic;
// kpanic_fault() is the arch's report of a fault taken in the kernel itself, with what the
// CPU said about it, decoded as a thread's fault is (the arch's fault_where.c). Both print the
// message, give it to the recorder the tracing layer installed (its SYSTEM KPANIC event,
// kernel/ktrace_panic.c, docs/trace-events.md) and stop: in flight-recorder mode (the
// recorder says so: the ring in TRACE_POLICY_RING) the CPU halts in place, interrupts off, for
// a debugger and kevdump (docs/tracelogger.md); otherwise the board halts as always (under
// QEMU: its exit). The base layer's: it calls nothing above it.
#ifndef KERNEL_KPANIC_H
#define KERNEL_KPANIC_H

#include <kernel/kernel.h>

// A fault as the CPU described it, for the trace's FAULT and KPANIC events: its kind
// (trace/kev.h KEV_FAULT_*), pc and data address (arch_fault_where, kernel/arch.h).
struct arch_fault_where {
    unsigned kind;
    bool addr_valid;
    uint64_t pc, addr;
};

_Noreturn void kpanic_fault(const struct arch_fault_where *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// What a panic leaves in the trace: f the fault (NULL for a kpanic() call from pc) and the
// message; returns true when this CPU is to halt in place (a flight recorder's ring). Called
// once, after the message is printed; not for a panic inside the panic path.
typedef bool (*kpanic_recorder_fn)(const struct arch_fault_where *f, uint64_t pc,
                                   const char *msg);
void kpanic_set_recorder(kpanic_recorder_fn fn);

#endif
