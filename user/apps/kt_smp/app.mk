# SPDX-License-Identifier: MIT
# kt_smp: the multiprocessor checks, in a process of its own (ktest's threads share its
# device-timer window, which binds them to CPU 0); ktest spawns it and checks its status;
# KAPP_F_TRACE: it allocates the trace ring (check_ring_tables)
# (user/module.mk reads this file: docs/applications.md).
PRIO  := 100
FLAGS := KAPP_F_PRIV|KAPP_F_TRACE
# RAM: 5 thread stacks, two pages each or more under an MMU.
RAM   := $(call paged_guard,0x4000,0x20000)
