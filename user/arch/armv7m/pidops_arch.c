// SPDX-License-Identifier: MIT
// pidops's functions, Thumb (user/apps/pidops/pidops.h), and its round of calls. Each ops_*
// function opens with one instruction of d/dpid_thumb.h's table, written in assembly so that
// it opens with exactly that one, and leaves its effect where the C caller can check it; only
// caller-saved registers are changed, or restored before it returns. Each is a global STT_FUNC
// with its size, as pid probes name them.
// The movs functions are reached through flagged(), which sets APSR's N, Z, C, V first and
// jumps to them: their result (r0, flags as mrs reads them and as an IT block branches on
// them; r1, the register the movs wrote) is checked against a twin_* function of the same
// body that no probe touches, the CPU's own run. The functions that open with a return are
// reached through stubs that put on the stack what the return loads: popped() three words
// (a, b, the address to come back to), ldr_popped() one.
#include <stdint.h>
#include <stdio.h>
#include "pidops.h"

unsigned ops_push(unsigned a, unsigned b);      // push {r0, r1, lr}: b - a, by pop {pc}
unsigned ops_pushw(unsigned a, unsigned b);     // push.w {r0, r1}: b - a
unsigned ops_pushw_lr(unsigned a, unsigned b);  // push.w {r0, r1, r8, lr}: b - a, by pop.w
unsigned ops_sub(void);                         // sub sp, #16: 16, sp before less sp after
unsigned ops_ldr_lit(void);                     // ldr r0, [pc, #4]: 0x13572468
unsigned ops_ldr_lit2(void);                    // the same at a halfword: 0x2468ace0
unsigned ops_mov(unsigned a);                   // mov ip, r0: a
unsigned ops_nop(unsigned a);                   // nop: a + 1
void ops_bx(void);                              // bx lr at its entry
void ops_movpc(void);                           // mov pc, lr at its entry
void ops_pop(void);                             // pop {r1, r2, pc} at its entry
void ops_popw(void);                            // pop.w {r1, r2, pc} at its entry
void ops_ldrpc(void);                           // ldr pc, [sp], #4 at its entry
// movs r1, #0 / movs r1, #200 / movs r1, r0 (lsls r1, r0, #0) and their twins: flags | r1 << 32
uint64_t ops_movs_zero(uint32_t v), twin_movs_zero(uint32_t v);
uint64_t ops_movs_imm(uint32_t v), twin_movs_imm(uint32_t v);
uint64_t ops_movs_reg(uint32_t v), twin_movs_reg(uint32_t v);
// fn(v) with APSR.NZCVQ set to apsr.
uint64_t flagged(uint64_t (*fn)(uint32_t), uint32_t apsr, uint32_t v);
// fn, which opens with a return, with a, b and the way back on the stack: b - a, plus
// (sp's error) << 16 when fn did not leave sp where it was before the three words.
unsigned popped(void (*fn)(void), unsigned a, unsigned b);
unsigned ldr_popped(void (*fn)(void));          // the same with one word: sp's error
// cmp r0, r0; it eq, then ops_movs_it's first instruction, inside that IT block.
void bad_it(void);

#define FUNC(name) ".globl " #name "\n.type " #name ", %function\n.thumb_func\n" #name ":\n"
#define END(name) ".size " #name ", . - " #name "\n"
// The body after each movs: APSR (N Z C V Q in bits 31-27), bit 0 set when eq, bit 1 when mi.
#define FLAGS_OUT "mrs r0, APSR\n it eq\n orreq r0, r0, #1\n it mi\n orrmi r0, r0, #2\n bx lr\n"

