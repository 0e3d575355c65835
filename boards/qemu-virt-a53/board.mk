# SPDX-License-Identifier: MIT
# QEMU's `virt` machine with a Cortex-A53 (-cpu cortex-a53), AArch64: kernel at EL1, programs
# at EL0 under the MMU (4 KB pages), GICv2, the generic timer (tick and cycle counter), PL011
# console, semihosting for host files. See board_config.h for the memory map and
# docs/aarch64.md for the port.
ARCH        := aarch64
include boards/common/aarch64.mk
BOARD_SRCS  := boards/common/board_data.c boards/common/board_aarch64.c boards/common/board_semihost.c kernel/arch/aarch64/gicv2.c \
               boards/common/uart_pl011.c

# Up to 4 Cortex-A53s (QEMU's -smp; qemu.sh): CPUs 1-3 are started through PSCI
# (kernel/arch/aarch64/smp.c), those QEMU does not have are found absent at boot.
BOARD_MAX_CPUS := 4

# Memory plan (see board_config.h for the picture): user program slots, page-aligned.
APP_FLASH_BASE := 0x40200000
APP_FLASH_SLOT := 0x00040000
APP_RAM_BASE   := 0x40800000
APP_RAM_SLOT   := 0x00010000
APP_MAX_SLOTS  := 16

# The main thread's stack unless an app.mk says STACK (user/module.mk): 8 KB, for 4 KB of locals
# and printf of a double (752 bytes of stack) with room to spare (user/apps/fplocals measures both).
BOARD_APP_STACK := 0x2000

# The trace stream UART granted to programs (base size; the device timer's window:
# boards/common/aarch64.mk) is virt's secure PL011 (qemu.sh runs virt with secure=on and the
# kernel stays in the secure world; QEMU 7.2's virt has one non-secure UART, the console).
BOARD_TRACE_UART_WINDOW := 0x09040000 0x1000

# Debian has no newlib for AArch64: make test runs no LIBC=newlib variants on this board.
BOARD_NO_NEWLIB := 1

# D programs KDT_LOAD takes up to 256 KB (the kernel's default is 64 KB): thirteen clauses on
# every fbt probe compile to ~75 KB, and the block they go into comes from the 2 MB pool, with
# room for it (docs/fbt.md, "Heavy programs").
BOARD_KDT_OBJ_MAX := 0x40000

# make live's path (docs/live.md): kevprobe reads the kernel's buffers from the guest RAM QEMU
# shares with the host as a file, the VM never halted (LIVE_PATH=gdb: through QEMU's gdbstub,
# halting it for each read; LIVE_PATH=uart: the tracelogger's stream instead).
BOARD_LIVE_PATH := probe

# The guest RAM QEMU shares with the host under make live (QEMU_SHARED_RAM, qemu.sh): the guest
# address of the file's first byte (kevprobe file:PATH@BASE).
BOARD_SHARED_RAM := 0x40000000
