// SPDX-License-Identifier: MIT
// smpstress's tests of mutexes and semaphores on every CPU at once (docs/smp.md, "Tests"):
// the kernel takes their calls on the big-reader lock's shared side when no priority
// inheritance and no timer is involved (kernel/sync.c), and exclusive otherwise, so these
// tests mix both sides on the same objects. The truths are the program's own counts:
//   5. a thread bound to each CPU with its own mutex and semaphore does SYNC_OPS rounds of
//      lock, increment, unlock, post, wait: every call succeeds and every counter is SYNC_OPS;
//   6. a thread bound to each CPU increments one plain (non-atomic) counter MUTEX_OPS times
//      under one mutex, with a window between its load and its store (every fourth time a
//      1 ms sleep, so that the others find the mutex owned): the counter ends at
//      CPUs x MUTEX_OPS only if no two threads were ever inside at once (mutual exclusion);
//   7. producers on half the CPUs post one semaphore, consumers on the others wait on it
//      (blocking when it is empty, woken by posts from other CPUs): the takes equal the posts,
//      and a wait after them times out (the count is back to 0: no post taken twice or lost);
//   8. a process (st_peer in its sync mode) whose threads on CPUs 1..n-1 lock, post and wait
//      without end is killed mid-wait KILLS_SYNC times: each kill is reported by ProcWait as
//      KSIG_KILL (smpstress's test 4 then checks that no thread is left behind).
#include "st_sync.h"
#include "st_run.h"
#include "st_kill.h"
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#define SS_MAXCPU 4
#define SYNC_OPS 400
// Fewer where every call may block and be woken from another CPU (an IPI and a wake-up each):
// on the host's clock, with 4 virtual CPUs on 2 busy cores, each costs up to milliseconds.
#define CONTEND_OPS 40
#define MUTEX_OPS 20        // (each increment here is a hand-over between CPUs: the slowest)
#define SYNC_STACK 2048
#define KILLS_SYNC 3
#define ST_PEER_SYNC (1u << 24)     // st_peer's ProcArg: sync mode (user/apps/st_peer)

static KSTACK(ss_stacks[SS_MAXCPU], SYNC_STACK);
static uint32_t ss_ncpu;

static int own_mutex[SS_MAXCPU], own_sem[SS_MAXCPU];
static volatile uint32_t own_count[SS_MAXCPU], own_errs[SS_MAXCPU];
// The first call that failed on each CPU: its name, the round, its result and errno.
static const char *own_fail_call[SS_MAXCPU];
static uint32_t own_fail_round[SS_MAXCPU];
static int own_fail_rc[SS_MAXCPU], own_fail_errno[SS_MAXCPU];

// Whether a raw kernel call (KCALL*, no errno) was refused with `err`. The refusals are read
// from the call's own result: errno is one word for all the process's threads (picolibc's TLS
// block is the image's, user/lib/libc_picolibc.c), so another CPU's refused call may overwrite
// it between a library call's return and the read.
static bool refused_with(int r, int err)
{
    return r == -err;
}

static void bind_to(uint32_t c)
{
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
}

// own_check: counts a failed call of own_objects (bad), noting the first one of CPU c.
static uint32_t own_check(uint32_t c, bool bad, const char *call, uint32_t round, int rc)
{
    if (bad && !own_fail_call[c]) {
        own_fail_call[c] = call;
        own_fail_round[c] = round;
        own_fail_rc[c] = rc;
        own_fail_errno[c] = rc < -1 ? -rc : errno;    // a raw call's, or the library's
    }
    return bad;
}

static int own_objects(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg, errs = 0;
    bind_to(c);
    int m = own_mutex[c], s = own_sem[c], r;
    for (uint32_t i = 0; i < SYNC_OPS; i++) {
        r = MutexLock(m);
        errs += own_check(c, r != 0, "MutexLock", i, r);
        if (i == 0) {       // its own: refused, not a deadlock
            r = (int)KCALL1(KC_MutexLock, m);
            errs += own_check(c, !refused_with(r, EDEADLK), "MutexLock (its own)", i, r);
        }
        own_count[c]++;
        r = MutexUnlock(m);
        errs += own_check(c, r != 0, "MutexUnlock", i, r);
        if (i == 0) {       // no longer its own
            r = (int)KCALL1(KC_MutexUnlock, m);
            errs += own_check(c, !refused_with(r, EPERM), "MutexUnlock (not its own)", i, r);
        }
        r = SemPost(s);
        errs += own_check(c, r != 0, "SemPost", i, r);
        r = SemWait(s);
        errs += own_check(c, r != 0, "SemWait", i, r);
    }
    own_errs[c] = errs;
    return 0;
}

