# SPDX-License-Identifier: MIT
# AArch64 (ARMv8-A): kernel at EL1, programs at EL0 under the MMU with 4 KB pages. Boot from
# EL2 or EL1, exception vectors and trap entry, contexts, the MMU, interrupt lines and the
# generic timer's tick (the board adds its interrupt controller), semihosting, SMP. See docs/aarch64.md.
ARCH_SRCS := kernel/arch/aarch64/boot.S kernel/arch/aarch64/entry.S kernel/arch/aarch64/cpu.c \
             kernel/arch/aarch64/context.c kernel/arch/aarch64/mmu.c kernel/arch/aarch64/fault.c \
             kernel/arch/aarch64/irq_timer.c kernel/arch/aarch64/semihost.c \
             kernel/arch/aarch64/smp.c kernel/arch/aarch64/entry_select.c
# stack( )/ustack( ): frame records (unwind.c, docs/profiling.md), kept in kernel and programs;
# in programs' leaf functions too (a kernel-call stub is a leaf: without its record its caller
# is lost), not in the kernel's (its walk starts in a caller, arch_unwind_kernel).
ARCH_SRCS    += kernel/arch/aarch64/unwind.c
ARCH_CFLAGS  += -fno-omit-frame-pointer
# Each CPU's user translation table in its struct cpu (kernel/cpu.h user_root; entry.S, mmu.c).
ARCH_CFLAGS  += -DKCPU_USER_ROOT
# A thread's stack guard (kernel/kcall.c, docs/hostile.md "Stack guards"): the 4 KB page at
# the bottom of its stack, no access for it while it runs (mmu.c); programs and kernel alike.
KSTACK_GUARD := 4096
ARCH_CFLAGS  += -DKSTACK_GUARD=$(KSTACK_GUARD)u
ARCH_UCFLAGS := -mno-omit-leaf-frame-pointer
# The fault's kind, pc and address for the trace (kernel/ktrace_fault.c).
ARCH_SRCS += kernel/arch/aarch64/fault_where.c
# fbt (docs/fbt.md): the trap (brk, taken as the kernel's synchronous exception) and writing the
# kernel's text.
ARCH_FBT_SRCS := kernel/arch/aarch64/fbt_trap.c kernel/arch/aarch64/fbt_patch.c
ARCH_FBT_HOOKS := kernel/arch/aarch64/entry.S   # its kernel-fault path asks the trap
# USDT (docs/usdt.md): a program's site's trap (brk, the thread's synchronous exception from
# EL0) and writing it on the kernel's table; pid probes (docs/pid.md): their trap and the
# displaced instruction's emulation.
ARCH_USDT_SRCS := kernel/arch/aarch64/usdt.c
ARCH_PID_SRCS  := kernel/arch/aarch64/pid.c
