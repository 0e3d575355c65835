// SPDX-License-Identifier: MIT
// cpuwake: wake-ups across CPUs, and calls QNX gives one number, with the program's own counts
// as the truth (test/qemu/test_cpuwake.sh). A producer bound to CPU 0 hands ROUNDS batches to
// two consumers bound to the last two CPUs through one mutex and one condvar: one item and a
// CondSignal, or every BCAST_EVERY-th round two items and a CondBroadcast, then a sleep, so
// that the consumers wait on the condvar with their CPUs idle and each hand-over wakes a CPU.
// A mover thread alternates between CPUs 1 and 2, MOVES times, and counts the times the
// kernel's thread table (ThreadInfo) shows it on another CPU than before: its moves. It prints
// what it did: "cpuwake: N broadcasts, N signals, N items, N condvar waits, N moves by thread T".
#include <cpus.h>
#include <kern.h>
#include <stdio.h>
#include <uapi/kapi.h>

#define ROUNDS 200
#define BCAST_EVERY 4
#define MOVES 40
#define STACK 1024

static KSTACK(stacks[3], STACK);
static int mtx, cv, items, done;
static unsigned consumed[2], waits[2], ncpus = 1, moved;

static int consumer(void *arg)
{
    unsigned k = (unsigned)(uintptr_t)arg;
    cpus_bind(ncpus - 1u - k);
    MutexLock(mtx);
    for (;;) {
        while (!items && !done) {
            CondWait(cv, mtx);
            waits[k]++;
        }
        if (!items)
            break;
        items--;
        consumed[k]++;
    }
    MutexUnlock(mtx);
    return 0;
}

// The CPU the calling thread runs on, as the kernel's thread table has it (-1 not found).
static int my_cpu(void)
{
    struct kthread_info ti;
    uint32_t n = 0;
    int pid = ProcSelf(), tid = ThreadSelf();
    SysInfo(KSYSINFO_NTHREAD, &n);
    for (unsigned s = 0; s < n; s++)
        if (ThreadInfo(s, &ti) == 0 && ti.pid == pid && ti.tid == tid)
            return ti.cpu;
    return -1;
}

static int mover(void *arg)
{
    (void)arg;
    int was = my_cpu();
    for (unsigned i = 0; i < MOVES; i++) {
        cpus_bind(1u + (i & 1u));
        for (volatile unsigned spin = 0; spin < 2000u; spin++)
            ;
        int now = my_cpu();
        moved += now != was;
        was = now;
    }
    return 0;
}

int main(void)
{
    ncpus = cpus_count();
    cpus_bind(0);
    mtx = MutexCreate();
    cv = CondCreate();
    int tid[3];
    for (unsigned k = 0; k < 2; k++)
        tid[k] = ThreadCreate(consumer, (void *)(uintptr_t)k, stacks[k], sizeof(stacks[0]), 0, 0);
    tid[2] = ThreadCreate(mover, NULL, stacks[2], sizeof(stacks[0]), 0, 0);
    unsigned bcast = 0, sig = 0, given = 0;
    for (unsigned i = 1; i <= ROUNDS; i++) {
        MutexLock(mtx);
        if (i % BCAST_EVERY == 0) {
            items += 2, given += 2;
            CondBroadcast(cv), bcast++;
        } else {
            items++, given++;
            CondSignal(cv), sig++;
        }
        MutexUnlock(mtx);
        ThreadSleep(300000);
    }
    MutexLock(mtx);
    done = 1;
    CondBroadcast(cv), bcast++;
    MutexUnlock(mtx);
    for (unsigned k = 0; k < 3; k++)
        ThreadJoin(tid[k], NULL);
    printf("cpuwake: %u broadcasts, %u signals, %u items, %u condvar waits, %u moves by thread %d\n",
           bcast, sig, consumed[0] + consumed[1], waits[0] + waits[1], moved, tid[2]);
    return consumed[0] + consumed[1] == given ? 0 : 1;
}
