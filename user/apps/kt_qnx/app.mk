# SPDX-License-Identifier: MIT
# kt_qnx: QNX trace instrumentation compiled unchanged against <sys/trace.h>; ktest spawns it
# (user/module.mk reads this file: docs/applications.md).
PRIO  := 100
FLAGS := KAPP_F_TRACE
