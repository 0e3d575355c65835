// SPDX-License-Identifier: MIT
// No kernel: QEMU's virt machine with Cortex-A53s alone, to tell QEMU's ceiling from ours
// (docs/smp.md, "QEMU's host-clock ceiling"). Every CPU QEMU gives (1 or 2: PSCI CPU_ON starts
// the second, as kernel/arch/aarch64/smp.c does) runs the same loop at once, then CPU 0 prints
// the loops' rate in loops per second of the generic timer, which without -icount follows the
// host's clock. Two loops, chosen at build time:
//   -DREAD_CNTVCT  each iteration reads CNTVCT_EL0 (what user/lib/trace_uring.c does per event).
//                  QEMU 7.2 marks the register ARM_CP_IO and reads it through helper
//                  get_cp_reg64, which holds its global lock (the BQL) around the read: if that
//                  serialises the CPUs, 2 CPUs give about 1 x one CPU's reads per second.
//   (default)      the control: a few plain register instructions per iteration, nothing
//                  shared: 2 CPUs give about 2 x on a host with 2 free cores.
// Two more choices, for the message pairs' figure (smpbench pairs runs 1 and 2 pairs on 2 CPUs,
// each CPU taking our kernel's 1 kHz tick):
//   -DTICK         every CPU QEMU gives takes its virtual timer's interrupt (PPI 27, GICv2)
//                  once a millisecond of the host's clock, as our kernel's tick does: the
//                  interrupt, the controller's acknowledge and end, the timer re-armed. QEMU
//                  delivers each from its main-loop thread under the BQL.
//   -DACTIVE=1     with 2 CPUs, only CPU 0 runs the loop; CPU 1 waits for interrupts (the
//                  one-pair run's idle CPU). Reported as 1 CPU.
//   -DSVC          each iteration takes an exception: `svc #0`, whose handler returns at once
//                  (`eret`), the least a kernel call costs. QEMU 7.2's TCG delivers every
//                  exception (cpu_handle_exception, do_interrupt) under the BQL: if that
//                  serialises the CPUs, a kernel whose calls touch nothing shared still cannot
//                  scale its kernel calls across CPUs under QEMU. -DSVC_WORK=N adds N
//                  iterations of the control loop's two instructions after each call (the
//                  work of a kernel call that shares nothing).
//   -DSVC -DTICK   both: the calls, and every CPU's 1 kHz timer interrupt (our kernel's tick),
//                  whose delivery from QEMU's main-loop thread also takes the BQL.
// Prints "cpus N loops L ticks T hz F" over semihosting and exits. Built and run by
// cntvct_smp.sh.
#include <stdint.h>
#include "a64_bare.h"

#ifndef LOOPS
#define LOOPS 4000000u
#endif
#ifndef SVC_WORK
#define SVC_WORK 0u
#endif
#define MAX_CPUS 2
#ifndef ACTIVE
#define ACTIVE MAX_CPUS
#endif

// Shared between the CPUs with plain volatile accesses and barriers: the MMU is off, so all
// data is Device memory, where exclusives are not to be relied on.
static volatile uint32_t started, go, done;
static volatile uint64_t t_begin[MAX_CPUS], t_end[MAX_CPUS], sink[MAX_CPUS];
volatile uint64_t tick_count[MAX_CPUS];     // written by irq_tick (below)

#ifdef TICK
#define GICD 0x08000000ul
#define GICC 0x08010000ul
#define PPI_VTIMER 27u

static inline void mmio_w32(unsigned long a, uint32_t v) { *(volatile uint32_t *)a = v; }

// This CPU's virtual timer interrupts it once a millisecond from now on (irq_tick re-arms it).
static void tick_start(unsigned cpu)
{
    extern char tick_vectors[];
    uint64_t hz;
    if (cpu == 0)
        mmio_w32(GICD + 0x000, 1u);                 // GICD_CTLR: forward interrupts
    mmio_w32(GICD + 0x100, 1u << PPI_VTIMER);       // GICD_ISENABLER0 (banked per CPU)
    mmio_w32(GICC + 0x004, 0xffu);                  // GICC_PMR: every priority
    mmio_w32(GICC + 0x000, 1u);                     // GICC_CTLR: signal them
    __asm__ volatile("msr vbar_el1, %0; isb" :: "r"(tick_vectors));
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    __asm__ volatile("msr cntv_tval_el0, %0; msr cntv_ctl_el0, %1; isb; msr daifclr, #2"
                     :: "r"(hz / 1000u), "r"(1ul) : "memory");
}
#elif defined(SVC)
static void tick_start(unsigned cpu)
{
    extern char tick_vectors[];
    (void)cpu;
    __asm__ volatile("msr vbar_el1, %0; isb" :: "r"(tick_vectors));
}
#else
static void tick_start(unsigned cpu) { (void)cpu; }
#endif

