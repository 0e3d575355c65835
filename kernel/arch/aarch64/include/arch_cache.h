// SPDX-License-Identifier: MIT
// The data cache seen from outside the CPUs (kernel/include/kernel/trace_port_kernel.h's
// trace_port_publish and trace_port_fetch): a debug probe's system-bus access port (OpenOCD's
// mem_ap target on a Cortex-A) reads and writes memory around the Cortex-A53's caches. What the
// kernel stored for such a reader is cleaned to the point of coherency (DC CVAC, line by line,
// then DSB SY: every line in memory before a later store); what the reader wrote is read after
// its lines are cleaned and invalidated (DC CIVAC: a line that also holds the kernel's own words
// keeps them). The line size is the smallest data cache line of the system (CTR_EL0.DminLine).
// QEMU models no cache: these instructions cost their count there and change nothing.
#ifndef ARCH_CACHE_H
#define ARCH_CACHE_H

#include <stddef.h>
#include <stdint.h>

#define ARCH_DCACHE 1       // a cache stands between the CPUs and a system-bus reader

static inline uintptr_t arch_dcache_line(void)
{
    uint64_t ctr;
    __asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
    return (uintptr_t)4u << ((ctr >> 16) & 0xfu);
}

static inline void arch_dcache_publish(const void *p, size_t n)
{
    uintptr_t line = arch_dcache_line(), end = (uintptr_t)p + n;
    for (uintptr_t a = (uintptr_t)p & ~(line - 1u); a < end; a += line)
        __asm__ volatile("dc cvac, %0" :: "r"(a) : "memory");
    __asm__ volatile("dsb sy" ::: "memory");
}

static inline void arch_dcache_fetch(const void *p, size_t n)
{
    uintptr_t line = arch_dcache_line(), end = (uintptr_t)p + n;
    for (uintptr_t a = (uintptr_t)p & ~(line - 1u); a < end; a += line)
        __asm__ volatile("dc civac, %0" :: "r"(a) : "memory");
    __asm__ volatile("dsb sy" ::: "memory");
}

#endif
