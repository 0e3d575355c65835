// SPDX-License-Identifier: MIT
// usdtdemo's is-enabled probe (docs/usdt.md, "Is-enabled"): demo:::costly's second argument
// costs a loop to compute, so it is computed only while a D program enables the probe, and
// passed_costly counts how often that was, the program's own word for test/qemu/test_usdt.sh
// (every pass with the probe enabled, none without).
#define USDT_SEMAPHORES
#include <usdt.h>
#include "usdtdemo.h"

USDT_SEMAPHORE(demo, costly);
volatile unsigned passed_costly;

static __attribute__((noinline)) unsigned digest(unsigned i)
{
    unsigned h = 2166136261u;
    for (unsigned k = 0; k < 64; k++)
        h = (h ^ (i + k)) * 16777619u;
    return h;
}

void costly(unsigned i)
{
    if (USDT_ENABLED(demo, costly)) {
        passed_costly++;
        USDT(demo, costly, i, digest(i));
    }
}
