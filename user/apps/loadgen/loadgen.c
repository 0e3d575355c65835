// SPDX-License-Identifier: MIT
// loadgen: a known load for the load-average test (test/qemu/test_loadavg.sh; docs/fbt.md,
// "Kernel variables"). `loadgen [threads [ms]]` keeps `threads` threads runnable (spinning on
// the cycle counter, never blocking) for `ms` of that counter, while its main thread waits in
// ThreadJoin (not runnable). User events mark the span (EV_START before the first thread is
// created, EV_STOP after the last is joined) so that a D clause reads `avenrun at each end, and
// the program prints its own count of threads and its measured span: the truth the test's
// expected average is computed from on the host.
#include <kern.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 4
#define EV_START    240         // user event: a = threads, b = ms asked
#define EV_STOP     241         // user event: a = threads, b = ms measured

static uint64_t end;
static KSTACK(stacks[MAX_THREADS], 512);

// Runnable until the counter passes `end`: no kernel call but the exit.
static int spin(void *arg)
{
    (void)arg;
    while (ClockCycles() < end)
        ;
    return 0;
}

int main(void)
{
    static char cmd[128];
    char *argv[4];
    int argc = kargs("loadgen", cmd, sizeof(cmd), argv, 4);
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3u;
    unsigned ms = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 4000u;
    if (n < 1 || n > MAX_THREADS || ms < 1) {
        printf("loadgen: usage: loadgen [threads (1-%u) [ms]]\n", MAX_THREADS);
        return 1;
    }
    uint64_t cps = ClockCyclesPerSec();
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_START, n, ms);
    uint64_t start = ClockCycles();
    end = start + cps * ms / 1000u;
    int tid[MAX_THREADS];
    for (unsigned i = 0; i < n; i++) {
        tid[i] = ThreadCreate(spin, NULL, stacks[i], sizeof(stacks[i]), 0, 0);
        if (tid[i] < 0) {
            printf("loadgen: ThreadCreate failed\n");
            return 2;
        }
    }
    for (unsigned i = 0; i < n; i++)
        ThreadJoin(tid[i], NULL);
    unsigned took = (unsigned)((ClockCycles() - start) * 1000u / cps);
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_STOP, n, took);
    printf("loadgen: %u threads runnable for %u ms\n", n, took);
    return 0;
}
