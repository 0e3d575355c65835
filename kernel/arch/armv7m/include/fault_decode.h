// SPDX-License-Identifier: MIT
// The one reading of ARMv7-M's fault status (fault.c): a fault's kind (KEV_FAULT_*) from
// the Configurable Fault Status Register and its address from MMFAR or BFAR when the CFSR says
// one is held. A thread's fault (arch_fault_where: the FAULT event) and the kernel's own
// (arch_kernel_fault: the KPANIC event) are both told by it; only where the pc comes from
// differs. Reads the status without clearing it.
#ifndef ARMV7M_FAULT_DECODE_H
#define ARMV7M_FAULT_DECODE_H

#include <kernel/arch.h>

// Sets w's kind, addr and addr_valid (not its pc) from cfsr and the address registers.
void armv7m_fault_decode(uint32_t cfsr, struct arch_fault_where *w);
// The fault lost its exception frame: the hardware could not stack (or unstack) it.
bool armv7m_fault_stacking(uint32_t cfsr);
// A thread's HardFault redirected to the faults' level (fault.c, entry.S): when pc is the
// redirect, its noted status and pc in *cfsr, *dfsr, *fpc, and true.
bool armv7m_fault_redirected(uint32_t pc, uint32_t *cfsr, uint32_t *dfsr, uint32_t *fpc);
// Whether thread t's pc holds a bkpt (a fault the status registers may not name: QEMU's
// core implements no DFSR).
struct thread;
bool armv7m_at_bkpt(const struct thread *t, uint32_t pc);

#endif
