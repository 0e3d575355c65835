// SPDX-License-Identifier: MIT
// usdtdemo: USDT probes and the program's own count of how often it passed each site
// (docs/usdt.md), for test/qemu/test_usdt.sh: demo:::step (its two arguments where they came, in registers),
// demo:::third (a counter the compiler keeps in memory), demo:::done (none). step_plain is
// step without its site, so that the site's cost when disabled can be read from the code
// (scripts/bench-usdt.sh: their instructions compared). step_plain and spread are the same
// test's pid probes (docs/pid.md): spread has an argument on the stack and opens with a push.
// demo:::costly, an is-enabled probe, is in costly.c.
#include <stdio.h>
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
    unsigned acc = 0, plain = 0;
    for (unsigned i = 1; i <= 30; i++) {
        acc = step(i, acc);
        plain = step_plain(i, plain);
        if (i % 4u == 1)
            spread((int)i, -(int)i, 7, (int)plain, 1000 + (int)i);
        if (i % 3u == 0) {
            passed_third++;
            USDT(demo, third, passed_third, -(int)i);
        }
        costly(i);
    }
    USDT(demo, done);
    passed_done++;
    printf("usdtdemo: passed step %u third %u done %u, acc %u (plain %u), costly %u\n",
           passed_step, passed_third, passed_done, acc, plain, passed_costly);
    return acc == plain ? 0 : 1;
}
