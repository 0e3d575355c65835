// SPDX-License-Identifier: MIT
// This CPU's own primitives, x86: the stop a panic ends in (kernel/kpanic.c) when a debugger
// is to find the CPU where it stopped: interrupts off, in a loop a debugger can halt.
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

static inline _Noreturn void arch_halt_in_place(void)
{
    for (;;)
        __asm__ volatile("cli\n\thlt" ::: "memory");
}

#endif
