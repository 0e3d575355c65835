// SPDX-License-Identifier: MIT
// smpstress's tests of priority inheritance across CPUs (kernel/sync.c: a contended MutexLock
// and a MutexUnlock that hands its mutex over run on the big-reader lock's shared side, under
// the priority lock: kernel/thread.c prio_lock). The truths are the program's own:
//   14. a mutex ping-pong between CPUs 1 and 2: each thread waits until it sees the other
//       blocked on the mutex (ThreadInfo: MUTEX) before it unlocks, so every lock but the first
//       is contended and every unlock hands over. The kernel's count of exclusive entries
//       (SysInfo) less the program's own exclusive calls (its ThreadInfo polls, counted) must
//       stay under ROUNDS / 8: a contended lock or a hand-over going exclusive adds 4 a round;
//   15. inversion across CPUs: low (prio 10, CPU 2) holds an object and works; mid (20, CPU 2)
//       spins until told to stop; high (30, CPU 1) takes the object. With a mutex, low must run
//       in mid's place and hand over before the program's deadline (DEADLINE_NS, which stops
//       mid): high gets the mutex while mid still spins. With a semaphore (no inheritance, the
//       control) low cannot run until mid stops: high gets it only after the deadline;
//   16. PI_THREADS threads on every CPU at random priorities (changed at random by ThreadSetPrio
//       meanwhile) take random sets of PI_MUTEXES mutexes in increasing order (so that chains
//       of owners form, but no cycle), increment each one's plain counter under it, and at
//       random wait on a condition variable on the first (with a timeout) or broadcast it, for
//       PI_RUN_NS: every thread joins, every mutex's counter equals the takes its threads
//       counted, every mutex is free at the end (MutexDestroy succeeds), and every thread,
//       holding nothing at its end, runs at the base priority it last set (ThreadInfo).
#include "st_pi.h"
#include "st_msg.h"
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#define ROUNDS 200u
#define DEADLINE_NS 50000000u   // test 15: mid spins this long at most
#define LOW_WORK 20000u         // test 15: low's work holding the object (loop iterations)
#define PI_THREADS 8
#define PI_MUTEXES 4
#define PI_RUN_NS 1500000000u

// PI_THREADS stacks of pi_stack_size bytes, smpstress's (its earlier tests' threads are joined).
static uint8_t *pi_stack_base;
static uint32_t pi_stack_size;

static void *pi_stack(uint32_t k)
{
    return pi_stack_base + k * pi_stack_size;
}

static void bind_to(uint32_t c)
{
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
}

// The slot of this process's thread `tid` (ThreadInfo numbers threads by slot), or -1.
static int slot_of(int tid)
{
    uint32_t slots = 0;
    struct kthread_info ti;
    int pid = ProcSelf();
    SysInfo(KSYSINFO_NTHREAD, &slots);
    for (uint32_t i = 0; i < slots; i++)
        if (ThreadInfo(i, &ti) == 0 && ti.pid == pid && ti.tid == tid)
            return (int)i;
    return -1;
}

// ---- 14: a contended mutex ping-pong between two CPUs ----
static int pp_mutex;
static volatile int pp_slot[2];
static volatile uint32_t pp_polls[2], pp_errs, pp_started, pp_go;

// Spins until the thread in `slot` is blocked on a mutex; counts its own ThreadInfo calls.
static void wait_blocked(uint32_t side, int slot)
{
    struct kthread_info ti;
    for (;;) {
        pp_polls[side]++;
        if (ThreadInfo((unsigned)slot, &ti) == 0 && ti.state == THS_MUTEX)
            return;
        for (volatile uint32_t d = 0; d < 200; d++)
            ;
    }
}

// Side 0 (CPU 1) takes the mutex first; then each round: wait until the other blocks on it,
// unlock (a hand-over), lock again (blocks: the other owns it now).
static int pp_thread(void *arg)
{
    uint32_t side = (uint32_t)(uintptr_t)arg;
    bind_to(1u + side);
    uint32_t errs = 0;
    if (side == 0)
        errs += MutexLock(pp_mutex) != 0;
    __atomic_add_fetch(&pp_started, 1, __ATOMIC_SEQ_CST);
    while (!pp_go)
        ;
    if (side == 1)
        errs += MutexLock(pp_mutex) != 0;   // the first contended lock
    for (uint32_t i = 0; i < ROUNDS; i++) {
        wait_blocked(side, pp_slot[side ^ 1u]);
        errs += MutexUnlock(pp_mutex) != 0;
        if (i + 1 < ROUNDS || side == 0)
            errs += MutexLock(pp_mutex) != 0;
    }
    __atomic_add_fetch(&pp_errs, errs, __ATOMIC_SEQ_CST);
    return 0;
}

