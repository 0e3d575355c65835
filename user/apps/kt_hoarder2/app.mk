# SPDX-License-Identifier: MIT
# kt_hoarder2: a flagless program that takes every kernel object it is given, for the hostile
# suite's tree attack (attack 16; user/module.mk reads this file: docs/applications.md).
PRIO := 10
# RAM: 12 thread stacks, two pages each or more under an MMU.
RAM   := $(call paged_guard,0x2000,0x20000)
EXTRA := user/apps/kt_hoarder/hoarder.c   # the same program under another name
