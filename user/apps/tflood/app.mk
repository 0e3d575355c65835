# SPDX-License-Identifier: MIT
# tflood: floods the trace (the tracelogger's tests and benchmark) (user/module.mk reads this file: docs/applications.md).
PRIO  := 50
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV

IMAGES      += tflood
tflood_APPS := tflood tracelogger
