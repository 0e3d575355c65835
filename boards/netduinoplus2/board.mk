# SPDX-License-Identifier: MIT
# Netduino Plus 2: an STM32F405RG (Cortex-M4F, 1 MB flash, 128 KB SRAM + 64 KB CCM), run from
# its 16 MHz internal oscillator. QEMU models it as `netduinoplus2`. Flashing and tracing on
# the real board: docs/boards.md.
ARCH        := armv7m
# The FPU stays off (CPACR): the context switch saves no FP registers, so programs are built
# soft-float and any FP instruction would fault.
ARCH_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft
# SEMIHOSTING=0: a build that runs free of a debug probe (docs/boards.md): program output to
# the console UART, no semihosting exit. It shares build/netduinoplus2/: rebuild from clean.
SEMIHOSTING ?= 1
ifeq ($(SEMIHOSTING),0)
ARCH_CFLAGS += -DBOARD_NO_SEMIHOSTING
endif
# Its kernel runs from flash, which the fbt provider cannot rewrite (docs/fbt.md, "Boards").
BOARD_NO_FBT := kernel text in flash
# No incident region (board_config.h, docs/incidents.md): the tracelogger leaves its writers out.
BOARD_NO_INCIDENT := 1
BOARD_SRCS  := boards/common/board_data.c boards/common/board_semihost.c \
               boards/netduinoplus2/board.c boards/netduinoplus2/uart_stm32.c \
               boards/netduinoplus2/timer_stm32.c

# Memory plan (board_config.h has the picture). Seven programs at most: their RAM slots of
# 8 KB fill the 56 KB between the kernel's 40 KB and the 32 KB trace pool (user.mk picks the
# seven). Flash slots of 32 KB after the kernel's 128 KB (flash sectors 0-4).
APP_FLASH_BASE := 0x08020000
APP_FLASH_SLOT := 0x00008000
APP_RAM_BASE   := 0x2000a000
APP_RAM_SLOT   := 0x00002000
APP_MAX_SLOTS  := 7

# The main thread's stack unless an app.mk says STACK (user/module.mk): 2 KB of the 8 KB slots,
# room for printf of a double (388 bytes of stack; user/apps/fplocals measures it) and small
# locals; a program with KBs of locals says STACK (and RAM) in its app.mk.
BOARD_APP_STACK := 0x800
# The kernel's 40 KB has no room for the default 256-byte console line per process (16 of
# them): lines over 95 characters are cut (kernel/include/kernel/proc.h).
BOARD_CONSOLE_LINE := 96
# dtrace: the D consumer and its engine do not fit a 32 KB flash slot and 8 KB of RAM here;
# use `dtrace -i` on a captured trace (docs/applications.md). Set here, before the programs'
# app.mk are read, so that those deciding an image or a bench by it (stackbench's) see it.
BOARD_NO_IMAGES     := dtrace
BOARD_NO_IMAGES_WHY := the target's dtrace does not fit this chip (32 KB flash slots, 56 KB of program RAM): capture with make run and probe the trace with build/host/dtrace -i
# ktest's image fills the 56 KB of program RAM (ktest and kt_smp 16 KB each, three 8 KB
# helpers): the late tick's checks (kt_tick) have no slot left; mps2-an385 runs them on the same
# SysTick and counter code (kernel/tick_counter.c).
BOARD_NO_APPS := kt_tick

# How QEMU boots an image: boards/netduinoplus2/qemu.sh (used by scripts/qemu-run.sh).

# Device windows granted to programs (base size): TIM3, the device timer (the demo's driver),
# and USART2, the trace stream UART (tracelogger -u). See board_user.h.
BOARD_DEVTIMER_WINDOW   := 0x40000400 0x400
BOARD_TRACE_UART_WINDOW := 0x40004400 0x400
# USART3, whose transmission-complete interrupt is the level line user/apps/irqpace raises
# and lowers itself (board_user.h: SWLINE_IRQ).
BOARD_SWLINE_WINDOW     := 0x40004800 0x400
