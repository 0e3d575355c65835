# SPDX-License-Identifier: MIT
# stackover_th: stackover's recursion in a thread of its own, on a stack with its guard
# (user/apps/stackover; user/module.mk reads this file: docs/applications.md).
PRIO  := 10
FLAGS := 0
EXTRA := user/apps/stackover/stackover.c   # the same program under another name
