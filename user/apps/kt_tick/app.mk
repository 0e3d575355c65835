# SPDX-License-Identifier: MIT
# kt_tick: the late tick's checks (docs/timers.md), in a process of its own (the flash slot of
# netduinoplus2's ktest has no room for them); ktest spawns it and checks its status
# (user/module.mk reads this file: docs/applications.md). KAPP_F_TRACE: the kernel's stall on
# purpose is a KTRACE_BENCH kind.
PRIO  := 100
FLAGS := KAPP_F_TRACE
