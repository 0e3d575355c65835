# SPDX-License-Identifier: MIT
# ARM MPS2 with the AN385 FPGA image: a Cortex-M3 at 25 MHz. QEMU models it as `mps2-an385`.
ARCH        := armv7m
ARCH_CFLAGS := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
BOARD_SRCS  := boards/common/board_data.c boards/common/board_semihost.c \
               boards/mps2-an385/board.c boards/mps2-an385/uart_cmsdk.c \
               boards/mps2-an385/timer_cmsdk.c

# Memory plan (see board.h for the picture): user program slots.
APP_FLASH_BASE := 0x00080000
APP_FLASH_SLOT := 0x00020000
APP_RAM_BASE   := 0x20040000
APP_RAM_SLOT   := 0x00008000
APP_MAX_SLOTS  := 28

# The main thread's stack unless an app.mk says STACK (user/module.mk): 8 KB, for 4 KB of locals
# and printf of a double (388 bytes of stack) with room to spare (user/apps/fplocals measures both).
BOARD_APP_STACK := 0x2000

# How QEMU boots an image: boards/mps2-an385/qemu.sh (used by scripts/qemu-run.sh).

# Device windows granted to programs (base size): the device timer (the demo's driver and
# ktest), the UART that carries the trace stream (tracelogger -u) and the UART free for a
# program (UART 2, QEMU's third -serial: docs/boards.md, "Devices for programs"). See
# board_user.h.
BOARD_DEVTIMER_WINDOW   := 0x40000000 0x1000
BOARD_TRACE_UART_WINDOW := 0x40005000 0x1000
BOARD_USER_UART_WINDOW  := 0x40006000 0x1000

# D programs KDT_LOAD takes up to 128 KB (the kernel's default is 64 KB): thirteen clauses on
# every fbt probe compiled on the host measure 65,232 bytes, 304 under 64 KB, and grow with every
# probed kernel function; a hundred clauses (~260 KB) are still refused. The block
# comes from the 2 MB pool, with room for it (docs/fbt.md, "Heavy programs").
BOARD_KDT_OBJ_MAX := 0x20000

# make live's path (docs/live.md): kevprobe reads the kernel's buffers from the guest RAM QEMU
# shares with the host as a file, the VM never halted (LIVE_PATH=gdb: through QEMU's gdbstub,
# halting it for each read; LIVE_PATH=uart: the tracelogger's stream instead).
BOARD_LIVE_PATH := probe

# The guest RAM QEMU shares with the host under make live (QEMU_SHARED_RAM, qemu.sh): the guest
# address of the file's first byte (kevprobe file:PATH@BASE).
BOARD_SHARED_RAM := 0x21000000
