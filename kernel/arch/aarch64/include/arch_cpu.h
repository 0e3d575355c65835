// SPDX-License-Identifier: MIT
// This CPU's struct cpu (kernel/cpu.h), AArch64: TPIDR_EL1 holds its address, set once when the
// CPU starts (cpu.c, smp.c); programs cannot read it (EL0 has TPIDR_EL0 only).
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

struct cpu;

static inline struct cpu *arch_this_cpu(void)
{
    struct cpu *c;
    __asm__("mrs %0, tpidr_el1" : "=r"(c));
    return c;
}

#endif