// Starts fn on each CPU (one thread bound to each) and joins them; the number joined.
static uint32_t on_each_cpu(thread_fn fn, int prio)
{
    int tids[SS_MAXCPU];
    uint32_t joined = 0;
    for (uint32_t c = 0; c < ss_ncpu; c++)
        tids[c] = ThreadCreate(fn, (void *)(uintptr_t)c, ss_stacks[c],
                               sizeof(ss_stacks[0]), prio, 0);
    for (uint32_t c = 0; c < ss_ncpu; c++)
        joined += tids[c] > 0 && ThreadJoin(tids[c], NULL) == 0;
    return joined;
}

static bool test_own_objects(void)
{
    uint32_t shared0 = 0, shared1 = 0, bad = 0, errs = 0;
    for (uint32_t c = 0; c < ss_ncpu; c++) {
        own_mutex[c] = MutexCreate();
        own_sem[c] = SemCreate(0);
    }
    SysInfo(KSYSINFO_KCALLS_SHARED, &shared0);
    uint32_t joined = on_each_cpu(own_objects, 40);
    SysInfo(KSYSINFO_KCALLS_SHARED, &shared1);
    for (uint32_t c = 0; c < ss_ncpu; c++) {
        bad += own_count[c] != SYNC_OPS;
        errs += own_errs[c];
        if (own_fail_call[c])
            printf("# test 5: CPU %lu's first failed call: %s in round %lu returned %d errno %d\n",
                   (unsigned long)c, own_fail_call[c], (unsigned long)own_fail_round[c],
                   own_fail_rc[c], own_fail_errno[c]);
        int rm = MutexDestroy(own_mutex[c]), rs = SemDestroy(own_sem[c]);
        if (rm != 0 || rs != 0)
            printf("# test 5: CPU %lu's MutexDestroy returned %d, SemDestroy %d (errno %d)\n",
                   (unsigned long)c, rm, rs, errno);
        errs += rm != 0 || rs != 0;
    }
    bool ok = joined == ss_ncpu && !bad && !errs;
    printf("%s 5 - a thread on each of %lu CPUs with its own mutex and semaphore, %u rounds of "
           "lock, unlock, post, wait: %lu joined, %lu counts wrong, %lu calls failed (%lu kernel "
           "calls finished shared meanwhile)\n", ok ? "ok" : "not ok", (unsigned long)ss_ncpu,
           SYNC_OPS, (unsigned long)joined, (unsigned long)bad, (unsigned long)errs,
           (unsigned long)(shared1 - shared0));
    return ok;
}

static int one_mutex;
static uint32_t plain_counter;      // changed under one_mutex only, by plain loads and stores
static volatile uint32_t one_errs;

static int contend(void *arg)
{
    bind_to((uint32_t)(uintptr_t)arg);
    uint32_t errs = 0;
    for (uint32_t i = 0; i < MUTEX_OPS; i++) {
        errs += MutexLock(one_mutex) != 0;
        uint32_t v = *(volatile uint32_t *)&plain_counter;
        if ((i & 3u) == 0)
            ThreadSleep(1000000);   // a window for the others to come in, were they let in:
        else                        // they find the mutex owned (and block) or free
            for (volatile uint32_t d = 0; d < 20; d++)
                ;
        *(volatile uint32_t *)&plain_counter = v + 1u;
        errs += MutexUnlock(one_mutex) != 0;
    }
    __atomic_add_fetch(&one_errs, errs, __ATOMIC_SEQ_CST);
    return 0;
}

static bool test_one_mutex(void)
{
    one_mutex = MutexCreate();
    uint32_t joined = on_each_cpu(contend, 40);
    bool ok = joined == ss_ncpu && !one_errs && plain_counter == ss_ncpu * MUTEX_OPS &&
              MutexDestroy(one_mutex) == 0;
    printf("%s 6 - %lu threads on %lu CPUs increment one plain counter %u times each under one "
           "mutex: %lu (expected %lu), %lu calls failed\n", ok ? "ok" : "not ok",
           (unsigned long)ss_ncpu, (unsigned long)ss_ncpu, MUTEX_OPS,
           (unsigned long)plain_counter, (unsigned long)(ss_ncpu * MUTEX_OPS),
           (unsigned long)one_errs);
    return ok;
}

