# SPDX-License-Identifier: MIT
# ktest: the kernel's test suite (pid 1 of the ktest image, prints TAP) (user/module.mk reads this file: docs/applications.md).
PRIO  := 100
FLAGS := KAPP_F_IO|KAPP_F_TRACE|KAPP_F_PRIV|KAPP_F_HOSTFS
EXTRA := user/lib/tap.c
MMIO  := $(BOARD_DEVTIMER_WINDOW)
# 8 KB of thread stacks and its own stack: more than one small RAM slot.
# RAM: 8 thread stacks, two pages each or more under an MMU.
RAM   := $(call paged_guard,0x4000,0x20000)

IMAGES     += ktest
ktest_APPS := ktest kt_peer kt_fault kt_qnx kt_smp kt_tick
