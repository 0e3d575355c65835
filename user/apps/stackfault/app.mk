# SPDX-License-Identifier: MIT
# stackfault: a known call chain that faults, for the trace's FAULT event (user/module.mk reads
# this file: docs/applications.md, docs/profiling.md).
PRIO := 10

# Its test's image (test/stacks/test_fault_capture.sh): dtrace over it, with the tracelogger.
IMAGES          += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,stackfault)
stackfault_APPS := dtrace appinit stackfault tracelogger

# kevsql's Perfetto-query test's image (test/tools/test_kevsql_perfetto.sh): a fault with its
# stack under dtrace, inversion's priority changes and acq's interrupts, in one capture.
IMAGES       += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,sqlcap)
sqlcap_APPS  := dtrace appinit stackfault inversion acq tracelogger
