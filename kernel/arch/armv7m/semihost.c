// SPDX-License-Identifier: MIT
// The semihosting trap itself (Arm semihosting, Thumb: bkpt 0xab). Only the kernel executes
// it, after shost.c has checked the request; a core with no debugger attached would take a
// hard fault here, so callers ask board_has_semihosting() first.
#include <kernel/arch.h>

int32_t arch_semihost(uint32_t op, uint32_t arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register uint32_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (int32_t)r0;
}
