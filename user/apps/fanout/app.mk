# SPDX-License-Identifier: MIT
# fanout: a 1 kHz source on CPU 0 fanning batches out to workers bound to CPUs 1-3, and the
# periods it missed by its own clock (test/qemu/test_fanout.sh: its misses under a D program on
# every CPU against its misses without; docs/smp.md) (user/module.mk reads this file:
# docs/applications.md).
PRIO  := 30
EXTRA := user/lib/cpus.c   # the CPU count and the binding that wraps (cpus.h)

# Only on boards with several CPUs (BOARD_MAX_CPUS in board.mk) that run dtrace: the images of
# make run APPS=fanout (appinit, fanout, the tracelogger) and of make dtrace APPS=fanout (the
# board's dtrace starting appinit).
IMAGES          += $(call smp_only,$(if $(filter dtrace,$(BOARD_NO_IMAGES)),,fanoutrun fanoutd))
fanoutrun_APPS := appinit fanout tracelogger
fanoutd_APPS   := dtrace appinit fanout tracelogger
