# SPDX-License-Identifier: MIT
# cpuwake: wake-ups across CPUs through a mutex and a condvar, and a thread moved between
# CPUs, with its own counts (test/qemu/test_cpuwake.sh; docs/smp.md) (user/module.mk reads
# this file: docs/applications.md).
PRIO := 40
EXTRA := user/lib/cpus.c   # the CPU count and the binding that wraps (cpus.h)

# Only on boards with several CPUs (BOARD_MAX_CPUS in board.mk): appinit starts it under a
# capture (as make run APPS=cpuwake).
IMAGES        += $(call smp_only,cpuwaketest)
cpuwaketest_APPS := appinit cpuwake tracelogger
