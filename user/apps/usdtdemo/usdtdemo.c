// SPDX-License-Identifier: MIT
// usdtdemo: USDT probes and the program's own count of how often it passed each site
// (docs/usdt.md), for test/qemu/test_usdt.sh: demo:::step (its two arguments where they came, in registers),
// demo:::third (a counter the compiler keeps in memory), demo:::done (none). step_plain is
// step without its site, so that the site's cost when disabled can be read from the code
// (scripts/bench-usdt.sh: their instructions compared).
#include <stdio.h>
#include <usdt.h>

static volatile unsigned passed_step, passed_plain, passed_third, passed_done;

__attribute__((noinline)) unsigned step(unsigned i, unsigned acc);
__attribute__((noinline)) unsigned step_plain(unsigned i, unsigned acc);

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

int main(void)
{
    unsigned acc = 0, plain = 0;
    for (unsigned i = 1; i <= 30; i++) {
        acc = step(i, acc);
        plain = step_plain(i, plain);
        if (i % 3u == 0) {
            passed_third++;
            USDT(demo, third, passed_third, -(int)i);
        }
    }
    USDT(demo, done);
    passed_done++;
    printf("usdtdemo: passed step %u third %u done %u, acc %u (plain %u)\n", passed_step,
           passed_third, passed_done, acc, plain);
    return acc == plain ? 0 : 1;
}
