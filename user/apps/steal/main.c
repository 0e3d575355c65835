// SPDX-License-Identifier: MIT
// steal: threads made ready on one CPU's run queue and taken from it by the others, counted by
// the program itself (test/qemu/test_steal.sh). The main thread, bound to CPU 0, is the
// producer: each round it posts a semaphore once for each of WORKERS unbound threads of its own
// priority and spins, so each woken thread waits on CPU 0's queue (the kernel queues a thread
// woken by a running thread of its priority on the waker's CPU: kernel/sched.c place) while
// CPU 0 stays busy; the other CPUs, idle and interrupted for it or choosing after their own
// thread blocked, take them (pull), more of them than there are other CPUs. Then it waits for
// each to finish its run. The workers are FIFO threads of the image's highest priority
// (app.mk): nothing preempts one in its run, neither a more urgent thread nor a slice's end,
// so a worker leaves a run queue only at its wake-up, and the thread table tells which.
// Each worker reads the CPU it runs on from the kernel's thread table (ThreadInfo) when it
// starts and at each wake-up, and again at the end of its run: run elsewhere than CPU 0, it
// was taken from CPU 0's queue; ended on another CPU than it started on, it was preempted and
// taken from that CPU's queue while it ran (none, by the above: counted to show it). It
// prints, per worker and in all:
//   steal: thread T runs R taken N moved M
//   steal: W threads, R runs, N taken from CPU 0, M moved while running
#include <kern.h>
#include <stdio.h>
#include <uapi/kapi.h>

#define WORKERS 6
#define ROUNDS 40
#define STACK 1024
#define HOME 0u             // the producer's CPU: where every woken worker is queued

// Each stack with its guard below it (kern.h KSTACK), a row a thread.
static KSTACK(stacks[WORKERS], STACK);
static int go, finished;
static volatile int done;
static unsigned runs[WORKERS], taken[WORKERS], moved[WORKERS];

// The calling thread's slot in the kernel's thread table, and the CPU it runs on there.
static unsigned my_slot(int *cpu)
{
    struct kthread_info ti;
    uint32_t n = 0;
    int pid = ProcSelf(), tid = ThreadSelf();
    SysInfo(KSYSINFO_NTHREAD, &n);
    for (unsigned s = 0; s < n; s++)
        if (ThreadInfo(s, &ti) == 0 && ti.pid == pid && ti.tid == tid) {
            *cpu = ti.cpu;
            return s;
        }
    *cpu = -1;
    return 0;
}

static int cpu_at(unsigned slot)
{
    struct kthread_info ti;
    return ThreadInfo(slot, &ti) == 0 ? ti.cpu : -1;
}

// A run's work: long enough that the CPU stays taken while the others' threads are woken.
static void work(void)
{
    for (volatile unsigned spin = 0; spin < 20000u; spin++)
        ;
}

static int worker(void *arg)
{
    unsigned k = (unsigned)(uintptr_t)arg;
    int cpu;
    unsigned slot = my_slot(&cpu);      // its first run: queued on the creator's CPU too
    for (;;) {
        runs[k]++;
        taken[k] += cpu != (int)HOME;
        if (done)
            break;
        work();
        int end = cpu_at(slot);
        moved[k] += end != cpu;
        SemPost(finished);
        SemWait(go);
        cpu = cpu_at(slot);
    }
    return 0;
}

int main(void)
{
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << HOME));
    go = SemCreate(0);
    finished = SemCreate(0);
    int tid[WORKERS];
    for (unsigned k = 0; k < WORKERS; k++)
        tid[k] = ThreadCreate(worker, (void *)(uintptr_t)k, stacks[k], sizeof(stacks[k]), 0,
                              SCHED_POLICY_FIFO);
    for (unsigned k = 0; k < WORKERS; k++)
        SemWait(finished);
    for (unsigned r = 0; r < ROUNDS; r++) {
        for (unsigned k = 0; k < WORKERS; k++)
            SemPost(go);
        work();
        for (unsigned k = 0; k < WORKERS; k++)
            SemWait(finished);
        ThreadSleep(1000000);
    }
    done = 1;
    for (unsigned k = 0; k < WORKERS; k++)
        SemPost(go);
    unsigned r = 0, n = 0, m = 0;
    for (unsigned k = 0; k < WORKERS; k++) {
        ThreadJoin(tid[k], NULL);
        printf("steal: thread %d runs %u taken %u moved %u\n", tid[k], runs[k], taken[k], moved[k]);
        r += runs[k], n += taken[k], m += moved[k];
    }
    printf("steal: %u threads, %u runs, %u taken from CPU %u, %u moved while running\n", WORKERS,
           r, n, HOME, m);
    return 0;
}
