# SPDX-License-Identifier: MIT
# st_drv: smpstress's device driver process (test 14, user/apps/smpstress/st_irq.c): the board's
# device timer through the normal driver path, its interrupts and unmasks counted against the
# kernel's exclusive entries (user/module.mk reads this file: docs/applications.md). It holds
# the device-timer window, so the kernel binds its threads to CPU 0, whose timer it is.
PRIO  := 60
FLAGS := KAPP_F_IO
MMIO  := $(BOARD_DEVTIMER_WINDOW)
