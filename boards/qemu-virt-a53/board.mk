# SPDX-License-Identifier: MIT
# QEMU's `virt` machine with a Cortex-A53 (-cpu cortex-a53), AArch64: kernel at EL1, programs
# at EL0 under the MMU (4 KB pages), GICv2, the generic timer (tick and cycle counter), PL011
# console, semihosting for host files. See board_config.h for the memory map and
# docs/aarch64.md for the port.
ARCH        := aarch64
CROSS       := aarch64-linux-gnu-
# -mgeneral-regs-only: the kernel saves the FP/SIMD registers of threads but uses none itself.
# No PIE: programs and kernel are linked for fixed addresses below 4 GB (the kernel keeps user
# addresses in 32 bits). -mstrict-align: device memory and the MMU-off boot path.
# -mno-outline-atomics: atomics inline (ldxr/stxr; the user-event ring's reserve), not libgcc's
# helpers, whose LSE test reads a Linux auxv value nothing here sets.
ARCH_CFLAGS := -march=armv8-a -mgeneral-regs-only -mstrict-align -mno-outline-atomics -fno-pie -fno-pic \
               -fno-stack-protector -fno-asynchronous-unwind-tables -no-pie \
               -Wl,--no-warn-rwx-segments -Wl,-z,noexecstack \
               -Wl,-z,max-page-size=4096
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

# Device windows granted to programs (base size). The device timer is the EL1 physical timer
# of the generic timer, a system register block, not memory: the window 0x1000 0x1000 stands
# for it (arch_mpu_switch grants EL0 access to CNTP_* through CNTKCTL_EL1 while the program
# runs). The trace stream UART is virt's secure PL011 (qemu.sh runs virt with secure=on and the
# kernel stays in the secure world; QEMU 7.2's virt has one non-secure UART, the console).
BOARD_DEVTIMER_WINDOW   := 0x1000 0x1000
BOARD_TRACE_UART_WINDOW := 0x09040000 0x1000

# picolibc for AArch64 (Debian's picolibc-aarch64-linux-gnu) with the Linux cross compiler
# used freestanding: the specs file is found by its path.
PICOLIBC_SPECS := /usr/lib/picolibc/aarch64-linux-gnu/picolibc.specs
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
