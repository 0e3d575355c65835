# SPDX-License-Identifier: MIT
# stackchain: a known call chain for the stack tests (user/module.mk reads this file:
# docs/applications.md, docs/profiling.md).
PRIO := 10

# The stack tests' image (test/stacks/): dtrace over stackchain, where the board runs dtrace.
IMAGES      += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,stacks)
stacks_APPS := dtrace appinit stackchain tracelogger
# Where the board has no dtrace image (netduinoplus2), the same without it: the capture's
# stacks alone, probed on the host (test/stacks/test_stacks_capture.sh).
IMAGES        += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),stackcap)
stackcap_APPS := appinit stackchain tracelogger
