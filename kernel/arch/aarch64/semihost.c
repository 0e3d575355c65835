// SPDX-License-Identifier: MIT
// The semihosting trap (Arm semihosting, AArch64: hlt #0xf000). Only the kernel executes it,
// after shost.c has checked the request. shost.c speaks the 32-bit layout of the other ports
// (parameter blocks of 32-bit words, addresses below 4 GB); AArch64 semihosting takes blocks of
// 64-bit words, so the block is widened here and what the host writes back (the length
// SYS_GET_CMDLINE returns) narrowed again. Operations whose parameter is not a block pass
// it through.
#include <kernel/arch.h>

#define SH_WRITEC 0x03u
#define SH_WRITE0 0x04u
#define SH_CLOCK  0x10u
#define SH_TIME   0x11u
#define SH_ERRNO  0x13u
#define SH_GET_CMDLINE 0x15u
#define SH_ELAPSED 0x30u
#define SH_TICKFREQ 0x31u
#define BLOCK_WORDS 4

static int64_t trap(uint64_t op, uint64_t arg)
{
    register uint64_t x0 __asm__("x0") = op;
    register uint64_t x1 __asm__("x1") = arg;
    __asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    return (int64_t)x0;
}

int32_t arch_semihost(uint32_t op, uint32_t arg)
{
    switch (op) {
    case SH_WRITEC: case SH_WRITE0: case SH_CLOCK: case SH_TIME: case SH_ERRNO:
    case SH_TICKFREQ:
        return (int32_t)trap(op, arg);
    case SH_ELAPSED: {
        // One 64-bit count: the same bytes as the 32-bit layout's two words.
        return (int32_t)trap(op, arg);
    }
    default:
        break;
    }
    if (!arg)
        return (int32_t)trap(op, 0);
    volatile uint32_t *b32 = (volatile uint32_t *)(uintptr_t)arg;
    uint64_t b64[BLOCK_WORDS];
    for (unsigned i = 0; i < BLOCK_WORDS; i++)
        b64[i] = b32[i];
    int32_t r = (int32_t)trap(op, (uint64_t)(uintptr_t)b64);
    if (op == SH_GET_CMDLINE && r == 0)
        b32[1] = (uint32_t)b64[1];
    return r;
}
