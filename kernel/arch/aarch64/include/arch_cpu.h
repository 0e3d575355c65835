// SPDX-License-Identifier: MIT
// This CPU's own primitives, AArch64: its struct cpu (kernel/cpu.h; TPIDR_EL1 holds its
// address, set once when the CPU starts, cpu.c and smp.c; programs cannot read it: EL0 has
// TPIDR_EL0 only), a spin's hint, and the stop a panic ends in (kernel/kpanic.c) when a
// debugger is to find the CPU where it stopped: interrupts off, in a loop a debugger can halt.
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

struct cpu;

static inline struct cpu *arch_this_cpu(void)
{
    struct cpu *c;
    __asm__("mrs %0, tpidr_el1" : "=r"(c));
    return c;
}

// A hint that this CPU only spins (a thread's ThreadYield that may find nothing else to run):
// YIELD lets a core that shares its pipeline, or a hypervisor or emulator running virtual CPUs
// in turn, give the time to another. (QEMU's -icount runs the CPUs one at a time and ends this
// one's turn there: without it a CPU whose threads yield in a loop keeps its whole turn while
// the others wait.)
static inline void arch_spin_hint(void)
{
    __asm__ volatile("yield" ::: "memory");
}

static inline _Noreturn void arch_halt_in_place(void)
{
    __asm__ volatile("msr daifset, #0xf" ::: "memory");
    for (;;)
        __asm__ volatile("wfi");
}

#endif