static bool test_pingpong(void)
{
    pp_mutex = MutexCreate();
    pp_slot[0] = pp_slot[1] = -1;
    pp_started = pp_go = 0;
    int tid[2];
    for (uint32_t s = 0; s < 2; s++)
        tid[s] = ThreadCreate(pp_thread, (void *)(uintptr_t)s, pi_stack(s), pi_stack_size, 50, 0);
    for (uint32_t s = 0; s < 2; s++)
        pp_slot[s] = slot_of(tid[s]);
    while (pp_started < 2)
        ThreadSleep(1000000);
    uint32_t e0 = exclusive_entries();
    pp_go = pp_slot[0] >= 0 && pp_slot[1] >= 0;
    uint32_t joined = 0;
    for (uint32_t s = 0; s < 2; s++)
        joined += ThreadJoin(tid[s], NULL) == 0;
    // Side 0 took it last and ends holding it (its exit frees it); side 1 ended after its
    // last unlock.
    uint32_t excl = exclusive_entries() - e0;
    // The program's own exclusive calls since e0: its polls, the threads' exits, the joins.
    uint32_t own = pp_polls[0] + pp_polls[1] + 2u + 2u;
    uint32_t extra = excl > own ? excl - own : 0;
    bool ok = joined == 2 && !pp_errs && pp_slot[0] >= 0 && pp_slot[1] >= 0 &&
              extra <= ROUNDS / 8u && MutexDestroy(pp_mutex) == 0;
    printf("%s 14 - a contended mutex ping-pong between CPUs 1 and 2, %u rounds (%u contended "
           "locks and hand-overs): %lu exclusive entries, %lu of them the program's own "
           "(ThreadInfo polls...), %lu left (at most %u allowed; %lu.%03lu per operation); %lu "
           "calls failed\n", ok ? "ok" : "not ok", ROUNDS, 4u * ROUNDS, (unsigned long)excl,
           (unsigned long)own, (unsigned long)extra, ROUNDS / 8u,
           (unsigned long)(extra / (4u * ROUNDS)),
           (unsigned long)(extra * 1000u / (4u * ROUNDS) % 1000u), (unsigned long)pp_errs);
    return ok;
}

// ---- 15: an inversion across CPUs, with a mutex and with a semaphore ----
static int inv_mutex, inv_sem;
static volatile uint32_t inv_use_mutex, low_holds, low_progress, mid_spinning, mid_stop,
    high_got, high_got_while_mid, low_progress_under_mid;

static void inv_take(void)
{
    if (inv_use_mutex)
        MutexLock(inv_mutex);
    else
        SemWait(inv_sem);
}

static void inv_give(void)
{
    if (inv_use_mutex)
        MutexUnlock(inv_mutex);
    else
        SemPost(inv_sem);
}

static int inv_low(void *arg)
{
    (void)arg;
    bind_to(2);
    inv_take();
    low_holds = 1;
    while (!mid_spinning)       // mid comes and takes the CPU from it
        ;
    uint32_t seen_mid = 0;
    for (uint32_t i = 0; i < LOW_WORK; i++) {
        low_progress++;
        seen_mid += mid_spinning && !mid_stop;
    }
    low_progress_under_mid = seen_mid;
    inv_give();
    return 0;
}

static int inv_mid(void *arg)
{
    (void)arg;
    bind_to(2);
    mid_spinning = 1;
    while (!mid_stop)
        ;
    return 0;
}

static int inv_high(void *arg)
{
    (void)arg;
    bind_to(1);
    inv_take();
    high_got_while_mid = !mid_stop;
    high_got = 1;
    inv_give();
    return 0;
}

