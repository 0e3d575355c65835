// SPDX-License-Identifier: MIT
// Stacks and faults in captures: the decoder of SYSTEM STACK (0x205) and FAULT (0x206), which
// every host tool shares (traceprinter, kevstat, kevreport, kev2perfetto, dtrace -i). The
// layout is in trace/kev.h and docs/trace-events.md ("Stacks and faults"). Pure functions over
// a decoded event's payload words: no allocation, no state; malformed payloads (too short for
// their depth, a depth over the kernel's bound, an unknown kind) are refused, never read past.
#ifndef TRACE_KEV_STACK_H
#define TRACE_KEV_STACK_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev.h>

struct kev_stack {
    uint32_t who;          // pid << 16 | tid
    unsigned pid, tid;
    unsigned kind;         // KEV_STACK_USER, _KERNEL, _FAULT
    unsigned depth;        // pcs[0 .. depth-1], innermost first
    unsigned ended;        // 0 complete, else the unwind error that cut the walk short
    int at_max;            // the depth bound ended the walk (the stack may be deeper)
    int pc64;              // the pcs were recorded as 64-bit values
    uint64_t pcs[KEV_STACK_MAXDEPTH];
};

struct kev_fault {
    uint32_t who;
    unsigned pid, tid;
    unsigned sig;          // the signal the process is killed with (KSIG_*)
    unsigned kind;         // KEV_FAULT_*
    int addr_valid;        // addr is the faulting data address
    uint64_t pc, addr;
};

// 0 and *s filled, or -1 when the words are not a well-formed STACK payload.
int kev_stack_decode(const uint32_t *w, unsigned nw, struct kev_stack *s);
// 0 and *f filled, or -1 when the words are not a FAULT payload (fewer than 6 words).
int kev_fault_decode(const uint32_t *w, unsigned nw, struct kev_fault *f);

// Names: "user", "kernel", "fault"; "frame loop", ... (the kernel's unwind errors, "complete"
// for 0); "access", "exec", ... ; "SIGSEGV", ... Each returns "?" for an unknown number.
const char *kev_stack_kind_name(unsigned kind);
const char *kev_stack_ended_name(unsigned ended);
const char *kev_fault_kind_name(unsigned kind);
const char *kev_signal_name(unsigned sig);

// One line of text for a printer (traceprinter, kevstat): "pid/tid user depth 5 0x... 0x..."
// and "pid/tid SIGSEGV access pc 0x... addr 0x...". Returns the snprintf length.
int kev_stack_text(const struct kev_stack *s, char *buf, size_t size);
int kev_fault_text(const struct kev_fault *f, char *buf, size_t size);

#endif
