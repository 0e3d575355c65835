# SPDX-License-Identifier: MIT
# The build the AArch64 boards share (qemu-virt-a53, raspi3b: each board.mk includes this after
# its ARCH): the cross tools, the code generation, picolibc's specs and the device timer's window.
# What differs between the boards (memory plan, trace UART, CPUs) stays in their board.mk.
CROSS       := aarch64-linux-gnu-
# -mgeneral-regs-only: the kernel saves the FP/SIMD registers of threads but uses none itself;
# programs are compiled without it (KERNEL_ONLY_CFLAGS, user/module.mk): a double is theirs.
# No PIE: programs and kernel are linked for fixed addresses below 4 GB (the kernel keeps user
# addresses in 32 bits). -mstrict-align: device memory and the MMU-off boot path.
# -mno-outline-atomics: atomics inline (ldxr/stxr; the user-event ring's reserve), not libgcc's
# helpers, whose LSE test reads a Linux auxv value nothing here sets.
ARCH_CFLAGS := -march=armv8-a -mgeneral-regs-only -mstrict-align -mno-outline-atomics -fno-pie -fno-pic \
               -fno-stack-protector -fno-asynchronous-unwind-tables -no-pie \
               -Wl,--no-warn-rwx-segments -Wl,-z,noexecstack \
               -Wl,-z,max-page-size=4096
KERNEL_ONLY_CFLAGS := -mgeneral-regs-only

# The device timer granted to programs (base size) is the EL1 physical timer of the generic
# timer, a system register block, not memory: the window 0x1000 0x1000 stands for it
# (arch_mpu_switch grants EL0 access to CNTP_* through CNTKCTL_EL1 while the program runs).
BOARD_DEVTIMER_WINDOW := 0x1000 0x1000

# picolibc for AArch64 (Debian's picolibc-aarch64-linux-gnu) with the Linux cross compiler
# used freestanding: the specs file is found by its path (aarch64_user.mk).
PICOLIBC_SPECS := /usr/lib/picolibc/aarch64-linux-gnu/picolibc.specs
