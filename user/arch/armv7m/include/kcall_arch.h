// SPDX-License-Identifier: MIT
// The kernel-call trap on ARMv7-M (docs/ARCHITECTURE.md, "The kernel-call ABI"): call number in
// r12, arguments in r0-r3, r4, r5, `svc 0`; the result in r0 (r1: the high word of 64-bit ones).
#ifndef KCALL_ARCH_H
#define KCALL_ARCH_H

#include <stdint.h>

// The raw trap: call number in r12, arguments in r0-r3, r4, r5; result in r0 (r1: high word).
static inline int32_t kcall6(uint32_t n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                             uint32_t a4, uint32_t a5)
{
    register uint32_t r0 __asm__("r0") = a0;
    register uint32_t r1 __asm__("r1") = a1;
    register uint32_t r2 __asm__("r2") = a2;
    register uint32_t r3 __asm__("r3") = a3;
    register uint32_t r4 __asm__("r4") = a4;
    register uint32_t r5 __asm__("r5") = a5;
    register uint32_t r12 __asm__("r12") = n;
    __asm__ volatile("svc 0"
                     : "+r"(r0), "+r"(r1)
                     : "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r12)
                     : "memory");
    return (int32_t)r0;
}

static inline uint64_t kcall64(uint32_t n)
{
    register uint32_t r0 __asm__("r0") = 0;
    register uint32_t r1 __asm__("r1") = 0;
    register uint32_t r12 __asm__("r12") = n;
    __asm__ volatile("svc 0" : "+r"(r0), "+r"(r1) : "r"(r12) : "memory");
    return ((uint64_t)r1 << 32) | r0;
}

#endif
