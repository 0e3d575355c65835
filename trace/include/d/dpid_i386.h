// SPDX-License-Identifier: MIT
// The i386 instructions a pid probe can displace (docs/pid.md): the ones the x86 kernel runs
// in place of a thread (kernel/arch/x86/pid.c), in one place for the kernel, which refuses any
// other, and the host tools, which say so before a program is sent. Whole instructions, no
// prefix, whose effects are registers, the stack and (sub's) the arithmetic flags:
//   entry: push %r32 (50+r), push $imm8 / $imm32 (6a ib, 68 id), sub $imm8 / $imm32, %esp
//          (83 ec ib, 81 ec id), mov %r32, %r32 (89 /r, 8b /r, register forms),
//          lea disp(%esp), %r32 (8d /r, SIB base esp, no index), mov $imm32, %r32 (b8+r id);
//   return (and an entry too): ret (c3), ret $imm16 (c2 iw).
// `nop` (90) is not displaced: it is USDT's site, and a pid site never holds it, so neither
// provider can take the other's int3 (kernel/kusdt.c's stale trap is a nop again).
// Encodings: Intel SDM vol. 2 (PUSH, SUB, MOV, LEA, RET; ModRM and SIB tables).
#ifndef D_DPID_I386_H
#define D_DPID_I386_H

#include <stdbool.h>
#include <stdint.h>

#define DPID_I386_MAXLEN 7u     // lea disp32(%esp), %r32

// The displaced instruction at p (avail bytes readable): true, with *len its bytes, when the
// kernel can run it; false for any other (or one longer than avail).
static inline bool dpid_i386_can_run(const uint8_t *p, unsigned avail, unsigned *len)
{
    unsigned n = 0;
    if (avail == 0)
        return false;
    uint8_t op = p[0];
    if ((op & 0xf8u) == 0x50u || op == 0xc3u)
        n = 1;                                          // push %r32; ret
    else if (op == 0x6au)
        n = 2;                                          // push $imm8
    else if (op == 0x68u || (op & 0xf8u) == 0xb8u)
        n = 5;                                          // push $imm32; mov $imm32, %r32
    else if (op == 0xc2u)
        n = 3;                                          // ret $imm16
    else if (avail >= 2 && (op == 0x83u || op == 0x81u) && p[1] == 0xecu)
        n = op == 0x83u ? 3u : 6u;                      // sub $imm, %esp
    else if (avail >= 2 && (op == 0x89u || op == 0x8bu) && (p[1] & 0xc0u) == 0xc0u)
        n = 2;                                          // mov %r32, %r32
    else if (avail >= 3 && op == 0x8du && (p[1] & 7u) == 4u && (p[1] & 0xc0u) != 0xc0u &&
             (p[2] & 0x3fu) == 0x24u)                   // lea disp(%esp), %r32 (SIB: base
        n = (p[1] & 0xc0u) == 0x00u ? 3u : (p[1] & 0xc0u) == 0x40u ? 4u : 7u;   // esp, no index)
    if (!n || n > avail)
        return false;
    *len = n;
    return true;
}

// A return the kernel can run (len: its bytes).
static inline bool dpid_i386_is_return(const uint8_t *p, unsigned len)
{
    return (len == 1 && p[0] == 0xc3u) || (len == 3 && p[0] == 0xc2u);
}

#endif
