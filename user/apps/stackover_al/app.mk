# SPDX-License-Identifier: MIT
# stackover_al: stackover's recursion in a thread on a stack ThreadCreate allocates (1 KB asked,
# its guard below it) (user/apps/stackover; user/module.mk reads this file: docs/applications.md).
PRIO  := 10
FLAGS := 0
EXTRA := user/apps/stackover/stackover.c   # the same program under another name
