// SPDX-License-Identifier: MIT
// The Thumb instructions a pid probe can displace (docs/pid.md): the ones the ARMv7-M kernel
// runs in place of a thread (kernel/arch/armv7m/pid.c), in one place for the kernel, which
// refuses any other, and the host tools, which say so before a program is sent. hw1 is the
// instruction's first halfword, hw2 its second (32-bit encodings only); all whole
// instructions whose effects are registers and the stack:
//   entry: push {rlist[, lr]}, push.w = stmdb sp!, {rlist} (no sp, no pc, two or more),
//          sub sp, sp, #imm7*4, ldr rt, [pc, #imm8*4], mov rd, rm (neither sp nor pc), nop,
//          movs rd, #imm8 and movs rd, rm (lsls rd, rm, #0; both set N and Z, outside an IT
//          block only: the kernel refuses one inside, whose thread keeps its fault);
//   return (and an entry too): bx lr, mov pc, lr, pop {rlist, pc},
//          pop.w = ldmia sp!, {rlist, pc} (no sp, no lr), ldr pc, [sp], #4.
#ifndef D_DPID_THUMB_H
#define D_DPID_THUMB_H

#include <stdbool.h>
#include <stdint.h>

#define DPID_THUMB_LDR_PC_SP 0xfb04f85du   // ldr pc, [sp], #4 (hw2 << 16 | hw1)

// The instruction's length in bytes (2 or 4) from its first halfword.
static inline unsigned dpid_thumb_len(uint32_t hw1)
{
    return (hw1 & 0xf800u) >= 0xe800u ? 4u : 2u;
}

static inline unsigned dpid_popcount16(uint32_t v)
{
    return (unsigned)__builtin_popcount(v & 0xffffu);
}

// movs rd, #imm8 (0x2000-0x27ff) or movs rd, rm (lsls rd, rm, #0: 0x0000-0x003f).
static inline bool dpid_thumb_is_movs(uint32_t hw1)
{
    return (hw1 & 0xf800u) == 0x2000u || (hw1 & 0xffc0u) == 0x0000u;
}

// A return the kernel can run.
static inline bool dpid_thumb_is_return(uint32_t hw1, uint32_t hw2)
{
    if (dpid_thumb_len(hw1) == 4)
        return (hw1 == 0xe8bdu && (hw2 & 0xe000u) == 0x8000u && dpid_popcount16(hw2) >= 2) ||
               (hw2 << 16 | hw1) == DPID_THUMB_LDR_PC_SP;
    return hw1 == 0x4770u || hw1 == 0x46f7u || (hw1 & 0xff00u) == 0xbd00u;
}

// Any instruction the kernel can run (an entry's).
static inline bool dpid_thumb_can_run(uint32_t hw1, uint32_t hw2)
{
    if (dpid_thumb_is_return(hw1, hw2))
        return true;
    if (dpid_thumb_len(hw1) == 4)
        return hw1 == 0xe92du && !(hw2 & 0xa000u) && dpid_popcount16(hw2) >= 2;
    if ((hw1 & 0xfe00u) == 0xb400u)                 // push {rlist[, lr]}
        return (hw1 & 0x1ffu) != 0;
    if ((hw1 & 0xff80u) == 0xb080u || (hw1 & 0xf800u) == 0x4800u || hw1 == 0xbf00u)
        return true;                                // sub sp, #imm; ldr rt, [pc, #imm]; nop
    if (dpid_thumb_is_movs(hw1))
        return true;
    if ((hw1 & 0xff00u) == 0x4600u) {               // mov rd, rm
        unsigned rd = (hw1 & 7u) | ((hw1 >> 4) & 8u), rm = (hw1 >> 3) & 15u;
        return rd != 13 && rd != 15 && rm != 13 && rm != 15;
    }
    return false;
}

#endif
