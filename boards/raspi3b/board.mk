# SPDX-License-Identifier: MIT
# The Raspberry Pi 3 Model B (BCM2837, Cortex-A53) and QEMU's raspi3b: the same AArch64 kernel
# as qemu-virt-a53 (kernel at EL1, programs at EL0 under the MMU, the generic timer, the PL011
# console, semihosting), with the Pi's interrupt controllers (bcm2836_intc.c) and memory map
# (board_config.h). One core: the Pi's firmware parks the others on a spin table, not PSCI.
# docs/boards.md: the SD card, config.txt, the UART pins, getting the trace off the board.
ARCH        := aarch64
include boards/common/aarch64.mk
# SEMIHOSTING=0: a build for the real board without a debug probe (docs/boards.md): program
# output to the console UART, the trace out on the mini UART (tracelogger -u), no semihosting
# exit. It shares build/raspi3b/: rebuild from clean.
SEMIHOSTING ?= 1
ifeq ($(SEMIHOSTING),0)
ARCH_CFLAGS += -DBOARD_NO_SEMIHOSTING
endif
BOARD_SRCS  := boards/common/board_data.c boards/common/board_aarch64.c boards/common/board_semihost.c \
               boards/raspi3b/bcm2836_intc.c boards/common/uart_pl011.c

# Memory plan (see board_config.h for the picture): user program slots, page-aligned.
APP_FLASH_BASE := 0x00200000
APP_FLASH_SLOT := 0x00040000
APP_RAM_BASE   := 0x00800000
APP_RAM_SLOT   := 0x00010000
APP_MAX_SLOTS  := 16

# The main thread's stack unless an app.mk says STACK (user/module.mk): 8 KB, for 4 KB of locals
# and printf of a double (752 bytes of stack) with room to spare (user/apps/fplocals measures both).
BOARD_APP_STACK := 0x2000

# The trace stream UART granted to programs (base size; the device timer's window:
# boards/common/aarch64.mk) is the mini UART (QEMU's second -serial; GPIO 14/15 on the board
# when config.txt gives the PL011 to them: docs/boards.md).
BOARD_TRACE_UART_WINDOW := 0x3f215000 0x1000

BOARD_NO_NEWLIB := 1
