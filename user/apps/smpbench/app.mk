# SPDX-License-Identifier: MIT
# smpbench: the multiprocessor benchmarks of make bench (scripts/bench-smp.sh; docs/smp.md)
# (user/module.mk reads this file: docs/applications.md).
PRIO  := 100
# RAM: 9 thread stacks, two pages each or more under an MMU.
RAM   := $(call paged_guard,,0x20000)
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV

# Only on boards with several CPUs (BOARD_MAX_CPUS in board.mk).
IMAGES        += $(call smp_only,smpbench)
smpbench_APPS := smpbench

# smpbench under a D program (scripts/bench-smp.sh's _dtrace_ lines, test/qemu/test_dshared.sh):
# the target's dtrace starts smpbench with -c, so that its probes fire on every message the
# pairs pass (docs/smp.md, "D on several CPUs"). Only where the dtrace image is built.
IMAGES        += $(call smp_only,$(if $(filter dtrace,$(BOARD_NO_IMAGES)),,smpbenchd))
smpbenchd_APPS := dtrace smpbench