// One run: the object taken by low, mid spinning, high taking it; whether high got it while
// mid still spun (before the deadline), and low's progress while mid was there.
static bool inv_run(bool mutex, uint32_t *progress_under_mid)
{
    inv_use_mutex = mutex;
    low_holds = low_progress = mid_spinning = mid_stop = high_got = high_got_while_mid = 0;
    low_progress_under_mid = 0;
    int tl = ThreadCreate(inv_low, NULL, pi_stack(0), pi_stack_size, 10, SCHED_POLICY_FIFO);
    while (!low_holds)
        ThreadSleep(1000000);
    int tm = ThreadCreate(inv_mid, NULL, pi_stack(1), pi_stack_size, 20, SCHED_POLICY_FIFO);
    while (!mid_spinning)
        ThreadSleep(1000000);
    int th = ThreadCreate(inv_high, NULL, pi_stack(2), pi_stack_size, 30, SCHED_POLICY_FIFO);
    uint64_t t0 = ClockTime();
    while (!high_got && ClockTime() - t0 < DEADLINE_NS)
        ThreadSleep(1000000);
    mid_stop = 1;
    ThreadJoin(th, NULL);
    ThreadJoin(tm, NULL);
    ThreadJoin(tl, NULL);
    *progress_under_mid = low_progress_under_mid;
    return high_got_while_mid;
}

static bool test_inversion(void)
{
    inv_mutex = MutexCreate();
    inv_sem = SemCreate(1);
    uint32_t pm = 0, ps = 0;
    bool mutex_in_time = inv_run(true, &pm);
    bool sem_in_time = inv_run(false, &ps);
    bool ok = mutex_in_time && pm > 0 && !sem_in_time && MutexDestroy(inv_mutex) == 0 &&
              SemDestroy(inv_sem) == 0;
    printf("%s 15 - high (CPU 1) waits for an object low holds on CPU 2 while mid spins there: "
           "with a mutex high got it while mid spun: %s (low worked %lu of %u steps beside a "
           "spinning mid, at high's priority); with a semaphore (no inheritance): %s (must be "
           "no: low waits for mid's deadline)\n", ok ? "ok" : "not ok",
           mutex_in_time ? "yes" : "no", (unsigned long)pm, LOW_WORK,
           sem_in_time ? "yes" : "no");
    return ok;
}

// ---- 16: chains of owners, condvar waits and broadcasts, random priorities ----
static int st_mutex[PI_MUTEXES], st_cond;
static uint32_t st_counter[PI_MUTEXES];           // each changed under its mutex only
static volatile uint32_t st_takes[PI_THREADS][PI_MUTEXES], st_errs, st_prio_bad, st_waits,
    st_timeouts, st_broadcasts, st_prio_sets;
static volatile uint64_t st_end;

