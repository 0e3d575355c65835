# SPDX-License-Identifier: MIT
# kt_attack: the unprivileged attacker the hostile suite starts, one attack per run
# (user/module.mk reads this file: docs/applications.md).
PRIO := 10
# The hoarding attack (item 8) keeps a stack for each of its threads.
# RAM: 20 thread stacks, two pages each or more under an MMU.
RAM   := $(call paged_guard,0x4000,0x40000)
