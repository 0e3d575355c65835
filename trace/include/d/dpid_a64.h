// SPDX-License-Identifier: MIT
// The A64 instructions a pid probe can displace (docs/pid.md): the ones the AArch64 kernel
// runs in place of a thread (kernel/arch/aarch64/pid.c), in one place for the kernel, which
// refuses any other, and the host tools, which say so before a program is sent. Each is one
// little-endian word whose effects are the thread's general registers, sp and its stack (no
// flags, no pc but the return's); register 31 is sp where noted, xzr elsewhere:
//   entry: stp xA, xB, [sp, #imm]! and stp xA, xB, [sp, #imm]; str xT, [sp, #imm]! and
//          str xT, [sp, #imm]; sub sp, sp, #imm; add xD|sp, sp, #imm (mov x29, sp);
//          mov xD, xM (orr xD, xzr, xM; the w form too); adrp and adr; movz and movn (64 and
//          32 bits); nop;
//   return (and an entry too): ret (to x30).
// The base of every store is sp: the kernel checks the thread may write there.
#ifndef D_DPID_A64_H
#define D_DPID_A64_H

#include <stdbool.h>
#include <stdint.h>

#define DPID_A64_RET  0xd65f03c0u      // ret (x30)
#define DPID_A64_NOP  0xd503201fu

enum dpid_a64_kind {
    DPID_A64_I_NONE,
    DPID_A64_I_STP_PRE,   // stp xA, xB, [sp, #imm7*8]!
    DPID_A64_I_STP_OFF,   // stp xA, xB, [sp, #imm7*8]
    DPID_A64_I_STR_PRE,   // str xT, [sp, #imm9]!
    DPID_A64_I_STR_OFF,   // str xT, [sp, #imm12*8]
    DPID_A64_I_SUB_SP,    // sub sp, sp, #imm12[, lsl #12]
    DPID_A64_I_ADD_SP,    // add xD|sp, sp, #imm12[, lsl #12]
    DPID_A64_I_MOV,       // orr xD, xzr, xM / orr wD, wzr, wM
    DPID_A64_I_ADR,       // adr / adrp xD, label
    DPID_A64_I_MOVZ,      // movz / movn, 64 or 32 bits
    DPID_A64_I_NOP,       // nop
    DPID_A64_I_RET,       // ret
};

static inline unsigned dpid_a64_rn(uint32_t w)
{
    return (w >> 5) & 31u;
}

// What the kernel does for instruction w (DPID_A64_I_NONE: not one it runs).
static inline enum dpid_a64_kind dpid_a64_kind(uint32_t w)
{
    if (w == DPID_A64_RET)
        return DPID_A64_I_RET;
    if (w == DPID_A64_NOP)
        return DPID_A64_I_NOP;
    if ((w & 0xffc00000u) == 0xa9800000u && dpid_a64_rn(w) == 31u)
        return DPID_A64_I_STP_PRE;
    if ((w & 0xffc00000u) == 0xa9000000u && dpid_a64_rn(w) == 31u)
        return DPID_A64_I_STP_OFF;
    if ((w & 0xffe00c00u) == 0xf8000c00u && dpid_a64_rn(w) == 31u)
        return DPID_A64_I_STR_PRE;
    if ((w & 0xffc00000u) == 0xf9000000u && dpid_a64_rn(w) == 31u)
        return DPID_A64_I_STR_OFF;
    if ((w & 0xff8003ffu) == 0xd10003ffu)
        return DPID_A64_I_SUB_SP;
    if ((w & 0xff8003e0u) == 0x910003e0u)
        return DPID_A64_I_ADD_SP;
    if ((w & 0x7fe0ffe0u) == 0x2a0003e0u)
        return DPID_A64_I_MOV;
    if ((w & 0x1f000000u) == 0x10000000u)
        return DPID_A64_I_ADR;
    if ((w & 0x7f800000u) == 0x52800000u || (w & 0x7f800000u) == 0x12800000u)
        return (w >> 31) || !(w & (1u << 22)) ? DPID_A64_I_MOVZ : DPID_A64_I_NONE;  // (w: lsl 0, 16)
    return DPID_A64_I_NONE;
}

// A return the kernel can run.
static inline bool dpid_a64_is_return(uint32_t w)
{
    return w == DPID_A64_RET;
}

// Any instruction the kernel can run (an entry's).
static inline bool dpid_a64_can_run(uint32_t w)
{
    return dpid_a64_kind(w) != DPID_A64_I_NONE;
}

#endif
