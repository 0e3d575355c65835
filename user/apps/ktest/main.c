// SPDX-License-Identifier: MIT
// ktest runner: runs every group, then exits with the failure count (0 = all passed).
#include "ktest.h"
#include <stdarg.h>

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

int tap_failures(void)
{
    return tap_failed;
}

uint64_t now_ms(void)
{
    return ClockTime() / 1000000u;
}

static uint8_t stacks[8][TSTACK_SIZE] __attribute__((aligned(8)));
static unsigned next_stack;

void *stack_get(void)
{
    return stacks[next_stack++ % 8];
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("# ktest: pid %d, kernel tests\n", ProcSelf());
    test_sched();
    test_ipc();
    test_sync();
    test_time();
    test_late_tick();
    test_irq();
    test_proc();
    test_errors();
    test_trace();
    test_qnx_trace();
    test_smp();
    printf("# ktest: %d checks, %d failed\n", tap_n, tap_failed);
    return tap_failed > 100 ? 100 : tap_failed;
}
