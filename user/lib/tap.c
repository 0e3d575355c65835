// SPDX-License-Identifier: MIT
// TAP lines for the on-target suites (tap.h): the check counter and the failure count. One
// thread prints at a time in every suite that uses it (the checks run in the suite's main).
#include <tap.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

void tap_check(bool ok, const char *fmt, ...)
{
    va_list ap;
    tap_n++;
    if (!ok)
        tap_failed++;
    printf("%s %d - ", ok ? "ok" : "not ok", tap_n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

int tap_done(const char *suite)
{
    printf("# %s: %d checks, %d failed\n", suite, tap_n, tap_failed);
    return tap_failed > 100 ? 100 : tap_failed;
}
