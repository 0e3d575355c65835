# SPDX-License-Identifier: MIT
# smpstress: the multiprocessor stress test (docs/smp.md, "Tests"; test/qemu/module.mk runs it
# under -icount and on the host's clock). Only on boards with several CPUs (BOARD_MAX_CPUS).
# (user/module.mk reads this file: docs/applications.md.)
PRIO  := 100
FLAGS := KAPP_F_PRIV
# 128 KB: with tests 14-19 (st_pi.c, st_irq.c, st_local.c) its stacks and state passed 64 KB.
RAM   := 0x20000
# It inserts no user events: the board's 256-record rings (five of them) would take its
# stacks' room.
URING := 64

ifneq ($(filter-out 1,$(or $(BOARD_MAX_CPUS),1)),)
IMAGES        += smpstress
endif
smpstress_APPS := smpstress st_peer st_drv
