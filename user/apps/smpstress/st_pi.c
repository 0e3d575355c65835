// SPDX-License-Identifier: MIT
// smpstress's tests of priority inheritance across CPUs (kernel/sync.c: a contended MutexLock
// and a MutexUnlock that hands its mutex over run on the big-reader lock's shared side, under
// the priority lock: kernel/thread.c prio_lock). The truths are the program's own:
//   14. a mutex ping-pong between CPUs 1 and 2: each thread waits until it sees the other
//       blocked on the mutex (ThreadInfo: MUTEX) before it unlocks, so every lock but the first
//       is contended and every unlock hands over. The kernel's count of exclusive entries
//       (SysInfo) less the program's own exclusive calls (its ThreadInfo polls, counted) and
//       the ticks' (one a tick period of the run) must stay under ROUNDS / 8: a contended lock
//       or a hand-over going exclusive adds 4 a round;
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
//       holding nothing at its end, runs at the base priority it last set (ThreadInfo). Beside
//       them a server (CPU 3) receives and replies holding the last mutex (its priority then
//       changes with each message under the priority lock), a client on CPU 2 sending to it;
//       its takes count with the workers';
//   17. a condvar producer (CPU 1) and consumer (CPU 2) pass ROUNDS items in order through a
//       one-item buffer, each waiting on its condvar and signalling the other's: every item
//       taken once, in order; the exclusive entries (SysInfo) less the program's own and the
//       ticks' (one a tick period of the run) must stay under ROUNDS / 8, where a CondWait or a
//       waking CondSignal going exclusive adds about 2 a round.
#include "st_pi.h"
#include "st_run.h"
#include "st_msg.h"
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#define ROUNDS 200u
#define DEADLINE_NS 50000000u   // test 15: mid spins this long at most
#define LOW_WORK 20000u         // test 15: low's work holding the object (loop iterations)
#define PI_THREADS 8             // test 16: PI_WORKERS, its server and its client
#define PI_WORKERS (PI_THREADS - 2)
#define ST_SERVER_PRIO 50
#define ST_CLIENT_PRIO 60
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

// The slot of this process's live thread `tid` (ThreadInfo numbers threads by slot; a zombie
// of an earlier test may have had the same tid), or -1.
static int slot_of(int tid)
{
    uint32_t slots = 0;
    struct kthread_info ti;
    int pid = ProcSelf();
    SysInfo(KSYSINFO_NTHREAD, &slots);
    for (uint32_t i = 0; i < slots; i++)
        if (ThreadInfo(i, &ti) == 0 && ti.pid == pid && ti.tid == tid && ti.state != THS_DEAD)
            return (int)i;
    return -1;
}

// The tick periods since t0 (ClockTime), one more for the one under way: the exclusive entries
// of the tick (taken exclusive by one CPU each period) over a run that began at t0.
static uint32_t ticks_since(uint64_t t0)
{
    uint32_t tick_ns = 1000000;
    SysInfo(KSYSINFO_TICK_NS, &tick_ns);
    return (uint32_t)((ClockTime() - t0) / (tick_ns ? tick_ns : 1u)) + 1u;
}

// ---- 14: a contended mutex ping-pong between two CPUs ----
static int pp_mutex;
static volatile int pp_slot[2];
static int pp_started, pp_go;        // semaphores: a side is on its CPU; the sides may begin
static volatile uint32_t pp_polls[2], pp_errs, pp_abort;
#define PP_MAX_POLLS 100000u    // a wait for the other side given up (counted as a failure)

