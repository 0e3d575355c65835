// SPDX-License-Identifier: MIT
// The kernel-call trap on x86 (docs/x86.md): `int $0x80` with the call number in eax and the
// arguments in ebx, ecx, edx, esi, edi, ebp; the result in eax (edx: the high word of the 64-bit
// ones, ClockCycles and ClockTime). The kernel preserves every other register.
#ifndef KCALL_ARCH_H
#define KCALL_ARCH_H

#include <stdint.h>

#define KCALL_VECTOR 0x80

// The raw trap. ebp cannot be named in an asm constraint, so the sixth argument and the call
// number travel through a two-word block whose address is in eax.
static inline int32_t kcall6(uint32_t n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                             uint32_t a4, uint32_t a5)
{
    uint32_t blk[2] = { n, a5 };
    int32_t r;
    __asm__ volatile("pushl %%ebp\n\t"
                     "movl 4(%%eax), %%ebp\n\t"
                     "movl (%%eax), %%eax\n\t"
                     "int $0x80\n\t"
                     "popl %%ebp"
                     : "=a"(r), "+d"(a2)
                     : "a"(blk), "b"(a0), "c"(a1), "S"(a3), "D"(a4)
                     : "memory");
    return r;
}

static inline uint64_t kcall64(uint32_t n)
{
    uint32_t lo, hi;
    __asm__ volatile("int $0x80"
                     : "=a"(lo), "=d"(hi)
                     : "a"(n), "b"(0), "c"(0)
                     : "memory");
    return ((uint64_t)hi << 32) | lo;
}

#endif
