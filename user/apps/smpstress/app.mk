# SPDX-License-Identifier: MIT
# smpstress: the multiprocessor stress test (docs/smp.md, "Tests"; test/qemu/module.mk runs it
# under -icount and on the host's clock). Only on boards with several CPUs (BOARD_MAX_CPUS).
# (user/module.mk reads this file: docs/applications.md.)
PRIO  := 100
FLAGS := KAPP_F_PRIV
RAM   := 0x8000
# It inserts no user events: the board's 256-record rings (five of them) would not leave its
# stacks room in 64 KB.
URING := 64

ifneq ($(filter-out 1,$(or $(BOARD_MAX_CPUS),1)),)
IMAGES        += smpstress
endif
smpstress_APPS := smpstress st_peer st_drv