// Spins until the thread in `slot` is blocked on a mutex; counts its own ThreadInfo calls.
// 1 when it never was (PP_MAX_POLLS).
static uint32_t wait_blocked(uint32_t side, int slot)
{
    struct kthread_info ti;
    for (uint32_t i = 0; i < PP_MAX_POLLS; i++) {
        pp_polls[side]++;
        if (ThreadInfo((unsigned)slot, &ti) == 0 && ti.state == THS_MUTEX)
            return 0;
        for (volatile uint32_t d = 0; d < 200; d++)
            ;
    }
    return 1;
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
    errs += SemPost(pp_started) != 0;
    errs += SemWait(pp_go) != 0;
    if (pp_abort) {                         // the other side's slot was not found
        errs += side == 0 && MutexUnlock(pp_mutex) != 0;
        __atomic_add_fetch(&pp_errs, errs + 1u, __ATOMIC_SEQ_CST);
        return 0;
    }
    if (side == 1)
        errs += MutexLock(pp_mutex) != 0;   // the first contended lock
    for (uint32_t i = 0; i < ROUNDS; i++) {
        errs += wait_blocked(side, pp_slot[side ^ 1u]);
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
    pp_started = SemCreate(0);
    pp_go = SemCreate(0);
    pp_abort = pp_errs = 0;
    pp_polls[0] = pp_polls[1] = 0;
    int tid[2];
    for (uint32_t s = 0; s < 2; s++)
        tid[s] = ThreadCreate(pp_thread, (void *)(uintptr_t)s, pi_stack(s), pi_stack_size, 50, 0);
    for (uint32_t s = 0; s < 2; s++)
        pp_slot[s] = slot_of(tid[s]);
    uint32_t started = 0;
    for (uint32_t s = 0; s < 2; s++) {
        TimerTimeout(2000000000);   // (a side that never starts fails the test, not the run)
        started += SemWait(pp_started) == 0;
    }
    uint64_t t0 = ClockTime();
    uint32_t e0 = exclusive_entries();
    pp_abort = pp_slot[0] < 0 || pp_slot[1] < 0 || started < 2;
    SemPost(pp_go);
    SemPost(pp_go);
    uint32_t joined = 0;
    for (uint32_t s = 0; s < 2; s++) {
        TimerTimeout(10000000000ull);
        joined += ThreadJoin(tid[s], NULL) == 0;
    }
    // Side 0 took it last and ends holding it (its exit frees it); side 1 ended after its
    // last unlock.
    uint32_t excl = exclusive_entries() - e0;
    // The program's own exclusive calls since e0: its polls, the threads' exits, the joins
    // and their timeouts; and the ticks of the run.
    uint32_t own = pp_polls[0] + pp_polls[1] + 2u + 4u + ticks_since(t0);
    uint32_t extra = excl > own ? excl - own : 0;
    bool ok = joined == 2 && started == 2 && !pp_errs && !pp_abort && extra <= ROUNDS / 8u &&
              MutexDestroy(pp_mutex) == 0 && SemDestroy(pp_started) == 0 &&
              SemDestroy(pp_go) == 0;
    printf("%s 14 - a contended mutex ping-pong between CPUs 1 and 2, %u rounds (%u contended "
           "locks and hand-overs): %lu exclusive entries, %lu of them the program's own "
           "(ThreadInfo polls...) and the ticks', %lu left (at most %u allowed; %lu.%03lu per operation); %lu "
           "calls failed (%lu of 2 sides started, %lu joined)\n", ok ? "ok" : "not ok", ROUNDS,
           4u * ROUNDS, (unsigned long)excl,
           (unsigned long)own, (unsigned long)extra, ROUNDS / 8u,
           (unsigned long)(extra / (4u * ROUNDS)),
           (unsigned long)(extra * 1000u / (4u * ROUNDS) % 1000u), (unsigned long)pp_errs,
           (unsigned long)started, (unsigned long)joined);
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

// ---- 17: a condvar producer/consumer between two CPUs ----
static int pc_mutex, pc_nonempty, pc_nonfull;
static uint32_t pc_item, pc_full;                 // under pc_mutex: a one-item buffer
static volatile uint32_t pc_errs, pc_out_of_order, pc_taken, pc_waits;

// CPU 1 puts the items 1..ROUNDS, one at a time; CPU 2 takes them. Each waits on its condvar
// while the buffer is full (empty) and signals the other's after its change.
static int pc_thread(void *arg)
{
    uint32_t producer = (uint32_t)(uintptr_t)arg == 0, errs = 0, waits = 0, expect = 1;
    bind_to(producer ? 1u : 2u);
    for (uint32_t i = 1; i <= ROUNDS; i++) {
        errs += MutexLock(pc_mutex) != 0;
        while (pc_full == producer) {
            errs += CondWait(producer ? pc_nonfull : pc_nonempty, pc_mutex) != 0;
            waits++;
        }
        if (producer) {
            pc_item = i;
        } else {
            pc_out_of_order += pc_item != expect++;
            pc_taken++;
        }
        pc_full = producer;
        errs += CondSignal(producer ? pc_nonempty : pc_nonfull) != 0;
        errs += MutexUnlock(pc_mutex) != 0;
        for (volatile uint32_t d = 0; !producer && d < 40000; d++)
            ;   // the consumer is the slower: the producer finds the buffer full and waits
    }
    __atomic_add_fetch(&pc_errs, errs, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&pc_waits, waits, __ATOMIC_SEQ_CST);
    return 0;
}

static bool test_producer_consumer(void)
{
    pc_mutex = MutexCreate();
    pc_nonempty = CondCreate();
    pc_nonfull = CondCreate();
    pc_item = pc_full = 0;
    uint64_t t0 = ClockTime();
    uint32_t e0 = exclusive_entries();
    int tid[2];
    for (uint32_t s = 0; s < 2; s++)
        tid[s] = ThreadCreate(pc_thread, (void *)(uintptr_t)s, pi_stack(s), pi_stack_size, 50, 0);
    uint32_t joined = 0;
    for (uint32_t s = 0; s < 2; s++)
        joined += tid[s] > 0 && ThreadJoin(tid[s], NULL) == 0;
    uint32_t excl = exclusive_entries() - e0;
    // The program's own: two creates, two runmasks, two exits, two joins; and the ticks
    // (exclusive on the CPU that takes them) of the run's time.
    uint32_t own = 8u + ticks_since(t0), extra = excl > own ? excl - own : 0;
    uint32_t ops = 4u * ROUNDS + pc_waits;    // locks, unlocks, signals, waits
    bool ok = joined == 2 && !pc_errs && !pc_out_of_order && pc_taken == ROUNDS &&
              pc_waits >= ROUNDS / 4u && extra <= ROUNDS / 8u && MutexDestroy(pc_mutex) == 0 &&
              CondDestroy(pc_nonempty) == 0 && CondDestroy(pc_nonfull) == 0;
    printf("%s 17 - a condvar producer on CPU 1 and consumer on CPU 2, %u items through a "
           "one-item buffer: %lu taken, %lu out of order, %lu waits; %lu exclusive entries, %lu "
           "the program's own and the ticks', %lu left (at most %u allowed; %lu.%03lu per operation of %lu); "
           "%lu calls failed\n", ok ? "ok" : "not ok", ROUNDS, (unsigned long)pc_taken,
           (unsigned long)pc_out_of_order, (unsigned long)pc_waits, (unsigned long)excl,
           (unsigned long)own, (unsigned long)extra, ROUNDS / 8u,
           (unsigned long)(extra / ops), (unsigned long)(extra * 1000u / ops % 1000u),
           (unsigned long)ops, (unsigned long)pc_errs);
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

// A thread of test 16 at its end, holding nothing: it runs at its own priority `base` (no
// inheritance left behind); its failed calls are added up.
static void st_end_check(int base, uint32_t errs)
{
    struct kthread_info ti;
    int slot = slot_of(ThreadSelf());
    if (slot < 0 || ThreadInfo((unsigned)slot, &ti) != 0 || ti.priority != base)
        __atomic_add_fetch(&st_prio_bad, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&st_errs, errs, __ATOMIC_SEQ_CST);
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
    st_end_check(base, errs);
    return 0;
}

// The server of test 16 (CPU 3): each message received and answered holding the last mutex,
// so that the message path changes the priority of a thread that holds one (and that the
// workers' MutexLock raises), until a request 0.
static int st_chid;

static int st_server(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg, errs = 0, v;
    const uint32_t last = PI_MUTEXES - 1;
    bind_to(3);
    do {
        errs += MutexLock(st_mutex[last]) != 0;
        union request rq = { 0 };
        int rcvid = MsgReceive(st_chid, &rq, sizeof(rq), NULL);
        v = rq.v;
        st_takes[k][last]++;
        uint32_t c = *(volatile uint32_t *)&st_counter[last];
        *(volatile uint32_t *)&st_counter[last] = c + 1u;
        errs += rcvid <= 0 || MsgReply(rcvid, 0, &v, sizeof(v)) != 0;
        errs += MutexUnlock(st_mutex[last]) != 0;
    } while (v);
    st_end_check(ST_SERVER_PRIO, errs);
    return 0;
}

// Its client (CPU 2), above it: the server runs at the client's priority while it answers.
static int st_client(void *arg)
{
    (void)arg;
    uint32_t errs = 0, v = 1;
    bind_to(2);
    int coid = ConnectAttach(0, st_chid);
    for (;; v++) {
        uint32_t req = ClockTime() < st_end ? v : 0, answer = ~0u;
        errs += MsgSend(coid, &req, sizeof(req), &answer, sizeof(answer)) != 0 || answer != req;
        if (!req)
            break;
    }
    errs += ConnectDetach(coid) != 0;
    st_end_check(ST_CLIENT_PRIO, errs);
    return 0;
}

static bool test_chains(void)
{
    for (uint32_t m = 0; m < PI_MUTEXES; m++) {
        st_mutex[m] = MutexCreate();
        st_counter[m] = 0;
    }
    st_cond = CondCreate();
    st_chid = ChannelCreate(0);
    st_end = ClockTime() + PI_RUN_NS;
    int tid[PI_THREADS];
    for (uint32_t k = 0; k < PI_WORKERS; k++)
        tid[k] = ThreadCreate(st_worker, (void *)(uintptr_t)k, pi_stack(k), pi_stack_size,
                              30 + (int)(k * 7u % 40u), 0);
    tid[PI_WORKERS] = ThreadCreate(st_server, (void *)(uintptr_t)PI_WORKERS,
                                   pi_stack(PI_WORKERS), pi_stack_size, ST_SERVER_PRIO, 0);
    tid[PI_WORKERS + 1] = ThreadCreate(st_client, NULL, pi_stack(PI_WORKERS + 1),
                                       pi_stack_size, ST_CLIENT_PRIO, 0);
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
    busy += CondDestroy(st_cond) != 0 || ChannelDestroy(st_chid) != 0;
    bool ok = joined == PI_THREADS && !wrong && !busy && !st_errs && !st_prio_bad && total > 0;
    printf("%s 16 - %u threads at random priorities take random sets of %u mutexes in order "
           "(chains of owners), wait on and broadcast a condvar, a server answers holding one, "
           "for %u ms: %lu of %u joined, %lu "
           "takes, %lu counters wrong, %lu objects not free at the end, %lu threads not back at "
           "their base priority, %lu calls failed (%lu waits signalled, %lu timed out, %lu "
           "broadcasts, %lu priority changes)\n", ok ? "ok" : "not ok", PI_WORKERS, PI_MUTEXES,
           PI_RUN_NS / 1000000u, (unsigned long)joined, PI_THREADS, (unsigned long)total,
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
        printf("ok 14 # SKIP fewer than 3 CPUs\nok 15 # SKIP\nok 16 # SKIP\nok 17 # SKIP\n");
        return 0;
    }
    bool (*const tests[])(void) = { test_pingpong, test_inversion, test_chains,
                                    test_producer_consumer };
    return st_run_timed(tests, sizeof(tests) / sizeof(tests[0]), 14u);
}
