// SPDX-License-Identifier: MIT
// usdtdemo's A64 function openings ("usdtdemo shapes", docs/pid.md): one small function per
// instruction the kernel runs for a thread at a pid entry (d/dpid_a64.h), written in assembly
// so that the compiler cannot choose another first instruction. Each computes f(x) from its
// argument through what that first instruction did (the stack it reserved, the register it
// set, the return address it saved), so an instruction run wrong gives a wrong result or a
// fault; main calls each for x = 1..SHAPE_CALLS, checks every result and prints, per
// function, its calls, the sum of its arguments and the sum of its results, which
// test/qemu/test_usdt.sh compares with D's pid probes on them. The stores that do not move sp
// (stp or str at [sp, #imm]) write the caller's frame as a first instruction, so no function
// here opens with one. Other architectures: "no shapes" (exit 2).
#include <stdio.h>
#include "usdtdemo.h"

#define SHAPE_CALLS 10u

#if defined(__aarch64__)
#define SHAPE(name, body) \
    "    .text\n    .p2align 2\n    .globl " #name "\n    .type " #name ", %function\n" \
    #name ":\n" body "    .size " #name ", . - " #name "\n"

__asm__(
    SHAPE(shape_sub,        // sub sp: the word stored and read back in the space it made
          "    sub sp, sp, #32\n    str x0, [sp, #8]\n    ldr x0, [sp, #8]\n"
          "    add x0, x0, #1\n    add sp, sp, #32\n    ret\n")
    SHAPE(shape_str_pre,    // str x30, [sp, #-16]!: the return address saved and reloaded
          "    str x30, [sp, #-16]!\n    mov x1, x0\n    mov x30, xzr\n"
          "    ldr x30, [sp], #16\n    add x0, x1, #2\n    ret\n")
    SHAPE(shape_stp_pre,    // stp x29, x30, [sp, #-32]!: both saved and reloaded
          "    stp x29, x30, [sp, #-32]!\n    mov x29, xzr\n    mov x30, xzr\n"
          "    ldp x29, x30, [sp], #32\n    add x0, x0, #4\n    ret\n")
    SHAPE(shape_movz,       // mov w1, #7 (movz)
          "    mov w1, #7\n    add w0, w0, w1\n    ret\n")
    SHAPE(shape_movn,       // mov w1, #-8 (movn)
          "    mov w1, #-8\n    add w0, w0, w1\n    ret\n")
    SHAPE(shape_movz_lsl,   // mov x1, #0x50000 (movz, lsl #16)
          "    mov x1, #0x50000\n    add x0, x0, x1\n    ret\n")
    SHAPE(shape_adrp,       // adrp: the page of shape_word, 1000
          "    adrp x1, shape_word\n    add x1, x1, :lo12:shape_word\n    ldr w1, [x1]\n"
          "    add w0, w0, w1\n    ret\n")
    SHAPE(shape_adr,        // adr: the word after the function, 2000
          "    adr x1, shape_adr_word\n    ldr w1, [x1]\n    add w0, w0, w1\n    ret\n")
    "shape_adr_word:\n    .word 2000\n"
    SHAPE(shape_add_sp,     // add x1, sp, #16: sp + 16, less sp
          "    add x1, sp, #16\n    mov x2, sp\n    sub x1, x1, x2\n    add x0, x0, x1\n"
          "    ret\n")
    SHAPE(shape_mov,        // mov x1, x0: 2x
          "    mov x1, x0\n    add x0, x1, x1\n    ret\n")
    SHAPE(shape_nop,        // nop
          "    nop\n    add w0, w0, #3\n    ret\n")
    "    .section .rodata\n    .p2align 2\nshape_word:\n    .word 1000\n    .text\n");

unsigned shape_sub(unsigned), shape_str_pre(unsigned), shape_stp_pre(unsigned),
    shape_movz(unsigned), shape_movn(unsigned), shape_movz_lsl(unsigned), shape_adrp(unsigned),
    shape_adr(unsigned), shape_add_sp(unsigned), shape_mov(unsigned), shape_nop(unsigned);

static const struct {
    const char *name;
    unsigned (*fn)(unsigned);
    unsigned add, mul;      // f(x) = mul * x + add
} shapes[] = {
    { "shape_sub", shape_sub, 1, 1 },           { "shape_str_pre", shape_str_pre, 2, 1 },
    { "shape_stp_pre", shape_stp_pre, 4, 1 },   { "shape_movz", shape_movz, 7, 1 },
    { "shape_movn", shape_movn, (unsigned)-8, 1 }, { "shape_movz_lsl", shape_movz_lsl, 0x50000, 1 },
    { "shape_adrp", shape_adrp, 1000, 1 },      { "shape_adr", shape_adr, 2000, 1 },
    { "shape_add_sp", shape_add_sp, 16, 1 },    { "shape_mov", shape_mov, 0, 2 },
    { "shape_nop", shape_nop, 3, 1 },
};

int shapes_run(void)
{
    unsigned wrong = 0;
    for (unsigned k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
        unsigned args = 0, results = 0;
        for (unsigned x = 1; x <= SHAPE_CALLS; x++) {
            unsigned r = shapes[k].fn(x);
            wrong += r != shapes[k].mul * x + shapes[k].add;
            args += x;
            results += r;
        }
        printf("usdtdemo: shape %s calls %u args %u results %u\n", shapes[k].name,
               SHAPE_CALLS, args, results);
    }
    printf("usdtdemo: shapes %u wrong\n", wrong);
    return wrong ? 1 : 0;
}
#else
int shapes_run(void)
{
    printf("usdtdemo: no shapes on this architecture\n");
    return 2;
}
#endif
