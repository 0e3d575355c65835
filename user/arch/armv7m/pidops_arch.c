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
// cmp r0, r0; it eq, then ops_movs_it's first instruction, inside that IT block: movs r1, r0,
// which is UNPREDICTABLE there (the ARMv7-M manual), so the kernel does not run it.
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
        FUNC(ops_movs_it) ".inst.n 0x0001\n bx lr\n" END(ops_movs_it));

// Inside IT blocks, each condition N (0 eq ... 13 le): itin_K_N sets r1 and r3 to 0 and opens
// an IT block whose first instruction is ito_K_N's, the probed one (twin: itwin_K_N, the
// same, never probed). Reached through flagged(), the flags set first. The blocks are written
// as raw halfwords (the assembler would refuse the IT's first instruction as a function's):
// ITE N: the instruction K, then `mov r3, #1` (0x2301, in IT a mov) under the other condition,
// so the second shows whether the kernel left the IT state as the CPU would; IT N for the
// returns. Each gives r1 (what K wrote) | r3 << 32; the returns 55 taken, 77 not.
#define ITE(n) ".inst.n 0xbf04 | (" #n " << 4) | (((" #n " & 1) ^ 1) << 3)\n"
#define IT1(n) ".inst.n 0xbf08 | (" #n " << 4)\n"
#define IT_PRE "mov.w r1, #0\n mov.w r3, #0\n"
#define IT_OUT "mov r0, r1\n mov r1, r3\n bx lr\n"
#define IT_FN(pre, k, n, body) \
    ".p2align 2\n" FUNC(itin_##k##_##n) pre IT_PRE body(ito_##k##_##n, n) END(itin_##k##_##n) \
    ".p2align 2\n" FUNC(itwin_##k##_##n) pre IT_PRE body(itwo_##k##_##n, n) END(itwin_##k##_##n)
#define ITB(sym, n, first) ITE(n) FUNC(sym) first ".inst.n 0x2301\n" IT_OUT END(sym)
#define B_MOV(sym, n)  ITB(sym, n, ".inst.n 0x4601\n")           /* mov r1, r0 */
#define B_MOVI(sym, n) ITB(sym, n, ".inst.n 0x21c8\n")           /* mov r1, #200 */
#define B_NOP(sym, n)  ITB(sym, n, ".inst.n 0xbf00\n")           /* nop */
/* ldr r1, [pc, #4] at 2 mod 4 (the block is word-aligned, 10 bytes in): the word 8 past it */
#define B_LDR(sym, n) ITE(n) FUNC(sym) ".inst.n 0x4901\n .inst.n 0x2301\n b.n 1f\n" \
    ".p2align 2\n .word 0x600dcafe\n1:" IT_OUT END(sym)
/* sub sp, #16: r1 the bytes sp went down (sp back after) */
#define B_SUB(sym, n) ITE(n) FUNC(sym) ".inst.n 0xb084\n .inst.n 0x2301\n mov r1, sp\n" \
    "subs r1, r2, r1\n mov sp, r2\n" IT_OUT END(sym)
#define B_BX(sym, n) IT1(n) FUNC(sym) ".inst.n 0x4770\n movs r0, #77\n bx lr\n" END(sym)
#define B_MOVPC(sym, n) IT1(n) FUNC(sym) ".inst.n 0x46f7\n movs r0, #77\n bx lr\n" END(sym)
#define IT_ALL(n) \
    IT_FN("", mov, n, B_MOV) IT_FN("", movi, n, B_MOVI) IT_FN("", nop, n, B_NOP) \
    IT_FN("", ldr, n, B_LDR) \
    IT_FN("mov r2, sp\n", sub, n, B_SUB) IT_FN("mov.w r0, #55\n", bx, n, B_BX) \
    IT_FN("mov.w r0, #55\n", movpc, n, B_MOVPC)
#define IT_KINDS(X, n) X(mov, n) X(movi, n) X(nop, n) X(ldr, n) X(sub, n) X(bx, n) X(movpc, n)
#define IT_CONDS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)
#define IT_DECL(k, n) uint64_t itin_##k##_##n(uint32_t), itwin_##k##_##n(uint32_t);
#define IT_DECLS(n) IT_KINDS(IT_DECL, n)
IT_CONDS(IT_DECLS)
__asm__(".text\n.syntax unified\n.thumb\n" IT_CONDS(IT_ALL));

struct it_case {
    const char *name;
    uint64_t (*fn)(uint32_t), (*twin)(uint32_t);
};
#define IT_ROW(k, n) { "ito_" #k "_" #n, itin_##k##_##n, itwin_##k##_##n },
#define IT_ROWS(n) IT_KINDS(IT_ROW, n)
static const struct it_case it_cases[] = { IT_CONDS(IT_ROWS) };

// The ARM condition n on the flags apsr (N Z C V in bits 31-28), as the architecture defines it.
static int cond_true(unsigned n, uint32_t apsr)
{
    int N = apsr >> 31 & 1, Z = apsr >> 30 & 1, C = apsr >> 29 & 1, V = apsr >> 28 & 1;
    int r = n / 2 == 0 ? Z : n / 2 == 1 ? C : n / 2 == 2 ? N : n / 2 == 3 ? V :
            n / 2 == 4 ? C && !Z : n / 2 == 5 ? N == V : N == V && !Z;
    return n & 1 ? !r : r;
}

// Each IT case under the flags apsr: the probed function against its twin, and both against
// what the condition says K must have done.
static void it_round(uint32_t apsr, uint32_t v)
{
    for (unsigned i = 0; i < sizeof(it_cases) / sizeof(it_cases[0]); i++) {
        const struct it_case *c = &it_cases[i];
        unsigned n = (unsigned)(i / 7u);
        int t = cond_true(n, apsr);
        uint64_t got = flagged(c->fn, apsr, v), want = flagged(c->twin, apsr, v);
        pidops_expect(c->name, (uint32_t)got, (uint32_t)want);
        pidops_expect(c->name, (uint32_t)(got >> 32), (uint32_t)(want >> 32));
        uint32_t k = (uint32_t)want, e = (uint32_t)(want >> 32), kw;
        switch (i % 7u) {
        case 0: kw = t ? v : 0; break;
        case 1: kw = t ? 200u : 0; break;
        case 3: kw = t ? 0x600dcafeu : 0; break;
        case 4: kw = t ? 16u : 0; break;
        case 5: case 6: kw = t ? 55u : 77u; break;
        default: kw = 0; break;
        }
        pidops_expect(c->name, k, kw);      // the twin: the CPU's own run, as the manual says
        pidops_expect(c->name, e, i % 7u >= 5u ? 0u : (uint32_t)!t);
    }
}

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
    it_round(apsr, v);
    if (i == 1)
        printf("pidops: flags movs #0 %#lx movs #200 %#lx movs r1, r0 (r0 %#lx) %#lx\n",
               (unsigned long)z, (unsigned long)m, (unsigned long)v, (unsigned long)r);
}

void pidops_bad(void)
{
    bad_it();
    printf("pidops: ops_movs_it ran its movs r1, r0 in the IT block\n");
}
