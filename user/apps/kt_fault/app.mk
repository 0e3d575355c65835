# SPDX-License-Identifier: MIT
# kt_fault: ktest's faulting process (user/module.mk reads this file: docs/applications.md).
PRIO  := 50
# KAPP_F_TRACE: mode 13 owns the trace ring (kt_smp's check_freed_ring)
FLAGS := KAPP_F_TRACE
EXTRA := user/arch/$(ARCH)/fault_arch.c
