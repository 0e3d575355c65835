// SPDX-License-Identifier: MIT
// inversion: two priority inversions on purpose, for the analysis tools (docs/waits.md).
//
// Four threads: low (prio 10), mid (20), mid2 (25), high (30); main (40) directs them.
//  1. A semaphore (no inheritance): low takes it and works; high blocks on it; two middle
//     threads, which need nothing, take turns in low's place: mid2 runs MID2_SPIN iterations,
//     mid MID_SPIN (the larger share, though mid2 came first), mid2 MID2_SPIN again (handed
//     over with two semaphores, so neither is preempted while it measures itself): high
//     waits all that time behind threads of lower priority than its own. kevstat names it:
//     "INVERSION high blocked on semaphore S held by low, preempted by mid (prio 20) for A us,
//     mid2 (prio 25) for B us: A+B us lost".
//  2. A mutex (the kernel's mutexes have priority inheritance): the same steps, but low runs
//     at high's priority while high waits, so neither middle can preempt it: no inversion, a
//     boost.
// A priority inversion is a one-CPU scenario: with several CPUs mid would simply run on
// another CPU beside low, and "mid ran only after low released" would mean nothing. So main
// and the three threads run on CPU 0 only (ThreadCtl KTCTL_RUNMASK, each thread's first act,
// since a new thread may run anywhere), and the scenario is the same on every board, one CPU
// or four.
// The program measures, on its own (ClockCycles around each step, no trace involved), how
// long each middle thread ran while high waited, and prints it with the threads' ids and the
// objects' ids:
//   inversion: sem S high H mid M low L mid_us R wait_us W
//   inversion: mid2 M2 prio 25 mid2_us R2
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

#include <busy.h>

#define LOW_SPIN  4000000u // low's work while holding the object (loop iterations)
#define MID_SPIN  4000000u // mid's work (loop iterations)
#define MID2_SPIN  800000u // each of mid2's two runs, before and after mid's

static int sem, mtx, turn_mid, turn_mid2; // turn_*: the middles hand over to each other
static volatile int use_mutex, low_holds;
static volatile uint64_t mid_t0, mid_t1, mid2_run, high_t0, high_t1, low_release;
static KSTACK(stk_low, 1024);
static KSTACK(stk_mid, 1024);
static KSTACK(stk_mid2, 1024);
static KSTACK(stk_high, 1024);

static int low(void *arg)
{
    (void)arg;
    if (busy_on_cpu0() || (use_mutex ? MutexLock(mtx) : SemWait(sem)))
        return 1;
    low_holds = 1;
    busy_spin(LOW_SPIN);
    low_release = ClockCycles();
    return use_mutex ? MutexUnlock(mtx) != 0 : SemPost(sem) != 0;
}

// mid runs once, when mid2 hands it the turn, and hands it back when done (mid2, above it,
// then preempts it at once: after mid_t1).
static int mid(void *arg)
{
    (void)arg;
    if (busy_on_cpu0() || SemWait(turn_mid))
        return 1;
    mid_t0 = ClockCycles();
    busy_spin(MID_SPIN);
    mid_t1 = ClockCycles();
    return SemPost(turn_mid2) != 0;
}

// mid2 (above mid) runs first, hands mid the turn, waits for it back, runs again: its own run
// is the sum of its two measured runs.
static int mid2(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    uint64_t t0 = ClockCycles();
    busy_spin(MID2_SPIN);
    int bad = SemPost(turn_mid);        // mid, below mid2, waits for the CPU
    uint64_t t1 = ClockCycles();
    if (bad || SemWait(turn_mid2))      // blocks: mid runs
        return 1;
    uint64_t t2 = ClockCycles();
    busy_spin(MID2_SPIN);
    mid2_run = t1 - t0 + ClockCycles() - t2;
    return 0;
}

static int high(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
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

// One round: low takes the object, then high, mid2 and mid arrive while it works.
static int round_of(int mutex, int *tl, int *tm, int *tm2, int *th)
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
    *tm2 = ThreadCreate(mid2, NULL, stk_mid2, sizeof(stk_mid2), 25, 0);
    ThreadName(*tm2, "mid2");
    *tm = ThreadCreate(mid, NULL, stk_mid, sizeof(stk_mid), 20, 0);
    ThreadName(*tm, "mid");
    if (*tl < 0 || *tm < 0 || *tm2 < 0 || *th < 0)
        return 1;
    ThreadJoin(*th, &st), bad |= st;    // high blocks, the middles run (or not: inheritance)
    ThreadJoin(*tm2, &st), bad |= st;
    ThreadJoin(*tm, &st), bad |= st;
    ThreadJoin(*tl, &st), bad |= st;
    return bad;
}

int main(void)
{
    int self = ThreadSelf(), tl, tm, tm2, th;
    sem = SemCreate(1);
    mtx = MutexCreate();
    turn_mid = SemCreate(0);
    turn_mid2 = SemCreate(0);
    if (sem < 0 || mtx < 0 || turn_mid < 0 || turn_mid2 < 0 || busy_on_cpu0()) {
        printf("inversion: set-up failed\n");
        return 1;
    }
    ThreadName(self, "main");
    if (round_of(0, &tl, &tm, &tm2, &th))
        return 2;
    // mid and mid2 ran entirely while high waited: all their runs are time lost to the
    // inversion, each its own share.
    uint32_t both[2] = { (uint32_t)us(mid_t1 - mid_t0), (uint32_t)us(high_t1 - high_t0) };
    trace_event_register(EV_INVERSION, "inversion", "mid ran %u us while high waited %u us");
    trace_event_register(EV_INVERSION_B, "inversion_b", "mid %u us, high %u us");
    trace_logi(EV_INVERSION, both[0], both[1]);
    trace_logb(EV_INVERSION_B, both, sizeof(both));
    trace_logf(EV_NOTE, "sem %d held by low %d", sem, tl);
    printf("inversion: sem %d high %d mid %d low %d mid_us %llu wait_us %llu\n", sem, th, tm,
           tl, (unsigned long long)us(mid_t1 - mid_t0),
           (unsigned long long)us(high_t1 - high_t0));
    printf("inversion: mid2 %d prio 25 mid2_us %llu\n", tm2, (unsigned long long)us(mid2_run));
    if (round_of(1, &tl, &tm, &tm2, &th))
        return 3;
    // With inheritance mid starts only after low released the mutex.
    printf("inheritance: mutex %d high %d mid %d low %d wait_us %llu mid_after_release %d\n",
           mtx, th, tm, tl, (unsigned long long)us(high_t1 - high_t0),
           mid_t0 >= low_release);
    return 0;
}
