// SPDX-License-Identifier: MIT
// The timed run of a group of smpstress's tests (st_run.h), on the kernel's clock.
#include "st_run.h"
#include <kern.h>
#include <stdio.h>

int st_run_timed(bool (*const tests[])(void), unsigned n, unsigned first)
{
    int fails = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t0 = ClockTime();
        fails += !tests[i]();
        printf("# test %u took %lu ms\n", first + i, (unsigned long)((ClockTime() - t0) / 1000000u));
    }
    return fails;
}
