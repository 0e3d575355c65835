# SPDX-License-Identifier: MIT
# stackfault: a known call chain that faults, for the trace's FAULT event (user/module.mk reads
# this file: docs/applications.md, docs/profiling.md).
PRIO := 10

# Its test's image (test/stacks/test_fault_capture.sh): dtrace over it, with the tracelogger.
IMAGES          += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,stackfault)
stackfault_APPS := dtrace appinit stackfault tracelogger
