// SPDX-License-Identifier: MIT
// A thread's fault with the stack the kernel writes right after it (SYSTEM FAULT, then the
// faulting thread's STACK of kind FAULT on the same CPU: docs/trace-events.md "Stacks and
// faults"), for the converters that show the two as one (kev2json, kev2perfetto). A FAULT is
// held until its STACK, the next other event on its CPU, or the end, whichever comes first.
// Fed events in time order; no allocation.
#ifndef TOOLS_CONV_FAULT_H
#define TOOLS_CONV_FAULT_H

#include <trace/kev_decode.h>
#include <trace/kev_stack.h>

struct cf_fault {
    uint32_t w[6];         // the FAULT's payload words
    struct kev_fault f;
    struct kev_stack s;
    int have_stack;        // s is the faulting thread's stack
    uint64_t t;            // the FAULT's time (cycles)
    unsigned cpu;
};

struct cf_faults {
    struct cf_fault held[KEV_MAX_CPUS];
    uint8_t holding[KEV_MAX_CPUS];
};

// cf_event: looks at e; 1 and *done filled when a held fault is complete (its stack came, or
// another event on its CPU), else 0. A FAULT that cannot be decoded is left alone.
int cf_event(struct cf_faults *p, const struct kev_event *e, struct cf_fault *done);
// cf_flush: at the end, the faults still held, one a call: 1 and *done filled, 0 when none.
int cf_flush(struct cf_faults *p, struct cf_fault *done);

#endif
