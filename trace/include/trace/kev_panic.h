// SPDX-License-Identifier: MIT
// The SYSTEM KPANIC event (trace/kev.h KEV_SYS_KPANIC, docs/trace-events.md) decoded once for
// every host tool (trace/kev_panic.c): the last words of a crashed kernel.
#ifndef TRACE_KEV_PANIC_H
#define TRACE_KEV_PANIC_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev_decode.h>

struct kev_panic {
    unsigned origin;    // KEV_PANIC_CALL or KEV_PANIC_EXCEPTION (an older capture's cause mapped)
    unsigned kind;      // an exception's KEV_FAULT_* (0 for a call)
    int addr_valid;     // the CPU gave the faulting address
    int old_layout;     // written before the one word order (trace/kev.h): low words first
    uint64_t pc;        // the faulting instruction (a software panic: kpanic's caller)
    uint64_t addr;      // the faulting data address, 0 when the CPU gave none
    uint32_t pid, tid;  // who ran on that CPU (0/0: no thread yet)
    char msg[160];      // the kernel's panic message
};

// 1 when e is a KPANIC event with its words, filling *p; 0 otherwise.
int kev_panic_decode(const struct kev_reader *r, const struct kev_event *e, struct kev_panic *p);
// One line for it: cause:... pc:0x... addr:0x... pid:N tid:N msg:"..." (into buf[n]); the
// cause is "software" for a kpanic() call, else the fault's kind as FAULT names it
// (kev_fault_kind_name), "?" for an origin this decoder does not know.
void kev_panic_format(const struct kev_panic *p, char *buf, size_t n);

#endif
