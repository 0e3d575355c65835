// SPDX-License-Identifier: MIT
// Scheduling: priority order, preemption on create, round-robin versus FIFO.
#include "ktest.h"

static volatile int order[8];
static volatile int norder;

static int record(void *arg)
{
    order[norder++] = (int)(intptr_t)arg;
    return (int)(intptr_t)arg;
}

static void priority_order(void)
{
    int a, b, c, st = 0;
    norder = 0;
    a = ThreadCreate(record, (void *)1, stack_get(), TSTACK_SIZE, 60, 0);
    b = ThreadCreate(record, (void *)2, stack_get(), TSTACK_SIZE, 80, 0);
    c = ThreadCreate(record, (void *)3, stack_get(), TSTACK_SIZE, 70, 0);
    CHECK(a > 0 && b > 0 && c > 0, "three lower-priority threads created (tids %d %d %d)", a, b, c);
    CHECK(norder == 0, "lower-priority threads do not run while the creator runs");
    ThreadJoin(a, &st);
    CHECK(st == 1, "join returns the thread's exit status (%d)", st);
    ThreadJoin(b, NULL);
    ThreadJoin(c, NULL);
    CHECK(norder == 3 && order[0] == 2 && order[1] == 3 && order[2] == 1,
          "threads ran in priority order 80, 70, 60 (got %d %d %d)", order[0], order[1], order[2]);

    norder = 0;
    int d = ThreadCreate(record, (void *)4, stack_get(), TSTACK_SIZE, 120, 0);
    CHECK(norder == 1 && order[0] == 4, "a higher-priority thread preempts its creator at once");
    ThreadJoin(d, NULL);
}

static volatile int stop;
static volatile uint32_t counters[2];

static int spin(void *arg)
{
    int i = (int)(intptr_t)arg;
    while (!stop)
        counters[i]++;
    return 0;
}

static void rr_versus_fifo(int policy, bool expect_share)
{
    stop = 0;
    counters[0] = counters[1] = 0;
    int t1 = ThreadCreate(spin, (void *)0, stack_get(), TSTACK_SIZE, 50, policy);
    int t2 = ThreadCreate(spin, (void *)1, stack_get(), TSTACK_SIZE, 50, policy);
    ThreadSleep(40 * 1000000ull);
    uint32_t c0 = counters[0], c1 = counters[1];
    stop = 1;
    ThreadJoin(t1, NULL);
    ThreadJoin(t2, NULL);
    if (expect_share)
        CHECK(c0 > 0 && c1 > 0, "round-robin: equal priorities share the CPU (%lu, %lu)",
              (unsigned long)c0, (unsigned long)c1);
    else
        CHECK(c0 > 0 && c1 == 0, "FIFO: the first thread keeps the CPU (%lu, %lu)",
              (unsigned long)c0, (unsigned long)c1);
}

void test_sched(void)
{
    printf("# scheduling\n");
    priority_order();
    rr_versus_fifo(SCHED_POLICY_RR, true);
    rr_versus_fifo(SCHED_POLICY_FIFO, false);
    CHECK(ThreadYield() == 0, "ThreadYield with nothing else ready returns 0");
    CHECK(ThreadSelf() == 1, "the main thread is tid 1");
    CHECK(ThreadName(0, "ktest-main") == 0, "ThreadName names the caller");
}
