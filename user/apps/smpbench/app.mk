# SPDX-License-Identifier: MIT
# smpbench: the multiprocessor benchmarks of make bench (scripts/bench-smp.sh; docs/smp.md)
# (user/module.mk reads this file: docs/applications.md).
PRIO  := 100
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV

# Only on boards with several CPUs (BOARD_MAX_CPUS in board.mk).
ifneq ($(filter-out 1,$(or $(BOARD_MAX_CPUS),1)),)
IMAGES        += smpbench
endif
smpbench_APPS := smpbench
