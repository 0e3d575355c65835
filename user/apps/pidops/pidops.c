// SPDX-License-Identifier: MIT
// pidops: calls each of its arch's functions (pidops.h) ROUNDS times and checks what each
// returned, for test/qemu/test_pid_ops.sh: under pid probes on every one of them the kernel runs
// each displaced instruction for the program, and the program's own checks say whether it ran
// as the CPU would have (flags against twins the probes never touch). It prints how often it
// called each and how many results were wrong, then, with "bad" on its part of the boot command
// line (user/lib/kargs.c), runs an instruction the kernel must refuse (the thread's fault: the
// kernel kills it).
#include <kern.h>
#include <stdio.h>
#include <string.h>
#include "pidops.h"

#define ROUNDS 20

static unsigned bad;

void pidops_expect(const char *what, unsigned got, unsigned want)
{
    if (got != want && bad++ < 8)
        printf("pidops: %s gave %#x, not %#x\n", what, got, want);
}

int main(void)
{
    char buf[256], *argv[24];
    int argc = kargs("pidops", buf, sizeof(buf), argv, 24);
    for (int i = 1; i <= ROUNDS; i++)
        pidops_round(i);
    printf("pidops: called each %d times, %u wrong\n", ROUNDS, bad);
    if (argc > 1 && !strcmp(argv[1], "bad")) {
        printf("pidops: an instruction the kernel must not run\n");
        pidops_bad();
    }
    return bad ? 1 : 0;
}
