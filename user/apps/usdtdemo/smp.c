// SPDX-License-Identifier: MIT
// usdtdemo's run on every CPU at once ("usdtdemo smp MS WORD", docs/pid.md "Several CPUs"): a
// thread pinned to each CPU calls step_plain(k, acc) for k = 1, 2, ... until main tells them
// to stop, its own k the count of its calls, and checks each result (acc grows by 3k: a
// displaced instruction run wrong, the frame record or the return, would show). A D program
// started meanwhile places pid probes on step_plain and takes them off while these threads
// call it (test/qemu/test_pid_smp.sh): between the two, every call of a thread fires, so D's
// count for a thread is the span of the k it saw. Before each call a thread reads
// step_plain's first word (its text is readable to it) and compares it with WORD, the ELF
// file's (D may place the probes before the program could read its own): the threads, which
// run all through the window the probes are placed, see the word change and come back, however
// short the window (main, sleeping between looks, can miss it on a loaded host). main waits for both, so the
// threads run on past the removal however long D took to start; MS milliseconds of ClockTime
// bound the wait, whatever the scheduler gives main. Prints one line per thread (its calls,
// wrong results, and calls made with the trap seen in the text) and a summary.
#include <kern.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include "usdtdemo.h"

#define SMP_MAX   4u        // (the boards with several CPUs have 4)
#define SMP_STACK 2048u

static KSTACK(stacks[SMP_MAX], SMP_STACK);
static volatile uint32_t stop;
static volatile uint32_t calls[SMP_MAX], wrong[SMP_MAX], trapped[SMP_MAX];
static uint32_t text_word;          // step_plain's first word, without a trap
static volatile uint32_t text_seen; // TEXT_TRAPPED, then TEXT_BACK: what a thread saw
#define TEXT_TRAPPED 1u
#define TEXT_BACK    2u

static const volatile uint32_t *text_at(void)
{
    return (const volatile uint32_t *)((uintptr_t)step_plain & ~(uintptr_t)1);
}

// A thread's look at the text before a call: whether it holds a trap. What it saw is kept:
// the word changed (a trap placed), then the same as loaded again (the probe off). Acquire and
// release order a thread's look at the text after the look that set what it read here.
static bool text_look(void)
{
    uint32_t seen = __atomic_load_n(&text_seen, __ATOMIC_ACQUIRE);
    bool trapped = *text_at() != text_word;
    if (trapped && !seen)
        __atomic_fetch_or(&text_seen, TEXT_TRAPPED, __ATOMIC_RELEASE);
    else if (!trapped && seen == TEXT_TRAPPED)
        __atomic_fetch_or(&text_seen, TEXT_BACK, __ATOMIC_RELEASE);
    return trapped;
}

static int caller(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
    unsigned acc = 0;
    uint32_t k = 0;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
        if (text_look())
            trapped[c]++;       // (this call went through the trap, unless it came off between)
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

// Sleeps until the threads saw `what`, or until the ClockTime `end`: false then.
static bool wait_seen(uint32_t what, uint64_t end)
{
    while (!(__atomic_load_n(&text_seen, __ATOMIC_RELAXED) & what)) {
        if (ClockTime() >= end)
            return false;
        ThreadSleep(1000000u);
    }
    return true;
}

// word: step_plain's first word as the ELF file has it (the test reads it there), 0 to take
// the word the text holds at the start (probes placed before then would be taken for it).
int smp_run(unsigned ms, uint32_t word)
{
    uint32_t ncpu = 1;
    SysInfo(KSYSINFO_NCPUS, &ncpu);
    if (ncpu > SMP_MAX)
        ncpu = SMP_MAX;
    int tids[SMP_MAX];
    uint64_t end = ClockTime() + (uint64_t)ms * 1000000u;
    text_word = word ? word : *text_at();
    for (uint32_t c = 0; c < ncpu; c++)
        tids[c] = ThreadCreate(caller, (void *)(uintptr_t)c, stacks[c], sizeof(stacks[0]), 0, 0);
    bool placed = wait_seen(TEXT_TRAPPED, end), removed = placed && wait_seen(TEXT_BACK, end);
    // calls after the removal too: every thread's next two (the first may have entered while
    // placed), however long the host holds its CPU back
    uint32_t then[SMP_MAX];
    for (uint32_t c = 0; c < ncpu; c++)
        then[c] = calls[c];
    for (uint32_t c = 0; c < ncpu; c++)
        while (tids[c] >= 0 && calls[c] - then[c] < 2u && ClockTime() < end)
            ThreadSleep(1000000u);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    uint32_t bad = 0, total = 0;
    for (uint32_t c = 0; c < ncpu; c++) {
        int st = -1;
        if (tids[c] < 0 || ThreadJoin(tids[c], &st) != 0 || st != 0)
            bad++;
        bad += wrong[c];
        total += calls[c];
        printf("usdtdemo: smp cpu %u tid %d calls %u wrong %u trapped %u\n", (unsigned)c,
               tids[c], (unsigned)calls[c], (unsigned)wrong[c], (unsigned)trapped[c]);
    }
    printf("usdtdemo: smp step_plain's text: trap %s, instruction back %s\n",
           placed ? "seen" : "not seen", removed ? "seen" : "not seen");
    printf("usdtdemo: smp %u threads on %u CPUs, %u calls, %u wrong or lost\n",
           (unsigned)ncpu, (unsigned)ncpu, (unsigned)total, (unsigned)bad);
    return bad ? 1 : 0;
}
