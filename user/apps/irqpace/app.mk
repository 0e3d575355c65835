# SPDX-License-Identifier: MIT
# irqpace: a level line raised at a known pace and served through the normal driver path, for
# the interrupt-rate test on a board whose device timer keeps no rate (netduinoplus2:
# test/qemu/test_irqrate.sh; docs/interrupts.md). Only where the board has such a line
# (BOARD_SWLINE_WINDOW in its board.mk, SWLINE_IRQ in its board_user.h).
PRIO  := 50
FLAGS := KAPP_F_IO
MMIO  := $(BOARD_SWLINE_WINDOW)

IMAGES           += $(if $(BOARD_SWLINE_WINDOW),irqpacetest)
irqpacetest_APPS := appinit irqpace tracelogger
