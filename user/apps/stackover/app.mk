# SPDX-License-Identifier: MIT
# stackover: unbounded recursion in its main thread, for the stack guards' test
# (test/qemu/test_stack_guard.sh, docs/hostile.md "Stack guards"); stackover_th is the same
# program recursing in a thread of its own (user/module.mk reads this file:
# docs/applications.md).
PRIO  := 10
FLAGS := 0

# The test's image: the three under appinit, with the tracelogger for the FAULT events.
IMAGES          += stackguard
stackguard_APPS := appinit stackover stackover_th stackover_al tracelogger

# Programs on the stack rules' defaults, which the same test boots: threads on plain 4 KB arrays
# and on allocated stacks (user/apps/qnxthreads), and a newcomer's program with 4 KB of locals
# in main that prints doubles (user/apps/fplocals: its app.mk is one line).
IMAGES         += stackplain
stackplain_APPS := appinit qnxthreads fplocals
