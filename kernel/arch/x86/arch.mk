# SPDX-License-Identifier: MIT
# x86, 32-bit protected mode with paging: Multiboot entry, GDT/IDT/TSS, trap entry, context,
# paging, 8259 PICs and the PIT tick. See docs/x86.md.
ARCH_SRCS := kernel/arch/x86/boot.S kernel/arch/x86/entry.S kernel/arch/x86/cpu.c \
             kernel/arch/x86/context.c kernel/arch/x86/paging.c kernel/arch/x86/fault.c \
             kernel/arch/x86/pic_pit.c kernel/arch/x86/fpu.c
# stack( )/ustack( ): the ebp chain (unwind.c, docs/profiling.md), kept in kernel and programs.
ARCH_SRCS   += kernel/arch/x86/unwind.c
ARCH_CFLAGS += -fno-omit-frame-pointer
# A thread's stack guard (kernel/kcall.c, docs/hostile.md "Stack guards"): the 4 KB page at
# the bottom of its stack, no access for it while it runs (paging.c); programs and kernel alike.
KSTACK_GUARD := 4096
ARCH_CFLAGS += -DKSTACK_GUARD=$(KSTACK_GUARD)u
# Programs: GCC 12 gives a static function it calls with its local register convention no
# frame record even under -fno-omit-frame-pointer, so a sample or a fault in such a leaf lost
# its caller. -fno-toplevel-reorder keeps such functions on the ABI's convention, with their
# record (docs/profiling.md).
ARCH_UCFLAGS := -fno-toplevel-reorder
# The fault's kind, pc and address for the trace (kernel/ktrace_fault.c).
ARCH_SRCS += kernel/arch/x86/fault_where.c
# The PIT cannot tell how many periods a late tick covers: the TSC does.
ARCH_SRCS += kernel/tick_counter.c
# The profile timer (kernel/ptimer.h): the local APIC's timer.
ARCH_SRCS += kernel/arch/x86/lapic.c
# fbt (docs/fbt.md): the trap (int3, the kernel's #BP) and writing the kernel's text.
ARCH_FBT_SRCS := kernel/arch/x86/fbt_trap.c kernel/arch/x86/fbt_patch.c
ARCH_FBT_HOOKS := kernel/arch/x86/entry.S   # its kernel-fault path asks the trap
# USDT (docs/usdt.md): a program's site's trap (int3, ring 3's #BP, the thread's fault) and
# writing it.
ARCH_USDT_SRCS := kernel/arch/x86/usdt.c
# pid probes (docs/pid.md): the same int3 over a function's first byte, and the displaced
# instruction emulated on the thread's registers.
ARCH_PID_SRCS := kernel/arch/x86/pid.c
# Multiboot modules (QEMU's -initrd, GRUB's `module`) as read-only host files (kernel/bootfile.h).
ARCH_BOOTFILES := yes
