# SPDX-License-Identifier: MIT
# kt_fault: ktest's faulting process (user/module.mk reads this file: docs/applications.md).
PRIO  := 50
# KAPP_F_TRACE: modes 13 and 14 own the trace ring (kt_smp's check_freed_ring, ktest's
# processes) and 14 loads a D object
FLAGS := KAPP_F_TRACE
EXTRA := user/arch/$(ARCH)/fault_arch.c
