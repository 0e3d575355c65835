// SPDX-License-Identifier: MIT
// This CPU's own primitives, ARMv7-M: the stop a panic ends in (kernel/kpanic.c) when a debugger
// is to find the CPU where it stopped: interrupts off, in a loop a debugger can halt.
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

static inline _Noreturn void arch_halt_in_place(void)
{
    __asm__ volatile("cpsid i" ::: "memory");
    for (;;)
        __asm__ volatile("wfi");
}

#endif
