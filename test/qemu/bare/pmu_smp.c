// SPDX-License-Identifier: MIT
// No kernel: whether QEMU's PMU counts a CPU's own instructions when the CPUs run in turn
// (docs/analysis.md, "CPU time when the CPUs run in turn"). Under -icount QEMU runs one virtual
// CPU at a time and its clock is every CPU's instructions; a PMU counting each CPU's retired
// instructions (event 0x08, INST_RETIRED) would give each thread's executed share at a switch.
// Each CPU QEMU gives (1 or 2; PSCI CPU_ON starts the second) enables event counter 0 on
// INST_RETIRED and the cycle counter, then runs LOOPS iterations of a fixed loop, a YIELD every
// 1024 (which ends its turn: the CPUs interleave), reading the counters and CNTVCT_EL0 before
// and after. CPU 0 prints, over semihosting, "cpu C loops L inst I cycles Y vct V" per CPU and
// exits. Built and run by pmu_smp.sh.
#include <stdint.h>
#include "a64_bare.h"

#define LOOPS      2000000u
#define MAX_CPUS   2

// Shared between the CPUs with plain volatile accesses and barriers (the MMU is off).
static volatile uint32_t started, go, done;
static volatile uint64_t d_inst[MAX_CPUS], d_cyc[MAX_CPUS], d_vct[MAX_CPUS];

static inline uint64_t read_inst(void)
{
    uint64_t v;
    __asm__ volatile("isb; mrs %0, pmevcntr0_el0" : "=r"(v) :: "memory");
    return v;
}

static inline uint64_t read_cyc(void)
{
    uint64_t v;
    __asm__ volatile("isb; mrs %0, pmccntr_el0" : "=r"(v) :: "memory");
    return v;
}

// This CPU's PMU: event counter 0 on INST_RETIRED, the cycle counter, both counting at every
// exception level; PMCR: enable, reset both.
static void pmu_start(void)
{
    __asm__ volatile("msr pmevtyper0_el0, %0\n\t"
                     "msr pmccfiltr_el0, xzr\n\t"
                     "msr pmcntenset_el0, %1\n\t"
                     "msr pmcr_el0, %2\n\t"
                     "isb"
                     :: "r"(0x08ul), "r"((1ul << 31) | 1ul), "r"(0x7ul) : "memory");
}

// The measured loop: LOOPS iterations, a YIELD every 1024.
static void run(unsigned cpu)
{
    uint64_t acc = cpu, i0 = read_inst(), c0 = read_cyc(), v0 = read_vct();
    for (uint32_t i = 0; i < LOOPS; i++) {
        if ((i & 1023u) == 0)
            __asm__ volatile("yield");
        __asm__ volatile("add %0, %0, %1\n\teor %0, %0, %1, lsl #3" : "+r"(acc) : "r"((uint64_t)i));
    }
    uint64_t i1 = read_inst(), c1 = read_cyc(), v1 = read_vct();
    d_inst[cpu] = i1 - i0;
    d_cyc[cpu] = c1 - c0;
    d_vct[cpu] = v1 - v0 + (acc & 0);
}

void bare_main(uint64_t mpidr)
{
    unsigned cpu = (unsigned)(mpidr & 0xffu);
    pmu_start();
    if (cpu != 0) {
        started = 1;
        while (!go)
            __asm__ volatile("yield");
        __asm__ volatile("dmb sy" ::: "memory");
        run(cpu);
        __asm__ volatile("dmb sy" ::: "memory");
        done = 1;
        for (;;)
            __asm__ volatile("wfi");
    }
    unsigned ncpus = 1;
    if (MAX_CPUS > 1 && psci(PSCI_CPU_ON, 1, (uint64_t)(uintptr_t)_start, 0) == 0) {
        while (!started)
            __asm__ volatile("yield");
        ncpus = 2;
    }
    __asm__ volatile("dmb sy" ::: "memory");
    go = 1;
    run(0);
    while (ncpus > 1 && !done)
        __asm__ volatile("yield");
    __asm__ volatile("dmb sy" ::: "memory");
    for (unsigned c = 0; c < ncpus; c++) {
        put("cpu "); put_u64(c);
        put(" loops "); put_u64(LOOPS);
        put(" inst "); put_u64(d_inst[c]);
        put(" cycles "); put_u64(d_cyc[c]);
        put(" vct "); put_u64(d_vct[c]);
        put("\n");
    }
    bare_exit();
}
