# SPDX-License-Identifier: MIT
# ARMv7-M (Cortex-M3/M4): exception entry, context switch, MPU, SysTick.
ARCH_SRCS := kernel/arch/armv7m/vectors.c kernel/arch/armv7m/entry.S \
             kernel/arch/armv7m/context.c kernel/arch/armv7m/mpu.c kernel/arch/armv7m/fault.c \
             kernel/arch/armv7m/systick.c kernel/arch/armv7m/semihost.c kernel/arch/armv7m/nvic.c \
             kernel/arch/armv7m/entry_select.c
# stack( )/ustack( ) unwind with the EHABI tables (unwind.c, docs/profiling.md): the kernel
# and programs are built with them, and programs keep them (ldscripts/app-exidx.ld).
ARCH_SRCS      += kernel/arch/armv7m/ehabi.c kernel/arch/armv7m/unwind.c
ARCH_CFLAGS    += -funwind-tables
# A thread's stack guard (kernel/kcall.c, docs/hostile.md "Stack guards"): the 128 bytes at the
# bottom of its stack, an MPU region no access for it while it runs (mpu.c: region 6); as
# large as the frames the guard is sure to stop (a smaller region would let a 128-byte frame
# that touches one word step over it); programs and kernel alike.
KSTACK_GUARD   := 128
ARCH_CFLAGS    += -DKSTACK_GUARD=$(KSTACK_GUARD)u
# A board that runs no dtrace (BOARD_NO_IMAGES, e.g. netduinoplus2's 32 KB slots) keeps its
# programs' flash: no tables there (picolibc's script with the build id alone).
APP_PICOLIBC_LD = ldscripts/$(if $(filter dtrace,$(BOARD_NO_IMAGES)),app-picolibc.ld,app-exidx.ld)
# The fault's kind, pc and address for the trace (kernel/ktrace_fault.c).
ARCH_SRCS += kernel/arch/armv7m/fault_where.c
# SysTick cannot tell how many periods a late tick covers: the board's counter does.
ARCH_SRCS += kernel/tick_counter.c
# fbt (docs/fbt.md): the trap (udf, taken as a UsageFault) and writing the kernel's text.
ARCH_FBT_SRCS := kernel/arch/armv7m/fbt_trap.c kernel/arch/armv7m/fbt_patch.c
ARCH_FBT_HOOKS := kernel/arch/armv7m/entry.S   # its kernel-fault path asks the trap
# USDT (docs/usdt.md): a program's site's trap (udf, the thread's UsageFault) and writing it;
# pid probes (docs/pid.md): their trap and the displaced instruction's emulation.
ARCH_USDT_SRCS := kernel/arch/armv7m/usdt.c
ARCH_PID_SRCS  := kernel/arch/armv7m/pid.c