__asm__(".text\n.syntax unified\n.thumb\n"
        FUNC(ops_push) "push {r0, r1, lr}\n ldr r0, [sp, #4]\n ldr r1, [sp]\n subs r0, r0, r1\n"
        "add sp, #8\n pop {pc}\n" END(ops_push)
        FUNC(ops_pushw) "push.w {r0, r1}\n ldr r0, [sp, #4]\n ldr r1, [sp]\n subs r0, r0, r1\n"
        "add sp, #8\n bx lr\n" END(ops_pushw)
        FUNC(ops_pushw_lr) "push.w {r0, r1, r8, lr}\n ldr r0, [sp, #4]\n ldr r1, [sp]\n"
        "subs r0, r0, r1\n add sp, #8\n pop.w {r8, pc}\n" END(ops_pushw_lr)
        FUNC(ops_sub) "sub sp, #16\n mov r0, sp\n add sp, #16\n mov r1, sp\n subs r0, r1, r0\n"
        "bx lr\n" END(ops_sub)
        ".p2align 2\n"
        FUNC(ops_ldr_lit) "ldr.n r0, 1f\n bx lr\n .p2align 2\n1: .word 0x13572468\n"
        END(ops_ldr_lit)
        ".p2align 2\n nop\n"
        FUNC(ops_ldr_lit2) "ldr.n r0, 1f\n bx lr\n .p2align 2\n1: .word 0x2468ace0\n"
        END(ops_ldr_lit2)
        FUNC(ops_mov) "mov ip, r0\n movs r0, #0\n mov r0, ip\n bx lr\n" END(ops_mov)
        FUNC(ops_nop) "nop\n adds r0, #1\n bx lr\n" END(ops_nop)
        FUNC(ops_bx) "bx lr\n" END(ops_bx)
        FUNC(ops_movpc) "mov pc, lr\n" END(ops_movpc)
        FUNC(ops_pop) "pop {r1, r2, pc}\n" END(ops_pop)
        FUNC(ops_popw) "pop.w {r1, r2, pc}\n" END(ops_popw)
        FUNC(ops_ldrpc) "ldr pc, [sp], #4\n" END(ops_ldrpc)
        FUNC(ops_movs_zero) "movs r1, #0\n" FLAGS_OUT END(ops_movs_zero)
        FUNC(twin_movs_zero) "movs r1, #0\n" FLAGS_OUT END(twin_movs_zero)
        FUNC(ops_movs_imm) "movs r1, #200\n" FLAGS_OUT END(ops_movs_imm)
        FUNC(twin_movs_imm) "movs r1, #200\n" FLAGS_OUT END(twin_movs_imm)
        FUNC(ops_movs_reg) "movs r1, r0\n" FLAGS_OUT END(ops_movs_reg)
        FUNC(twin_movs_reg) "movs r1, r0\n" FLAGS_OUT END(twin_movs_reg)
        FUNC(flagged) "msr APSR_nzcvq, r1\n mov ip, r0\n mov r0, r2\n bx ip\n" END(flagged)
        FUNC(popped) "push {r4, lr}\n mov r4, sp\n adr r3, 1f\n adds r3, #1\n push {r1, r2, r3}\n"
        "bx r0\n .p2align 2\n1: subs r0, r2, r1\n mov r3, sp\n subs r3, r4, r3\n"
        "add r0, r0, r3, lsl #16\n pop {r4, pc}\n" END(popped)
        FUNC(ldr_popped) "push {r4, lr}\n mov r4, sp\n adr r3, 1f\n adds r3, #1\n push {r3}\n"
        "bx r0\n .p2align 2\n1: mov r3, sp\n subs r0, r4, r3\n pop {r4, pc}\n" END(ldr_popped)
        FUNC(bad_it) "cmp r0, r0\n .inst.n 0xbf08\n" END(bad_it)
        FUNC(ops_movs_it) ".inst.n 0x2105\n bx lr\n" END(ops_movs_it));

static const uint32_t values[] = { 0, 1, 0x80000000u, 0x7fffffffu, 0xffffffffu };

// fn and its twin from the same flags and argument: flags and register both the same.
static uint32_t movs_check(const char *what, uint64_t (*fn)(uint32_t),
                           uint64_t (*twin)(uint32_t), uint32_t apsr, uint32_t v, uint32_t rd)
{
    uint64_t got = flagged(fn, apsr, v), want = flagged(twin, apsr, v);
    pidops_expect(what, (uint32_t)got, (uint32_t)want);
    pidops_expect(what, (uint32_t)(got >> 32), rd);
    return (uint32_t)want;
}

void pidops_round(int i)
{
    unsigned u = (unsigned)i;
    uint32_t apsr = (u & 15u) << 28, v = values[u % 5u];
    pidops_expect("ops_push", ops_push(u, 3u * u), 2u * u);
    pidops_expect("ops_pushw", ops_pushw(u, 5u * u), 4u * u);
    pidops_expect("ops_pushw_lr", ops_pushw_lr(u, 7u * u), 6u * u);
    pidops_expect("ops_sub", ops_sub(), 16);
    pidops_expect("ops_ldr_lit", ops_ldr_lit(), 0x13572468u);
    pidops_expect("ops_ldr_lit2", ops_ldr_lit2(), 0x2468ace0u);
    pidops_expect("ops_mov", ops_mov(u + 100u), u + 100u);
    pidops_expect("ops_nop", ops_nop(u + 200u), u + 201u);
    ops_bx();
    ops_movpc();
    pidops_expect("ops_pop", popped(ops_pop, u, u + 300u), 300);
    pidops_expect("ops_popw", popped(ops_popw, u, u + 400u), 400);
    pidops_expect("ops_ldrpc", ldr_popped(ops_ldrpc), 0);
    uint32_t z = movs_check("ops_movs_zero", ops_movs_zero, twin_movs_zero, apsr, v, 0);
    uint32_t m = movs_check("ops_movs_imm", ops_movs_imm, twin_movs_imm, apsr, v, 200);
    uint32_t r = movs_check("ops_movs_reg", ops_movs_reg, twin_movs_reg, apsr, v, v);
    if (i == 1)
        printf("pidops: flags movs #0 %#lx movs #200 %#lx movs r1, r0 (r0 %#lx) %#lx\n",
               (unsigned long)z, (unsigned long)m, (unsigned long)v, (unsigned long)r);
}

void pidops_bad(void)
{
    bad_it();
    printf("pidops: ops_movs_it ran its mov in the IT block\n");
}
