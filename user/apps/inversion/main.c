// SPDX-License-Identifier: MIT
// inversion: two priority inversions on purpose, for the analysis tools (docs/analysis.md).
//
// Three threads: low (prio 10), mid (20), high (30); main (40) directs them.
//  1. A semaphore (no inheritance): low takes it and works; high blocks on it; mid, which
//     needs nothing, preempts low and runs MID_SPIN iterations: high waits all that time
//     behind a thread of lower priority than its own. kevstat names it: "INVERSION high
//     blocked on semaphore S held by low, preempted by mid: N us lost".
//  2. A mutex (the kernel's mutexes have priority inheritance): the same steps, but low runs
//     at high's priority while high waits, so mid cannot preempt it: no inversion, a boost.
// A priority inversion is a one-CPU scenario: with several CPUs mid would simply run on
// another CPU beside low, and "mid ran only after low released" would mean nothing. So main
// and the three threads run on CPU 0 only (ThreadCtl KTCTL_RUNMASK, each thread's first act,
// since a new thread may run anywhere), and the scenario is the same on every board, one CPU
// or four.
// The program measures, on its own (ClockCycles around each step, no trace involved), how
// long mid ran while high waited, and prints it with the threads' ids and the objects' ids:
//   inversion: sem S high H mid M low L mid_us R wait_us W
//   inheritance: mutex X high H mid M low L wait_us W mid_after_release Y
// which test/qemu/test_sync_apps.sh compares with what kevstat finds in the capture. The same
// two numbers go into the trace as user events the program names and gives formats to
// (trace_event_register): 101 "inversion" (trace_logi, two words), 102 "inversion_b" (the
// same as a buffer, trace_logb) and 103 "note" (a text, trace_logf); every tool shows them
// by name, the words through the format.
#define EV_INVERSION 101
#define EV_INVERSION_B 102
#define EV_NOTE 103
#include <kern.h>
#include <stdio.h>
#include <sys/trace.h>

#define LOW_SPIN  4000000u // low's work while holding the object (loop iterations)
#define MID_SPIN  1000000u // mid's work (loop iterations)

static int sem, mtx;
static volatile int use_mutex, low_holds;
static volatile uint64_t mid_t0, mid_t1, high_t0, high_t1, low_release;
static uint8_t stk_low[1024] __attribute__((aligned(8)));
static uint8_t stk_mid[1024] __attribute__((aligned(8)));
static uint8_t stk_high[1024] __attribute__((aligned(8)));

// Keeps the caller on CPU 0 from now on (on a one-CPU board the mask is all of them: a no-op).
static int on_cpu0(void)
{
    return ThreadCtl(KTCTL_RUNMASK, (void *)1u);
}

static void spin(uint32_t n)
{
    for (volatile uint32_t i = 0; i < n; i++)
        ;
}

static int low(void *arg)
{
    (void)arg;
    if (on_cpu0() || (use_mutex ? MutexLock(mtx) : SemWait(sem)))
        return 1;
    low_holds = 1;
    spin(LOW_SPIN);
    low_release = ClockCycles();
    return use_mutex ? MutexUnlock(mtx) != 0 : SemPost(sem) != 0;
}

static int mid(void *arg)
{
    (void)arg;
    if (on_cpu0())
        return 1;
    mid_t0 = ClockCycles();
    spin(MID_SPIN);
    mid_t1 = ClockCycles();
    return 0;
}

static int high(void *arg)
{
    (void)arg;
    if (on_cpu0())
        return 1;
    high_t0 = ClockCycles();
    int r = use_mutex ? MutexLock(mtx) : SemWait(sem);
    high_t1 = ClockCycles();
    if (r)
        return 1;
    return use_mutex ? MutexUnlock(mtx) != 0 : SemPost(sem) != 0;
}

static uint64_t us(uint64_t cycles)
{
    return cycles * 1000000u / ClockCyclesPerSec();
}

// One round: low takes the object, then high and mid arrive while it works.
static int round_of(int mutex, int *tl, int *tm, int *th)
{
    int st, bad = 0;
    use_mutex = mutex;
    low_holds = 0;
    *tl = ThreadCreate(low, NULL, stk_low, sizeof(stk_low), 10, 0);
    ThreadName(*tl, "low");
    for (int i = 0; i < 1000 && !low_holds; i++)
        ThreadSleep(500000);            // low runs (other programs may too), takes the object
    *th = ThreadCreate(high, NULL, stk_high, sizeof(stk_high), 30, 0);
    ThreadName(*th, "high");
    *tm = ThreadCreate(mid, NULL, stk_mid, sizeof(stk_mid), 20, 0);
    ThreadName(*tm, "mid");
    if (*tl < 0 || *tm < 0 || *th < 0)
        return 1;
    ThreadJoin(*th, &st), bad |= st;    // high blocks, mid runs (or not: inheritance)
    ThreadJoin(*tm, &st), bad |= st;
    ThreadJoin(*tl, &st), bad |= st;
    return bad;
}

int main(void)
{
    int self = ThreadSelf(), tl, tm, th;
    sem = SemCreate(1);
    mtx = MutexCreate();
    if (sem < 0 || mtx < 0 || on_cpu0()) {
        printf("inversion: set-up failed\n");
        return 1;
    }
    ThreadName(self, "main");
    if (round_of(0, &tl, &tm, &th))
        return 2;
    // mid ran entirely while high waited: all of mid's run is time lost to the inversion.
    uint32_t both[2] = { (uint32_t)us(mid_t1 - mid_t0), (uint32_t)us(high_t1 - high_t0) };
    trace_event_register(EV_INVERSION, "inversion", "mid ran %u us while high waited %u us");
    trace_event_register(EV_INVERSION_B, "inversion_b", "mid %u us, high %u us");
    trace_logi(EV_INVERSION, both[0], both[1]);
    trace_logb(EV_INVERSION_B, both, sizeof(both));
    trace_logf(EV_NOTE, "sem %d held by low %d", sem, tl);
    printf("inversion: sem %d high %d mid %d low %d mid_us %llu wait_us %llu\n", sem, th, tm,
           tl, (unsigned long long)us(mid_t1 - mid_t0),
           (unsigned long long)us(high_t1 - high_t0));
    if (round_of(1, &tl, &tm, &th))
        return 3;
    // With inheritance mid starts only after low released the mutex.
    printf("inheritance: mutex %d high %d mid %d low %d wait_us %llu mid_after_release %d\n",
           mtx, th, tm, tl, (unsigned long long)us(high_t1 - high_t0),
           mid_t0 >= low_release);
    return 0;
}
