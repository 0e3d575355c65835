# SPDX-License-Identifier: MIT
# A PC as QEMU's `pc` machine models it, 32-bit protected mode with paging: booted by QEMU's
# -kernel through Multiboot v1 (so GRUB can boot the same image), PIT tick, TSC cycle counter,
# 16550 console on COM1, trace stream on COM2. See board_config.h for the memory map and
# docs/x86.md for the whole port.
ARCH        := x86
CROSS       := i686-linux-gnu-
# -mgeneral-regs-only: the kernel uses no x87/SSE register; it gives each thread its own, lazily
# (kernel/arch/x86/fpu.c), so programs are compiled without the flag (KERNEL_ONLY_CFLAGS,
# user/module.mk) and may compute with doubles. -malign-double: 64-bit fields aligned on 8 as on ARM (the trace and D formats
# assume it). No PIE: programs and kernel are linked for fixed addresses.
ARCH_CFLAGS := -m32 -march=i686 -malign-double -mgeneral-regs-only -fno-pie -fno-pic -fno-stack-protector \
               -fno-asynchronous-unwind-tables -fcf-protection=none -no-pie \
               -Wl,--no-warn-rwx-segments -Wl,-z,noexecstack
KERNEL_ONLY_CFLAGS := -mgeneral-regs-only
BOARD_SRCS  := boards/common/board_data.c boards/x86-pc/board.c boards/x86-pc/uart16550.c boards/x86-pc/pit_tsc.c

# Memory plan (see board_config.h for the picture): user program slots. RAM slots are
# page-aligned (paging maps them one page at a time). Eight slots of 256 KB: the board's
# dtrace (compiler, preprocessor and consumer, i686 code) is over 128 KB, and no image holds
# more than eight programs.
APP_FLASH_BASE := 0x00200000
APP_FLASH_SLOT := 0x00040000
APP_RAM_BASE   := 0x00500000
APP_RAM_SLOT   := 0x00010000
APP_MAX_SLOTS  := 8

# The main thread's stack unless an app.mk says STACK (user/module.mk): 8 KB, for 4 KB of locals
# and printf (584 bytes of stack for its %f, which this runtime prints as written) with room to
# spare (user/apps/fplocals measures both).
BOARD_APP_STACK := 0x2000
APP_RAM_END    := 0x00700000   # the last megabyte: dtrace's own slot (user.mk)

# Device windows granted to programs: on x86 a window below 0x10000 is a range of I/O ports
# (granted through the TSS I/O permission bitmap while the program runs). The device timer
# is the RTC's periodic interrupt (ports 0x70-0x71, IRQ 8); the trace stream UART is COM2.
BOARD_DEVTIMER_WINDOW   := 0x70 0x2
BOARD_TRACE_UART_WINDOW := 0x2f8 0x8

# Programs use the project's own freestanding C runtime (user/arch/x86/libc): Debian has no
# x86 bare-metal picolibc or newlib. See boards/x86-pc/user.mk.
BOARD_LIBC_DEFAULT := board
BOARD_NO_NEWLIB    := 1
BOARD_NO_PICOLIBC  := 1
# (Recursive `=`: $(CC) is set after this file is read.)
BOARD_LIBC_CFLAGS   = -ffreestanding -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
                      -isystem user/arch/x86/libc/include
BOARD_ULDFLAGS      = $(ARCH_CFLAGS) -nostdlib -nostartfiles -static -Wl,--gc-sections \
                      -T user/arch/x86/app.ld
BOARD_USER_LIB_SRCS := user/arch/x86/libc/stdio.c user/arch/x86/libc/string.c \
                       user/arch/x86/libc/stdlib.c user/arch/x86/libc/crt.c \
                       user/arch/x86/libc/posix.c user/arch/x86/libc/setjmp.c \
                       user/arch/x86/libc/ctype.c user/lib/ufmt.c
BOARD_TRACE_STORAGE := uart   # no semihosting: make run captures the trace from COM2

# D programs KDT_LOAD takes up to 256 KB (the kernel's default is 64 KB): thirteen clauses on
# every fbt probe compile to ~75 KB, and the block they go into comes from the 2 MB pool, with
# room for it (docs/fbt.md, "Heavy programs").
BOARD_KDT_OBJ_MAX := 0x40000
