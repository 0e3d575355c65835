// SPDX-License-Identifier: MIT
// picross: a priority inversion across CPUs undone by inheritance, for a capture
// (test/qemu/test_pi_cpus.sh). low (prio 10) takes a mutex on CPU 2 and works; mid (20) comes
// to CPU 2 and spins until low has released; high (30), on CPU 1, takes the mutex. The kernel
// takes high's contended MutexLock and low's MutexUnlock on its shared side (kernel/sync.c):
// low must run at 30 while high waits (it makes progress beside a spinning mid), and back at
// 10 once it has handed the mutex over. The program prints what it knows on its own:
//   picross: mutex M low PID/TID mid PID/TID high PID/TID got_while_mid Y progress P
// (got_while_mid: before the program's deadline stopped mid) and the test compares it with the capture's SYNC_WAIT and PRIO_CHANGE events. With one CPU
// it says so and does nothing (the scenario needs two).
#include <kern.h>
#include <stdio.h>

#define LOW_WORK 200000u
#define DEADLINE_NS 100000000u

static int mtx;
static volatile uint32_t low_holds, mid_spinning, mid_stop, low_done, high_got, got_while_mid,
    progress;
static volatile int tid_low, tid_mid, tid_high;
static KSTACK(stk[3], 1024);

static int on_cpu(uint32_t c)
{
    return ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
}

static int low(void *arg)
{
    (void)arg;
    tid_low = ThreadSelf();
    if (on_cpu(2) || MutexLock(mtx))
        return 1;
    low_holds = 1;
    while (!mid_spinning)       // mid takes CPU 2 from it
        ;
    for (uint32_t i = 0; i < LOW_WORK; i++)
        progress += !low_done;
    low_done = 1;
    return MutexUnlock(mtx) != 0;
}

static int mid(void *arg)
{
    (void)arg;
    tid_mid = ThreadSelf();
    if (on_cpu(2))
        return 1;
    mid_spinning = 1;
    while (!low_done && !mid_stop)    // (without inheritance low never runs: the deadline)
        ;
    return 0;
}

static int high(void *arg)
{
    (void)arg;
    tid_high = ThreadSelf();
    if (on_cpu(1) || MutexLock(mtx))
        return 1;
    got_while_mid = !mid_stop;
    high_got = 1;
    return MutexUnlock(mtx) != 0;
}

int main(void)
{
    uint32_t ncpu = 1;
    SysInfo(KSYSINFO_NCPUS, &ncpu);
    if (ncpu < 3) {
        printf("picross: %lu CPUs, nothing to do\n", (unsigned long)ncpu);
        return 0;
    }
    on_cpu(0);
    mtx = MutexCreate();
    int tl = ThreadCreate(low, NULL, stk[0], sizeof(stk[0]), 10, SCHED_POLICY_FIFO);
    while (!low_holds)
        ThreadSleep(1000000);
    int tm = ThreadCreate(mid, NULL, stk[1], sizeof(stk[1]), 20, SCHED_POLICY_FIFO);
    while (!mid_spinning)
        ThreadSleep(1000000);
    int th = ThreadCreate(high, NULL, stk[2], sizeof(stk[2]), 30, SCHED_POLICY_FIFO);
    uint64_t t0 = ClockTime();
    while (!high_got && ClockTime() - t0 < DEADLINE_NS)
        ThreadSleep(1000000);
    mid_stop = 1;
    int st[3] = { -1, -1, -1 };
    ThreadJoin(th, &st[2]);
    ThreadJoin(tm, &st[1]);
    ThreadJoin(tl, &st[0]);
    int pid = ProcSelf();
    printf("picross: mutex %d low %d/%d mid %d/%d high %d/%d got_while_mid %lu progress %lu\n",
           mtx, pid, tid_low, pid, tid_mid, pid, tid_high, (unsigned long)got_while_mid,
           (unsigned long)progress);
    return (st[0] || st[1] || st[2] || !high_got || MutexDestroy(mtx)) ? 1 : 0;
}
