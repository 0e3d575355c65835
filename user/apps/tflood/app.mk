# SPDX-License-Identifier: MIT
# tflood: floods the trace (the tracelogger's tests and benchmark) (user/module.mk reads this file: docs/applications.md).
PRIO  := 50
# RAM: 24 thread stacks, two pages each or more under an MMU.
RAM   := $(call paged_guard,,0x40000)
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV

IMAGES      += tflood
tflood_APPS := tflood tracelogger
