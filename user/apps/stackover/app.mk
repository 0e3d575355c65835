# SPDX-License-Identifier: MIT
# stackover: unbounded recursion in its main thread, for the stack guards' test
# (test/qemu/test_stack_guard.sh, docs/hostile.md "Stack guards"); stackover_th is the same
# program recursing in a thread of its own (user/module.mk reads this file:
# docs/applications.md).
PRIO  := 10
FLAGS := 0

# The test's image: both under appinit, with the tracelogger for the FAULT events.
IMAGES          += stackguard
stackguard_APPS := appinit stackover stackover_th tracelogger
