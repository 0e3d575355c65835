// SPDX-License-Identifier: MIT
// deadlock: an ABBA deadlock on purpose, for the analysis tools (docs/waits.md).
// Thread a takes mutex 1 then wants mutex 2; thread b takes mutex 2 then wants mutex 1; each
// waits (sleeping) until the other holds its first before it asks for its second. b's second
// lock has a timeout (TimerTimeout, TIMEOUT_MS): it fails with ETIMEDOUT, b lets mutex 2 go,
// a gets it and both end, so the run ends by itself in bounded time. The program prints who
// took which lock, from its own knowledge:
//   deadlock: a T1 holds mutex M1 waits mutex M2; b T2 holds mutex M2 waits mutex M1
//   deadlock: b timed out after N ms (errno E); a got mutex M2
// which test/qemu/test_sync_apps.sh compares with the cycle kevstat finds in the capture.
// No CPU binding: a deadlock is not a one-CPU scenario. Each thread waits for the other's
// first lock before asking for its second, so the cycle closes the same way on one CPU or
// on several (qemu-virt-a53 with 4: test_sync_apps.sh), whichever of the two asks last.
#include <errno.h>
#include <kern.h>
#include <stdio.h>

#define TIMEOUT_MS 50u

static int m1, m2;
static volatile int a_got2, b_err, a_has1, b_has2;

// Sleep until *flag is set (at most about a second).
static void await(volatile int *flag)
{
    for (int i = 0; i < 1000 && !*flag; i++)
        ThreadSleep(1000000);
}

// Each thread's first step: it takes its first mutex, says so, and waits until the other
// holds its own first: 0, or -1 when the lock failed.
static int hold_first(int m, volatile int *held, volatile int *other_held)
{
    if (MutexLock(m))
        return -1;
    *held = 1;
    await(other_held);
    return 0;
}

static KSTACK(stk_a, 1024);
static KSTACK(stk_b, 1024);

static int thread_a(void *arg)
{
    (void)arg;
    if (hold_first(m1, &a_has1, &b_has2))
        return 1;
    if (MutexLock(m2))                  // b holds it: the cycle closes here or in b
        return 1;
    a_got2 = 1;
    MutexUnlock(m2);
    MutexUnlock(m1);
    return 0;
}

static int thread_b(void *arg)
{
    (void)arg;
    if (hold_first(m2, &b_has2, &a_has1))
        return 1;
    ThreadSleep(1000000);               // a asks for mutex 2 first (blocks), then b closes the cycle
    TimerTimeout((uint64_t)TIMEOUT_MS * 1000000u);
    if (MutexLock(m1) == 0) {           // not expected: a holds it until it gets m2
        MutexUnlock(m1);
        MutexUnlock(m2);
        return 1;
    }
    b_err = errno;
    MutexUnlock(m2);                    // breaks the cycle: a gets mutex 2
    return 0;
}

int main(void)
{
    m1 = MutexCreate();
    m2 = MutexCreate();
    int ta = ThreadCreate(thread_a, NULL, stk_a, sizeof(stk_a), 10, 0);
    int tb = ThreadCreate(thread_b, NULL, stk_b, sizeof(stk_b), 10, 0);
    if (m1 < 0 || m2 < 0 || ta < 0 || tb < 0) {
        printf("deadlock: set-up failed\n");
        return 1;
    }
    ThreadName(ta, "a");
    ThreadName(tb, "b");
    printf("deadlock: a %d holds mutex %d waits mutex %d; b %d holds mutex %d waits mutex %d\n",
           ta, m1, m2, tb, m2, m1);
    int sa = 1, sb = 1;
    ThreadJoin(tb, &sb);
    ThreadJoin(ta, &sa);
    printf("deadlock: b timed out after %u ms (errno %d); a got mutex %d: %s\n", TIMEOUT_MS,
           b_err, m2, a_got2 ? "yes" : "no");
    return sa | sb | (b_err != ETIMEDOUT);
}
