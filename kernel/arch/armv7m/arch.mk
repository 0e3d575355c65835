# SPDX-License-Identifier: MIT
# ARMv7-M (Cortex-M3/M4): exception entry, context switch, MPU, SysTick.
ARCH_SRCS := kernel/arch/armv7m/vectors.c kernel/arch/armv7m/entry.S \
             kernel/arch/armv7m/context.c kernel/arch/armv7m/mpu.c kernel/arch/armv7m/fault.c \
             kernel/arch/armv7m/systick.c kernel/arch/armv7m/semihost.c kernel/arch/armv7m/nvic.c
