// SPDX-License-Identifier: MIT
// The one reading of an AArch64 exception's syndrome (fault_where.c): its kind (KEV_FAULT_*)
// from ESR's exception class and fault status code, its address from FAR for the classes the
// architecture sets it for. A thread's fault (arch_fault_where: the FAULT event) and the
// kernel's own (a64_kernel_fault: the KPANIC event) are both told by it.
#ifndef A64_FAULT_DECODE_H
#define A64_FAULT_DECODE_H

#include <kernel/arch.h>

// Sets w's kind, addr and addr_valid (not its pc) from esr and far.
void a64_fault_decode(uint64_t esr, uint64_t far, struct arch_fault_where *w);

#endif
