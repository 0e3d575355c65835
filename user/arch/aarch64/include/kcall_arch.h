// SPDX-License-Identifier: MIT
// The kernel-call trap on AArch64 (docs/aarch64.md): `svc #0` with the call number in x8 and
// the arguments in x0-x5; the result in w0 (x1: the high word of the 64-bit ones, ClockCycles
// and ClockTime). The kernel preserves every other register.
#ifndef KCALL_ARCH_H
#define KCALL_ARCH_H

#include <stdint.h>

static inline int32_t kcall6(uint32_t n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                             uint32_t a4, uint32_t a5)
{
    register uint64_t x0 __asm__("x0") = a0;
    register uint64_t x1 __asm__("x1") = a1;
    register uint64_t x2 __asm__("x2") = a2;
    register uint64_t x3 __asm__("x3") = a3;
    register uint64_t x4 __asm__("x4") = a4;
    register uint64_t x5 __asm__("x5") = a5;
    register uint64_t x8 __asm__("x8") = n;
    __asm__ volatile("svc #0"
                     : "+r"(x0), "+r"(x1)
                     : "r"(x2), "r"(x3), "r"(x4), "r"(x5), "r"(x8)
                     : "memory");
    return (int32_t)x0;
}

static inline uint64_t kcall64(uint32_t n)
{
    register uint64_t x0 __asm__("x0") = 0;
    register uint64_t x1 __asm__("x1") = 0;
    register uint64_t x8 __asm__("x8") = n;
    __asm__ volatile("svc #0" : "+r"(x0), "+r"(x1) : "r"(x8) : "memory");
    return ((uint64_t)(uint32_t)x1 << 32) | (uint32_t)x0;
}

#endif
