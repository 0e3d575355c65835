// SPDX-License-Identifier: MIT
// Host stand-in for this CPU's struct cpu (unit tests built with KMAX_CPUS > 1: test_klock):
// the CPU the test says it runs on.
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

struct cpu;
extern struct cpu *test_this_cpu;

static inline struct cpu *arch_this_cpu(void)
{
    return test_this_cpu;
}

#endif
