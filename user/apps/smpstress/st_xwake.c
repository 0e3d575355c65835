// SPDX-License-Identifier: MIT
// smpstress's `xwake` part (test 21): threads made ready on another CPU's queue while that
// CPU is choosing, for a capture (test/qemu/test_states_cpus.sh holds the capture to the
// order a scheduler lives in: a thread runs only once it was made ready, on one CPU at a time;
// test/qemu/thread_states_check.py). A server bound to CPU 0 answers XW_ROUNDS messages from a
// client bound to each of CPUs 1..n-1: each send queues the server on CPU 0's queue, each
// reply its client on the client's CPU's. On every CPU a spinner of low priority makes a
// kernel call that runs shared (ThreadSelf) over and over, so that each CPU is often in its
// entry's choice, under its queue's lock, at the moment another CPU queues a thread there: the
// choice that takes the thread may then come right after the waker let the lock go (kernel/
// sched.c, TRACE ORDER). What the program checks itself: every answer is its message's number
// plus one, from the server, and every client ends.
#include "st_xwake.h"
#include "st_msg.h"
#include <kern.h>
#include <stdio.h>
#include <uapi/ktrace.h>
#include <trace/kev.h>

#define XW_MAXCPU 4
#define XW_ROUNDS 300u

static int xw_chid;
static volatile uint32_t xw_stop, xw_bad[XW_MAXCPU], xw_done[XW_MAXCPU], xw_spins[XW_MAXCPU];

static int xw_server(void *arg)
{
    (void)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)1u);
    for (;;) {
        union request rq;
        int rcvid = MsgReceive(xw_chid, &rq, sizeof(rq), NULL);
        if (rcvid <= 0)
            continue;           // (a pulse: none is sent)
        uint32_t v = rq.v;
        if (v == ~0u) {
            MsgReply(rcvid, 0, &v, sizeof(v));
            return 0;
        }
        v++;
        MsgReply(rcvid, 0, &v, sizeof(v));
    }
}

static int xw_client(void *arg)
{
    uint32_t cpu = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << cpu));
    int coid = ConnectAttach(0, xw_chid);
    for (uint32_t i = 0; i < XW_ROUNDS; i++) {
        uint32_t v = cpu << 16 | i, r = 0;
        if (coid < 0 || MsgSend(coid, &v, sizeof(v), &r, sizeof(r)) != 0 || r != v + 1u)
            xw_bad[cpu]++;
    }
    ConnectDetach(coid);
    xw_done[cpu] = 1;
    return 0;
}

// A CPU's spinner: TimerTimeout over and over, a call that runs shared and whose exit makes
// the CPU's choice under its queue's lock, recording no state event (and, with the kernel-call
// class off, none at all), so that the CPU chooses all the time at no cost to the capture.
static int xw_spinner(void *arg)
{
    uint32_t cpu = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << cpu));
    while (!xw_stop) {
        TimerTimeout(1000000000ull);    // (armed for a next call that never blocks)
        xw_spins[cpu]++;
    }
    return 0;
}

bool xwake_test(uint32_t ncpu, unsigned testno, void *stacks, uint32_t stack_size)
{
    uint32_t n = ncpu > XW_MAXCPU ? XW_MAXCPU : ncpu;
    uint8_t *s = stacks;
    // Under a capture (test_states_cpus.sh): the kernel calls' and messages' classes off while
    // this part runs (the spinners' calls would be most of the capture, and what is checked
    // is the threads' states); answered EPERM or ECANCELED without one, and nothing changes.
    bool quiet = TraceEvent(KTRACE_DELCLASS, KEV_C_KER_CALL, 0, 0) == 0 &&
                 TraceEvent(KTRACE_DELCLASS, KEV_C_COMM, 0, 0) == 0;
    int tids[2 * XW_MAXCPU];
    unsigned k = 0;
    xw_stop = 0;
    xw_chid = ChannelCreate(0);
    tids[k] = ThreadCreate(xw_server, NULL, s + k * stack_size, stack_size, 60, 0);
    k++;
    for (uint32_t c = 0; c < n; c++, k++)    // (below main's priority: main still runs)
        tids[k] = ThreadCreate(xw_spinner, (void *)(uintptr_t)c, s + k * stack_size,
                               stack_size, 10, 0);
    uint32_t clients = 0;
    for (uint32_t c = 1; c < n; c++, k++) {
        xw_bad[c] = xw_done[c] = 0;
        tids[k] = ThreadCreate(xw_client, (void *)(uintptr_t)c, s + k * stack_size, stack_size,
                               50, 0);
        clients += tids[k] > 0;
    }
    uint32_t done = 0;
    while (done < clients) {
        ThreadSleep(1000000);
        done = 0;
        for (uint32_t c = 1; c < n; c++)
            done += xw_done[c];
    }
    xw_stop = 1;
    int coid = ConnectAttach(0, xw_chid);
    uint32_t quit = ~0u, r = 0;
    MsgSend(coid, &quit, sizeof(quit), &r, sizeof(r));
    ConnectDetach(coid);
    uint32_t joined = 0, bad = 0, spins = 0;
    for (unsigned i = 0; i < k; i++)
        joined += tids[i] > 0 && ThreadJoin(tids[i], NULL) == 0;
    for (uint32_t c = 0; c < n; c++) {
        bad += xw_bad[c];
        spins += xw_spins[c];
    }
    ChannelDestroy(xw_chid);
    if (quiet) {
        TraceEvent(KTRACE_ADDCLASS, KEV_C_KER_CALL, 0, 0);
        TraceEvent(KTRACE_ADDCLASS, KEV_C_COMM, 0, 0);
    }
    bool ok = n > 1 && clients == n - 1u && joined == k && !bad;
    printf("%s %u - a server on CPU 0 answered %u messages from a client on each of CPUs "
           "1..%lu, every CPU's spinner in the kernel meanwhile (%lu calls): %lu answers wrong, "
           "%lu of %u threads joined\n", ok ? "ok" : "not ok", testno, XW_ROUNDS,
           (unsigned long)(n - 1u), (unsigned long)spins, (unsigned long)bad,
           (unsigned long)joined, k);
    return ok;
}
