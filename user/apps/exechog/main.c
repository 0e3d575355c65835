// SPDX-License-Identifier: MIT
// exechog: what a thread's CPU executed of it, by its own clock reads, beside other CPUs' work.
// Under QEMU's exact mode (-icount) the CPUs run in turn and the counter is every CPU's
// instructions, so a thread's RUNNING time holds the other CPUs' turns. The hog, bound to the
// last CPU, reads the counter in a tight loop: a step of at most GAP counts is its own
// execution, a longer one a turn of another CPU (or an interrupt of its own). Workers bound to
// the other CPUs but CPU 0 alternate BURST-count bursts of work and sleeps. It prints
// "exechog: hog executed N of M counts (K steps over GAP)" and "exechog: hog's loop ran from S
// to E (counts since boot)": the clock it saw while it ran.
#include <cpus.h>
#include <kern.h>
#include <stdio.h>
#include <uapi/kapi.h>

#define HOG_COUNTS 2000000u  // its own execution to measure (32 ms at 62.5 MHz)
#define GAP 16u              // counts: longer steps are not its own
#define BURST 30000u         // counts of a worker's burst
#define STACK 1024

static KSTACK(stacks[4], STACK);
static volatile int stop;
static unsigned ncpus = 1;

static int worker(void *arg)
{
    cpus_bind((unsigned)(uintptr_t)arg);
    while (!stop) {
        uint64_t t0 = ClockCycles();
        while (ClockCycles() - t0 < BURST)
            ;
        ThreadSleep(500000u * (unsigned)(uintptr_t)arg);
    }
    return 0;
}

int main(void)
{
    ncpus = cpus_count();
    int tid[4], nw = 0;
    for (unsigned c = 1; c + 1 < ncpus && nw < 4; c++, nw++)
        tid[nw] = ThreadCreate(worker, (void *)(uintptr_t)c, stacks[nw], sizeof(stacks[0]), 0, 0);
    cpus_bind(ncpus - 1u);
    ThreadSleep(1000000);                 // (runs on its CPU from here)
    uint64_t own = 0, gaps = 0, start = ClockCycles(), prev = start;
    while (own < HOG_COUNTS) {
        uint64_t now = ClockCycles();
        if (now - prev <= GAP)
            own += now - prev;
        else
            gaps++;
        prev = now;
    }
    uint64_t end = prev;
    stop = 1;
    for (int k = 0; k < nw; k++)
        ThreadJoin(tid[k], NULL);
    printf("exechog: hog executed %llu of %llu counts (%llu steps over %u)\n",
           (unsigned long long)own, (unsigned long long)(end - start), (unsigned long long)gaps, GAP);
    printf("exechog: hog's loop ran from %llu to %llu (counts since boot)\n",
           (unsigned long long)start, (unsigned long long)end);
    return 0;
}
