# SPDX-License-Identifier: MIT
# qnxthreads: threads on plain 4 KB arrays and on stacks ThreadCreate allocates, as QNX programs
# create them (test/qemu/test_stack_guard.sh; user/module.mk reads this file:
# docs/applications.md).
PRIO  := 10
FLAGS := 0
# two 4 KB arrays and an allocated stack at a time (4 KB and its guard: a page on the boards
# with an MMU), with the main stack: more than netduinoplus2's 8 KB slot
RAM   := $(call paged_guard,0x4000,0x10000)
