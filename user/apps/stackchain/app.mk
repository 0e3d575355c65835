# SPDX-License-Identifier: MIT
# stackchain: a known call chain for the stack tests (user/module.mk reads this file:
# docs/applications.md, docs/profiling.md).
PRIO := 10

# The stack tests' image (test/stacks/): dtrace over stackchain, where the board runs dtrace.
IMAGES      += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,stacks)
stacks_APPS := dtrace appinit stackchain tracelogger
