// SPDX-License-Identifier: MIT
// The one reading of an x86 exception (fault_where.c): its kind (KEV_FAULT_*) from the vector
// (and a page fault's error code), its address from CR2 for a page fault (the only vector that
// sets it). A thread's fault (arch_fault_where: the FAULT event) and the kernel's own
// (x86_kernel_fault: the KPANIC event) are both told by it.
#ifndef X86_FAULT_DECODE_H
#define X86_FAULT_DECODE_H

#include <kernel/arch.h>

// Sets w's kind, addr and addr_valid (not its pc) from the vector, error code and cr2.
void x86_fault_decode(uint32_t vector, uint32_t error, uint32_t cr2, struct arch_fault_where *w);

#endif
