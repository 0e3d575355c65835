// SPDX-License-Identifier: MIT
// worker: the CPU-bound background job at the lowest priority: two threads count primes in
// halves of a range and combine their results under a mutex; everything else preempts them.
#include <kern.h>
#include <stdio.h>

#define LIMIT 200000
static int lock;
static uint32_t total;
static KSTACK(stack2, 1024);

static int count_primes(void *arg)
{
    uint32_t lo = (uint32_t)(uintptr_t)arg, hi = lo + LIMIT / 2, n = 0;
    for (uint32_t x = lo < 2 ? 2 : lo; x < hi; x++) {
        uint32_t d = 2;
        while (d * d <= x && x % d)
            d++;
        n += d * d > x;
    }
    MutexLock(lock);
    total += n;
    MutexUnlock(lock);
    return 0;
}

int main(void)
{
    lock = MutexCreate();
    int t = ThreadCreate(count_primes, (void *)(uintptr_t)(LIMIT / 2), stack2, sizeof(stack2),
                         0, 0);
    ThreadName(t, "worker-2");
    count_primes((void *)0);
    ThreadJoin(t, NULL);
    printf("worker: %lu primes below %d\n", (unsigned long)total, LIMIT);
    return total == 17984 ? 0 : 3;
}