// The measured loop: LOOPS iterations, between two reads of the counter.
static void run(unsigned cpu)
{
    uint64_t acc = cpu;
    t_begin[cpu] = read_vct();
    for (uint32_t i = 0; i < LOOPS; i++) {
#ifdef READ_CNTVCT
        uint64_t v;
        __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
        acc += v;
#elif defined(SVC)
        __asm__ volatile("svc #0" ::: "memory");
        acc += i;
        for (uint32_t w = 0; w < SVC_WORK; w++)     // the kernel's own work per call
            __asm__ volatile("add %0, %0, %1\n\teor %0, %0, %1, lsl #3" : "+r"(acc) : "r"((uint64_t)w));
#else
        __asm__ volatile("add %0, %0, %1\n\teor %0, %0, %1, lsl #3" : "+r"(acc) : "r"((uint64_t)i));
#endif
    }
    t_end[cpu] = read_vct();
    sink[cpu] = acc;
}

void bare_main(uint64_t mpidr)
{
    unsigned cpu = (unsigned)(mpidr & 0xffu);
    if (cpu != 0) {
        tick_start(cpu);
        started = 1;
        while (!go)
            ;
        __asm__ volatile("dmb sy" ::: "memory");
        if (cpu < ACTIVE)
            run(cpu);
        __asm__ volatile("dmb sy" ::: "memory");
        done = 1;
        for (;;)
            __asm__ volatile("wfi");
    }
    tick_start(0);
    unsigned ncpus = 1;
    if (MAX_CPUS > 1 && psci(PSCI_AFFINITY_INFO, 1, 0, 0) >= 0 &&
        psci(PSCI_CPU_ON, 1, (uint64_t)(uintptr_t)_start, 0) == 0) {
        while (!started)
            ;
        ncpus = ACTIVE < 2 ? 1 : 2;
    }
    __asm__ volatile("dmb sy" ::: "memory");
    go = 1;
    run(0);
    while (ncpus > 1 && !done)
        ;
    __asm__ volatile("dmb sy" ::: "memory");
    uint64_t lo = t_begin[0], hi = t_end[0], hz;
    for (unsigned c = 1; c < ncpus; c++) {
        if (t_begin[c] < lo) lo = t_begin[c];
        if (t_end[c] > hi) hi = t_end[c];
    }
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    put("cpus "); put_u64(ncpus);
    put(" loops "); put_u64((uint64_t)LOOPS * ncpus);
    put(" ticks "); put_u64(hi - lo);
    put(" hz "); put_u64(hz);
    put(" timer_irqs "); put_u64(tick_count[0] + tick_count[1]);
    put("\n");
    bare_exit();
}

// The vector table of -DTICK and -DSVC: the IRQ from the current level (offset 0x280)
// acknowledges the interrupt at the GIC's CPU interface, re-arms the virtual timer a
// millisecond on, counts it in tick_count[cpu] and ends it; -DSVC's synchronous exception from
// the current level (0x200, its svc) returns past it; every other vector stops where it is.
#ifdef SVC
#define SYNC_CURRENT "  eret\n"
#else
#define SYNC_CURRENT "  b .\n"
#endif
__asm__(".section .text.vectors, \"ax\"\n"
        ".balign 2048\n"
        ".global tick_vectors\n"
        "tick_vectors:\n"
        ".rept 4\n"
        "  b .\n"
        "  .balign 0x80\n"
        ".endr\n"
        SYNC_CURRENT
        "  .balign 0x80\n"
        "  b irq_tick\n"
        "  .balign 0x80\n"
        ".rept 10\n"
        "  b .\n"
        "  .balign 0x80\n"
        ".endr\n"
        "irq_tick:\n"
        "  stp x0, x1, [sp, #-32]!\n"
        "  stp x2, x3, [sp, #16]\n"
        "  ldr x0, =0x08010000\n"
        "  ldr w1, [x0, #0x0c]\n"          // GICC_IAR
        "  mrs x2, cntfrq_el0\n"
        "  mov x3, #1000\n"
        "  udiv x2, x2, x3\n"
        "  msr cntv_tval_el0, x2\n"
        "  mrs x2, mpidr_el1\n"
        "  and x2, x2, #0xff\n"
        "  ldr x3, =tick_count\n"
        "  add x3, x3, x2, lsl #3\n"
        "  ldr x2, [x3]\n"
        "  add x2, x2, #1\n"
        "  str x2, [x3]\n"
        "  str w1, [x0, #0x10]\n"          // GICC_EOIR
        "  ldp x2, x3, [sp, #16]\n"
        "  ldp x0, x1, [sp], #32\n"
        "  eret\n"
        ".ltorg\n"
        ".previous\n");
