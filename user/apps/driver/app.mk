# SPDX-License-Identifier: MIT
# driver: the demo's device driver (the device timer's interrupt) (user/module.mk reads this file: docs/applications.md).
PRIO  := 40
FLAGS := KAPP_F_IO
MMIO  := $(BOARD_DEVTIMER_WINDOW)
