# SPDX-License-Identifier: MIT
# exechog: a CPU-bound thread measuring the time its CPU executed it, beside bursty workers on
# the other CPUs (test/qemu/test_exechog.sh; docs/smp.md) (user/module.mk reads this file:
# docs/applications.md).
PRIO := 30
EXTRA := user/lib/cpus.c   # the CPU count and the binding that wraps (cpus.h)

IMAGES        += $(call smp_only,exechogtest)
exechogtest_APPS := appinit exechog tracelogger
