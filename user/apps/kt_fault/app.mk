# SPDX-License-Identifier: MIT
# kt_fault: ktest's faulting process (user/module.mk reads this file: docs/applications.md).
PRIO  := 50
EXTRA := user/arch/$(ARCH)/fault_arch.c
