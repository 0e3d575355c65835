# SPDX-License-Identifier: MIT
# st_peer: smpstress's client process, killed mid-IPC (user/module.mk reads this file:
# docs/applications.md).
PRIO  := 60
FLAGS := 0
