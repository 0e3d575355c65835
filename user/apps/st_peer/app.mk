# SPDX-License-Identifier: MIT
# st_peer: smpstress's client process, killed mid-IPC (user/module.mk reads this file:
# docs/applications.md).
PRIO  := 60
# RAM: 8 thread stacks, two pages each or more under an MMU.
RAM   := $(call paged_guard,,0x20000)
FLAGS := 0
