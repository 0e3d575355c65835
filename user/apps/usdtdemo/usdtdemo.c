// SPDX-License-Identifier: MIT
// usdtdemo: USDT probes and the program's own count of how often it passed each site
// (docs/usdt.md), for test/qemu/test_usdt.sh: demo:::step (its two arguments where they came, in registers),
// demo:::third (a counter the compiler keeps in memory, and a negative value: the program
// prints the arguments it passed, which the capture's readers must show the same),
// demo:::done (none). step_plain is
// step without its site, so that the site's cost when disabled can be read from the code
// (scripts/bench-usdt.sh: their instructions compared). step_plain and spread are the same
// test's pid probes (docs/pid.md): spread has an argument on the stack and opens with a push.
// demo:::costly, an is-enabled probe, is in costly.c; "usdtdemo smp MS" on the boot command
// line ("usdtdemo smp MS WORD": WORD step_plain's first word in the ELF file) runs
// step_plain on every CPU at once instead (smp.c), "usdtdemo shapes" A64's
// function openings (shapes.c).
#include <kern.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <usdt.h>
#include "usdtdemo.h"

static volatile unsigned passed_step, passed_plain, passed_third, passed_done, passed_spread;

__attribute__((noinline)) unsigned step(unsigned i, unsigned acc);
__attribute__((noinline)) unsigned step_plain(unsigned i, unsigned acc);
__attribute__((noinline)) int spread(int a, int b, int c, int d, int e);

unsigned step(unsigned i, unsigned acc)
{
    USDT(demo, step, i, acc);
    acc += i * 3u;
    passed_step++;
    return acc;
}

unsigned step_plain(unsigned i, unsigned acc)
{
    acc += i * 3u;
    passed_plain++;
    return acc;
}

static __attribute__((noinline)) int count_spread(void)
{
    return (int)++passed_spread;
}

int spread(int a, int b, int c, int d, int e)
{
    int n = count_spread();
    return a * b - c * d + e * n;
}

int main(void)
{
    static char buf[2048];      // the whole boot line, as appinit reads it (x86-pc's D text)
    char *argv[32];             // (the words of every part, up to usdtdemo's)
    int argc = kargs("usdtdemo", buf, sizeof(buf), argv, 32);
    if (argc < 0) {
        printf("usdtdemo: the command line does not fit its %u bytes\n", (unsigned)sizeof(buf));
        return 2;
    }
    if (argc >= 2 && !strcmp(argv[1], "smp"))
        return smp_run(argc >= 3 ? (unsigned)atoi(argv[2]) : 1000u,
                       argc >= 4 ? (uint32_t)strtoul(argv[3], NULL, 0) : 0);
    if (argc >= 2 && !strcmp(argv[1], "shapes"))
        return shapes_run();
    unsigned acc = 0, plain = 0;
    int third_arg1[10];
    for (unsigned i = 1; i <= 30; i++) {
        acc = step(i, acc);
        plain = step_plain(i, plain);
        if (i % 4u == 1)
            spread((int)i, -(int)i, 7, (int)plain, 1000 + (int)i);
        if (i % 3u == 0) {
            passed_third++;
            USDT(demo, third, passed_third, -(int)i);
            third_arg1[(passed_third - 1) % 10u] = -(int)i;
        }
        costly(i);
    }
    USDT(demo, done);
    passed_done++;
    printf("usdtdemo: passed step %u third %u done %u, acc %u (plain %u), costly %u\n",
           passed_step, passed_third, passed_done, acc, plain, passed_costly);
    printf("usdtdemo: demo:third's arguments");
    for (unsigned k = 0; k < passed_third && k < 10u; k++)
        printf(" %u,%d", k + 1, third_arg1[k]);
    printf("\n");
    return acc == plain ? 0 : 1;
}
