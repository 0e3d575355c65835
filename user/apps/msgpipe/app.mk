# SPDX-License-Identifier: MIT
# msgpipe: a message pipeline across the CPUs (a source, workers, a sink), about 2,000 messages
# a second, for the live page's tests over a finished capture of several CPUs
# (test/qemu/test_kevweb_whole.sh) (user/module.mk reads this file: docs/applications.md).
PRIO := 20
EXTRA := user/lib/cpus.c   # the CPU count and the binding that wraps (cpus.h)

IMAGES        += $(call smp_only,msgpipetest)
msgpipetest_APPS := appinit msgpipe tracelogger