static int one_sem;
static volatile uint32_t posts, takes, sem_errs;

// Even CPUs consume, odd CPUs produce: with 4 CPUs two of each, with 2 one of each.
static int sem_worker(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg;
    bind_to(c);
    for (uint32_t i = 0; i < CONTEND_OPS; i++) {
        if (c & 1u) {
            if (SemPost(one_sem) == 0)
                __atomic_add_fetch(&posts, 1, __ATOMIC_SEQ_CST);
            else
                __atomic_add_fetch(&sem_errs, 1, __ATOMIC_SEQ_CST);
            ThreadSleep(1000000);   // the consumers run dry and block: each post wakes one
        } else {
            if (SemWait(one_sem) == 0)
                __atomic_add_fetch(&takes, 1, __ATOMIC_SEQ_CST);
            else
                __atomic_add_fetch(&sem_errs, 1, __ATOMIC_SEQ_CST);
        }
    }
    return 0;
}

static bool test_one_sem(void)
{
    one_sem = SemCreate(0);
    uint32_t joined = on_each_cpu(sem_worker, 40);
    TimerTimeout(20000000);         // 20 ms: nothing is left to take
    int extra = SemWait(one_sem), extra_errno = errno;
    uint32_t expect = (ss_ncpu / 2u) * CONTEND_OPS;
    bool ok = joined == ss_ncpu && !sem_errs && posts == expect && takes == expect &&
              extra == -1 && extra_errno == ETIMEDOUT && SemDestroy(one_sem) == 0;
    printf("%s 7 - producers on %lu CPUs post one semaphore, consumers on %lu wait on it: %lu "
           "posts, %lu takes (expected %lu each), a wait after them returned %d errno %d (ETIMEDOUT "
           "%d), %lu calls failed\n", ok ? "ok" : "not ok", (unsigned long)(ss_ncpu / 2u),
           (unsigned long)(ss_ncpu - ss_ncpu / 2u), (unsigned long)posts, (unsigned long)takes,
           (unsigned long)expect, extra, extra_errno, ETIMEDOUT, (unsigned long)sem_errs);
    return ok;
}

// Peer threads blocked on a mutex or a semaphore right now (ThreadInfo: uapi/kstate.h).
static uint32_t peer_waiting(int pid)
{
    uint32_t slots = 0, n = 0;
    struct kthread_info ti;
    SysInfo(KSYSINFO_NTHREAD, &slots);
    for (uint32_t i = 0; i < slots; i++)
        n += ThreadInfo(i, &ti) == 0 && ti.pid == pid &&
             (ti.state == THS_MUTEX || ti.state == THS_SEM);
    return n;
}

static bool test_kills(void)
{
    uint32_t killed_ok = 0, seen_waiting = 0;
    for (uint32_t k = 0; k < KILLS_SYNC; k++) {
        int peer = ProcSpawn("st_peer", 0, ST_PEER_SYNC | ss_ncpu << 16);
        ThreadSleep(5000000);
        seen_waiting += peer > 0 && peer_waiting(peer) > 0;
        int st;
        if (st_kill_reported(peer, &st))
            killed_ok++;
        else
            printf("# st_peer (sync): pid %d status %#x\n", peer, st);
    }
    bool ok = killed_ok == KILLS_SYNC;
    printf("%s 8 - a process locking and waiting on each of CPUs 1..%lu killed %u times: %lu "
           "reported killed by KSIG_KILL (%lu times with a thread blocked on a mutex or "
           "semaphore just before)\n", ok ? "ok" : "not ok", (unsigned long)(ss_ncpu - 1),
           KILLS_SYNC, (unsigned long)killed_ok, (unsigned long)seen_waiting);
    return ok;
}

// Runs tests 5 to 8; the number that failed.
int st_sync_tests(uint32_t ncpu)
{
    ss_ncpu = ncpu > SS_MAXCPU ? SS_MAXCPU : ncpu;
    bool (*const tests[])(void) = { test_own_objects, test_one_mutex, test_one_sem, test_kills };
    return st_run_timed(tests, sizeof(tests) / sizeof(tests[0]), 5u);
}
