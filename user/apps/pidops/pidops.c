// SPDX-License-Identifier: MIT
// pidops: calls each of its functions (pidops.h) ROUNDS times and checks what each returned,
// for test/qemu/test_pid_i386.sh: under pid probes on every one of them the kernel runs each
// displaced instruction for the program, and the program's own checks say whether it ran as
// the CPU would have (the flags against twins the probes never touch). It prints how often it
// called each and how many results were wrong, then, with "bad" on its part of the boot command
// line (user/lib/kargs.c), pushes on a stack it cannot write (the thread's fault: the kernel
// kills it).
#include <kern.h>
#include <stdio.h>
#include <string.h>
#include "pidops.h"

#define ROUNDS 20

static unsigned bad;

static void expect(const char *what, unsigned got, unsigned want)
{
    if (got != want && bad++ < 8)
        printf("pidops: %s gave %#x, not %#x\n", what, got, want);
}

int main(void)
{
    char buf[256], *argv[24];
    int argc = kargs("pidops", buf, sizeof(buf), argv, 24);
    for (int i = 1; i <= ROUNDS; i++) {
        expect("ops_push_reg", (unsigned)ops_push_reg(i), (unsigned)i);
        expect("ops_push_esp", (unsigned)ops_push_esp(), 4);
        expect("ops_push_imm8", (unsigned)ops_push_imm8(), (unsigned)-5);
        expect("ops_push_imm32", (unsigned)ops_push_imm32(), 0x12345678u);
        expect("ops_sub8", (unsigned)ops_sub8(i * 3), (unsigned)i * 3u);
        expect("ops_sub32", (unsigned)ops_sub32(i * 5), (unsigned)i * 5u);
        unsigned f8 = ops_sub8_flags(), t8 = twin_sub8_flags();
        unsigned f32 = ops_sub32_flags(), t32 = twin_sub32_flags();
        expect("ops_sub8_flags", f8, t8);
        expect("ops_sub32_flags", f32, t32);
        expect("ops_mov89", (unsigned)ops_mov89(i + 100), (unsigned)i + 100u);
        expect("ops_mov8b", (unsigned)ops_mov8b(i + 200), (unsigned)i + 200u);
        expect("ops_lea0", (unsigned)ops_lea0(i + 300), (unsigned)i + 300u);
        expect("ops_lea8", (unsigned)ops_lea8(i + 400), (unsigned)i + 400u);
        expect("ops_lea32", (unsigned)ops_lea32(i + 500), (unsigned)i + 500u);
        expect("ops_lea_esp", (unsigned)ops_lea_esp(i + 600), (unsigned)i + 600u);
        expect("ops_mov_imm", (unsigned)ops_mov_imm(), 0x13572468u);
        ops_ret();
        ops_ret4(i);
        expect("ops_retn", (unsigned)ops_retn(i + 700), (unsigned)i + 700u);
        if (i == 1)
            printf("pidops: flags sub8 %#x sub32 %#x\n", t8, t32);
    }
    printf("pidops: called each %d times, %u wrong\n", ROUNDS, bad);
    if (argc > 1 && !strcmp(argv[1], "bad")) {
        printf("pidops: a push on a stack it cannot write\n");
        ops_bad_stack();
    }
    return bad ? 1 : 0;
}
