# SPDX-License-Identifier: MIT
# smpstress: the multiprocessor stress test (docs/smp.md, "Tests"; test/qemu/module.mk runs it
# under -icount and on the host's clock). Only on boards with several CPUs (BOARD_MAX_CPUS).
# (user/module.mk reads this file: docs/applications.md.)
PRIO  := 100
FLAGS := KAPP_F_PRIV|KAPP_F_TRACE
# 128 KB: with tests 14-19 (st_pi.c, st_irq.c, st_local.c) its stacks and state passed 64 KB.
# RAM: some 40 thread stacks, two pages each or more under an MMU.
RAM   := $(call paged_guard,0x20000,0x80000)
# It inserts no user events: the board's 256-record rings (five of them) would take its
# stacks' room.
URING := 64

IMAGES        += $(call smp_only,smpstress)
smpstress_APPS := smpstress st_peer st_drv

# The same under dtrace, traced, for its cross-CPU wake-ups live and over their capture
# (test/qemu/test_states_cpus.sh): dtrace -c appinit, which starts the tracelogger and then
# smpstress with the part the command line names (as make dtrace APPS=smpstress).
IMAGES          += $(call smp_only,$(if $(filter dtrace,$(BOARD_NO_IMAGES)),,smpstressd))
smpstressd_APPS := dtrace appinit smpstress st_peer st_drv tracelogger