static uint32_t xorshift(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

// Holding mutex 0 (the condvar's) and no other: at random a wait (bounded by a timeout; it
// owns mutex 0 again when it returns and increments its counter once more) or a broadcast.
// The number of calls that failed.
static uint32_t cond_step(uint32_t k, uint32_t *seed)
{
    uint32_t r = xorshift(seed) % 8u;
    if (r == 0) {
        TimerTimeout(1000000);
        int w = CondWait(st_cond, st_mutex[0]);
        int e = errno;
        st_takes[k][0]++;
        uint32_t v = *(volatile uint32_t *)&st_counter[0];
        *(volatile uint32_t *)&st_counter[0] = v + 1u;
        if (w == 0)
            __atomic_add_fetch(&st_waits, 1, __ATOMIC_SEQ_CST);
        else if (e == ETIMEDOUT)
            __atomic_add_fetch(&st_timeouts, 1, __ATOMIC_SEQ_CST);
        else
            return 1;
    } else if (r < 3) {
        __atomic_add_fetch(&st_broadcasts, 1, __ATOMIC_SEQ_CST);
        return CondBroadcast(st_cond) != 0;
    }
    return 0;
}

static int st_worker(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg, seed = 0x9e3779b9u * (k + 1u), errs = 0;
    int base = 30 + (int)(k * 7u % 40u);
    if (k & 1u)                             // half bound to a CPU, half free to move
        bind_to(k / 2u % 4u);
    while (ClockTime() < st_end) {
        if (xorshift(&seed) % 16u == 0) {   // a new base priority, at any time
            base = 30 + (int)(xorshift(&seed) % 40u);
            errs += ThreadSetPrio(0, base, 0) != 0;
            __atomic_add_fetch(&st_prio_sets, 1, __ATOMIC_SEQ_CST);
        }
        uint32_t set = xorshift(&seed) % (1u << PI_MUTEXES);
        for (uint32_t m = 0; m < PI_MUTEXES; m++) {
            if (!(set >> m & 1u))
                continue;
            errs += MutexLock(st_mutex[m]) != 0;
            st_takes[k][m]++;
            uint32_t v = *(volatile uint32_t *)&st_counter[m];
            for (volatile uint32_t d = 0; d < xorshift(&seed) % 64u; d++)
                ;
            *(volatile uint32_t *)&st_counter[m] = v + 1u;
            if (m == 0)
                errs += cond_step(k, &seed);
        }
        for (int m = PI_MUTEXES - 1; m >= 0; m--)
            if (set >> m & 1u)
                errs += MutexUnlock(st_mutex[m]) != 0;
        if (xorshift(&seed) % 4u == 0)
            ThreadSleep(100000);            // a moment off the CPU: others take what it left
    }
    // Holding nothing, it runs at its own priority: no inheritance left behind.
    struct kthread_info ti;
    int slot = slot_of(ThreadSelf());
    if (slot < 0 || ThreadInfo((unsigned)slot, &ti) != 0 || ti.priority != base)
        __atomic_add_fetch(&st_prio_bad, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&st_errs, errs, __ATOMIC_SEQ_CST);
    return 0;
}

static bool test_chains(void)
{
    for (uint32_t m = 0; m < PI_MUTEXES; m++) {
        st_mutex[m] = MutexCreate();
        st_counter[m] = 0;
    }
    st_cond = CondCreate();
    st_end = ClockTime() + PI_RUN_NS;
    int tid[PI_THREADS];
    for (uint32_t k = 0; k < PI_THREADS; k++)
        tid[k] = ThreadCreate(st_worker, (void *)(uintptr_t)k, pi_stack(k), pi_stack_size,
                              30 + (int)(k * 7u % 40u), 0);
    uint32_t joined = 0, wrong = 0, busy = 0;
    for (uint32_t k = 0; k < PI_THREADS; k++)
        joined += tid[k] > 0 && ThreadJoin(tid[k], NULL) == 0;
    uint32_t total = 0;
    for (uint32_t m = 0; m < PI_MUTEXES; m++) {
        uint32_t sum = 0;
        for (uint32_t k = 0; k < PI_THREADS; k++)
            sum += st_takes[k][m];
        wrong += sum != st_counter[m];
        total += sum;
        busy += MutexDestroy(st_mutex[m]) != 0;
    }
    busy += CondDestroy(st_cond) != 0;
    bool ok = joined == PI_THREADS && !wrong && !busy && !st_errs && !st_prio_bad && total > 0;
    printf("%s 16 - %u threads at random priorities take random sets of %u mutexes in order "
           "(chains of owners), wait on and broadcast a condvar, for %u ms: %lu joined, %lu "
           "takes, %lu counters wrong, %lu objects not free at the end, %lu threads not back at "
           "their base priority, %lu calls failed (%lu waits signalled, %lu timed out, %lu "
           "broadcasts, %lu priority changes)\n", ok ? "ok" : "not ok", PI_THREADS, PI_MUTEXES,
           PI_RUN_NS / 1000000u, (unsigned long)joined, (unsigned long)total,
           (unsigned long)wrong, (unsigned long)busy, (unsigned long)st_prio_bad,
           (unsigned long)st_errs, (unsigned long)st_waits, (unsigned long)st_timeouts,
           (unsigned long)st_broadcasts, (unsigned long)st_prio_sets);
    return ok;
}

int st_pi_tests(uint32_t ncpu, uint8_t *stacks, uint32_t stack_size)
{
    pi_stack_base = stacks;
    pi_stack_size = stack_size;
    if (ncpu < 3) {
        printf("ok 14 # SKIP fewer than 3 CPUs\nok 15 # SKIP\nok 16 # SKIP\n");
        return 0;
    }
    bool (*const tests[])(void) = { test_pingpong, test_inversion, test_chains };
    int fails = 0;
    for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        uint64_t t0 = ClockTime();
        fails += !tests[i]();
        printf("# test %u took %lu ms\n", 14u + i, (unsigned long)((ClockTime() - t0) / 1000000u));
    }
    return fails;
}
