// SPDX-License-Identifier: MIT
// What the kernel-less AArch64 probes (pmu_smp.c, cntvct_smp.c) share on QEMU's virt machine:
// the generic timer's count, PSCI through HVC (CPU_ON starts another CPU), semihosting's
// SYS_WRITE0 (a string, a decimal) and SYS_EXIT, and each CPU's entry _start. Each probe is
// one file built alone (the .sh beside it), so the header holds definitions.
#ifndef A64_BARE_H
#define A64_BARE_H
#include <stdint.h>

#define PSCI_CPU_ON        0xc4000003u
#define PSCI_AFFINITY_INFO 0xc4000004u

static inline uint64_t read_vct(void)
{
    uint64_t v;
    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
    return v;
}

static inline int64_t psci(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    register uint64_t x0 __asm__("x0") = fn, x1 __asm__("x1") = a1, x2 __asm__("x2") = a2,
                      x3 __asm__("x3") = a3;
    __asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) :: "memory");
    return (int64_t)x0;
}

static inline uint64_t semihost(uint64_t op, const void *arg)
{
    register uint64_t x0 __asm__("x0") = op;
    register const void *x1 __asm__("x1") = arg;
    __asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    return x0;
}

static inline void put(const char *s) { semihost(4, s); }    // SYS_WRITE0

static inline void put_u64(uint64_t v)
{
    char b[24];
    int i = 23;
    b[i] = 0;
    do
        b[--i] = (char)('0' + v % 10u);
    while (v /= 10u);
    put(b + i);
}

// Ends the run: SYS_EXIT with ADP_Stopped_ApplicationExit and status 0 (QEMU exits).
static inline void bare_exit(void)
{
    static const uint64_t exit_block[2] = { 0x20026, 0 };
    semihost(0x18, exit_block);
}

// Each CPU's entry (QEMU's ELF entry for CPU 0, PSCI CPU_ON's for CPU 1): a stack of its
// own, 4 KB a CPU below the image's stack top, then the probe's bare_main(mpidr).
void _start(void);
void bare_main(uint64_t mpidr);
__asm__(".section .text.start, \"ax\"\n"
        ".global _start\n"
        "_start:\n"
        "  mrs x0, mpidr_el1\n"
        "  and x1, x0, #0xff\n"
        "  ldr x2, =__stack_top\n"
        "  sub x2, x2, x1, lsl #12\n"
        "  mov sp, x2\n"
        "  bl bare_main\n"
        "1: wfi\n"
        "  b 1b\n"
        ".ltorg\n"
        ".previous\n");

#endif
