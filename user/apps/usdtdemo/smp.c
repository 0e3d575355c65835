// SPDX-License-Identifier: MIT
// usdtdemo's run on every CPU at once ("usdtdemo smp MS", docs/pid.md "Several CPUs"): a
// thread pinned to each CPU calls step_plain(k, acc) for k = 1, 2, ... until main tells them
// to stop, its own k the count of its calls, and checks each result (acc grows by 3k: a
// displaced instruction run wrong, the frame record or the return, would show). A D program
// started meanwhile places pid probes on step_plain and takes them off while these threads
// call it (test/qemu/test_pid_smp.sh): between the two, every call of a thread fires, so D's
// count for a thread is the span of the k it saw. main watches step_plain's first word (its
// text is readable to it) change and come back, so the threads run on past the removal
// however long D took to start; MS bounds the wait. Prints one line per thread and a summary.
#include <kern.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include "usdtdemo.h"

#define SMP_MAX   4u        // (the boards with several CPUs have 4)
#define SMP_STACK 2048u

static uint8_t stacks[SMP_MAX][SMP_STACK] __attribute__((aligned(16)));
static volatile uint32_t stop;
static volatile uint32_t calls[SMP_MAX], wrong[SMP_MAX];

static int caller(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
    unsigned acc = 0;
    uint32_t k = 0;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
        k++;
        unsigned want = acc + 3u * k;
        acc = step_plain(k, acc);
        if (acc != want) {
            wrong[c]++;
            acc = want;
        }
        calls[c] = k;
    }
    return 0;
}

// Sleeps until step_plain's first word differs from w (its pid trap placed) when placed,
// else until it is w again; false when ms milliseconds went by first.
static bool wait_text(uint32_t w, bool placed, unsigned *ms)
{
    const volatile uint32_t *at = (const volatile uint32_t *)((uintptr_t)step_plain & ~(uintptr_t)1);
    while ((*at != w) != placed) {
        if (!*ms)
            return false;
        (*ms)--;
        ThreadSleep(1000000u);
    }
    return true;
}

int smp_run(unsigned ms)
{
    uint32_t ncpu = 1;
    SysInfo(KSYSINFO_NCPUS, &ncpu);
    if (ncpu > SMP_MAX)
        ncpu = SMP_MAX;
    int tids[SMP_MAX];
    for (uint32_t c = 0; c < ncpu; c++)
        tids[c] = ThreadCreate(caller, (void *)(uintptr_t)c, stacks[c], SMP_STACK, 0, 0);
    uint32_t w = *(const volatile uint32_t *)((uintptr_t)step_plain & ~(uintptr_t)1);
    bool placed = wait_text(w, true, &ms), removed = placed && wait_text(w, false, &ms);
    // calls after the removal too: every thread's next two (the first may have entered while
    // placed), however long the host holds its CPU back
    uint32_t then[SMP_MAX];
    for (uint32_t c = 0; c < ncpu; c++)
        then[c] = calls[c];
    for (uint32_t c = 0; c < ncpu; c++)
        while (tids[c] >= 0 && calls[c] - then[c] < 2u && ms) {
            ms--;
            ThreadSleep(1000000u);
        }
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    uint32_t bad = 0, total = 0;
    for (uint32_t c = 0; c < ncpu; c++) {
        int st = -1;
        if (tids[c] < 0 || ThreadJoin(tids[c], &st) != 0 || st != 0)
            bad++;
        bad += wrong[c];
        total += calls[c];
        printf("usdtdemo: smp cpu %u tid %d calls %u wrong %u\n", (unsigned)c, tids[c],
               (unsigned)calls[c], (unsigned)wrong[c]);
    }
    printf("usdtdemo: smp step_plain's text: trap %s, instruction back %s\n",
           placed ? "seen" : "not seen", removed ? "seen" : "not seen");
    printf("usdtdemo: smp %u threads on %u CPUs, %u calls, %u wrong or lost\n",
           (unsigned)ncpu, (unsigned)ncpu, (unsigned)total, (unsigned)bad);
    return bad ? 1 : 0;
}
