// SPDX-License-Identifier: MIT
// smpstress's pulse test (test 9): pulses from several CPUs at once to one channel, the kernel's
// MsgSendPulse and the receive that finds a pulse running side by side on every CPU (the pulse
// pool's lock, kernel/ipc.c):
//   a. a thread bound to each of CPUs 1..n-1 sends PULSES_EACH pulses, numbered 1.. in the
//      value, its CPU in the code, to one channel, retrying a pulse the kernel refuses for its
//      bound (EAGAIN) until it is taken; a receiver bound to CPU 0 checks each sender's numbers
//      arrive in order, none missing or twice, and counts them: exactly PULSES_EACH each;
//   b. st_peer in its pulse mode (an unprivileged process, so the channel's bound applies too)
//      sends numbered pulses from a thread on each of CPUs 1..n-1 and is killed mid-stream,
//      PULSE_KILLS times, each incarnation with its own code: each is reported killed by
//      KSIG_KILL, each of its senders' numbers seen were in order from 1 with none missing or
//      twice (the pulses it had queued when it died arrive too); how many of its senders were
//      never seen is printed, not checked (no fairness among them is promised: peer_seen);
//   c. the per-process count the pool keeps came back to zero: with everything received, this
//      process may queue exactly KMAX_PULSES_PER_PROC (16, kernel/include/kernel/kernel.h)
//      pulses on a channel nobody reads, the next is refused with EAGAIN, and the 16 are then
//      received in the order sent.
// The truths are the senders' own numbering and the documented bound.
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include "st_pulse.h"
#include "st_kill.h"
#include "st_sleep.h"

#define MAXCPU 4
#define PULSES_EACH 500u      // (on a loaded host the host-clock run sends ~200 a second)
#define PULSE_KILLS 4u
#define PULSE_PRIO 10
#define PULSE_STACK 1024
#define DONE_CODE 0x7000
#define PROC_BOUND 16u          // KMAX_PULSES_PER_PROC

static KSTACK(pstacks[MAXCPU + 1], PULSE_STACK);
static int pchid, pcoid;
// Per incarnation (0: this process's threads; 1..: st_peer's) and CPU: the last number seen.
static volatile uint32_t seen[PULSE_KILLS + 1][MAXCPU];
static volatile uint32_t pbad, pnotpulse;
uint64_t pulse_refusal_sleep_ns;
static struct sleep_stats psleeps[MAXCPU];  // the senders' sleeps, on the counter (st_sleep.c)

// Bound to CPU 0: every pulse of the channel, checked against its sender's numbering.
static int pulse_receiver(void *arg)
{
    (void)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)1u);
    for (;;) {
        struct kpulse p = { 0 };
        int rcvid = MsgReceive(pchid, &p, sizeof(p), NULL);
        if (rcvid != 0) {       // a message, or an error: only pulses come here
            pnotpulse++;
            if (rcvid > 0)
                MsgError(rcvid, 1);
            continue;
        }
        if (p.code == DONE_CODE)
            return 0;
        uint32_t inc = (uint32_t)p.code >> 8, cpu = (uint32_t)p.code & 0xffu;
        if (inc > PULSE_KILLS || cpu >= MAXCPU || (uint32_t)p.value != seen[inc][cpu] + 1u)
            pbad++;             // unknown, missing, repeated or out of order
        else
            seen[inc][cpu] = (uint32_t)p.value;
    }
}

// The kernel's own result (-EAGAIN...): errno is one for the whole process, and the senders
// on the other CPUs write it at the same time.
static int send_pulse_raw(int coid, int code, int value)
{
    return (int)KCALL4(KC_MsgSendPulse, coid, PULSE_PRIO, code, value);
}

static int pulse_sender(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
    for (uint32_t n = 1; n <= PULSES_EACH; n++) {
        int r;
        // The bound: taken again once the receiver caught up. Yields first; past 64 refusals
        // a tick's sleep, so that no CPU spins for long (under -icount QEMU runs a spinning
        // CPU for its whole turn; on a loaded host the receiver's CPU may not run for a while).
        uint32_t refused = 0;
        while ((r = send_pulse_raw(pcoid, (int)c, (int)n)) == -EAGAIN) {
            if (pulse_refusal_sleep_ns)
                timed_sleep(pulse_refusal_sleep_ns, &psleeps[c]);
            else if (++refused % 64u)
                ThreadYield();
            else
                timed_sleep(1000000, &psleeps[c]);
        }
        if (r != 0)
            return 1;
    }
    return 0;
}

// Waits (up to 5 s) until st_peer's incarnation `inc` is streaming: 8 pulses a sender on the
// whole. Not 8 from each, nor one from each: the kernel promises no fairness among a
// process's threads retrying a pulse refused for the process's bound (each spins on EAGAIN
// and ThreadYield until a slot is free), and under -icount, where QEMU runs the CPUs in a
// fixed turn, the same two senders can take every slot the receiver frees: one run (shift=2,
// scripts/stress-wake.sh seed=3 pulse refusal-sleep=1000000) had CPU 3's sender at 4 pulses
// for 5 s while CPUs 1 and 2 sent 364000 and 90000, each thread running and none waiting for
// a wake-up (docs/smp.md, "Wake-ups across CPUs"). Another build (the same kernel, its code
// laid out otherwise) had that sender at 0 for the whole 5 s, so a test that asks for every
// sender would wait them out.
static bool peer_seen(uint32_t inc, uint32_t ncpu)
{
    for (uint32_t ms = 0; ms < 5000; ms++) {
        uint32_t total = 0;
        for (uint32_t c = 1; c < ncpu; c++)
            total += seen[inc][c];
        if (total >= 8u * (ncpu - 1))
            return true;
        ThreadSleep(1000000);
    }
    return false;
}

// c: the process's count of queued pulses is back at zero (see the top of this file).
static bool pulse_bound_holds(void)
{
    int chid = ChannelCreate(0), coid = ConnectAttach(0, chid);
    uint32_t taken = 0, in_order = 0;
    while (taken <= PROC_BOUND && send_pulse_raw(coid, 1, (int)taken) == 0)
        taken++;
    bool refused = send_pulse_raw(coid, 1, 99) == -EAGAIN;
    for (uint32_t i = 0; i < taken; i++) {
        struct kpulse p = { 0 };
        in_order += MsgReceive(chid, &p, sizeof(p), NULL) == 0 && p.value == (int)i;
    }
    ConnectDetach(coid);
    ChannelDestroy(chid);
    printf("# pulse bound: %lu queued, then %s; %lu received in order\n", (unsigned long)taken,
           refused ? "EAGAIN" : "not refused", (unsigned long)in_order);
    return taken == PROC_BOUND && refused && in_order == PROC_BOUND;
}

bool pulse_test(uint32_t ncpu, unsigned testno, bool virtual_time)
{
    sleep_clock_init();
    if (ncpu > MAXCPU)
        ncpu = MAXCPU;
    pchid = ChannelCreate(0);
    pcoid = ConnectAttach(0, pchid);
    int rtid = ThreadCreate(pulse_receiver, NULL, pstacks[0], sizeof(pstacks[0]), 80, 0);

    uint64_t t0 = ClockCycles(), ta, tb;
    // a: this process's senders, one per CPU 1..n-1.
    int stids[MAXCPU];
    uint32_t sent_ok = 0;
    for (uint32_t c = 1; c < ncpu; c++)
        stids[c] = ThreadCreate(pulse_sender, (void *)(uintptr_t)c, pstacks[c],
                                sizeof(pstacks[0]), 40, 0);
    for (uint32_t c = 1; c < ncpu; c++) {
        int st = -1;
        sent_ok += stids[c] > 0 && ThreadJoin(stids[c], &st) == 0 && st == 0;
    }

    ta = ClockCycles();
    // b: st_peer's senders, killed mid-stream.
    uint32_t killed_ok = 0, streamed = 0;
    for (uint32_t k = 1; k <= PULSE_KILLS; k++) {
        int peer = ProcSpawn("st_peer", 0, (uint32_t)pchid | ncpu << 16 | k << 24 | 1u << 31);
        streamed += peer > 0 && peer_seen(k, ncpu);
        printf("# st_peer %lu: %lu %lu %lu pulses seen from CPUs 1..3 when killed\n",
               (unsigned long)k, (unsigned long)seen[k][1], (unsigned long)seen[k][2],
               (unsigned long)seen[k][3]);
        int st;
        if (st_kill_reported(peer, &st))
            killed_ok++;
    }

    tb = ClockCycles();
    // Everything queued before this one arrives before it (one priority: FIFO). Refused while
    // the pool is full of the killed senders' pulses (charged to nobody): again once the
    // receiver took some.
    while (send_pulse_raw(pcoid, DONE_CODE, 0) == -EAGAIN)
        ThreadSleep(1000000);
    bool joined = rtid > 0 && ThreadJoin(rtid, NULL) == 0;
    ConnectDetach(pcoid);
    ChannelDestroy(pchid);

    uint32_t short_count = 0, unseen = 0;
    for (uint32_t c = 1; c < ncpu; c++) {
        short_count += seen[0][c] != PULSES_EACH;
        for (uint32_t k = 1; k <= PULSE_KILLS; k++)
            unseen += seen[k][c] == 0;
    }
    bool bound = pulse_bound_holds();
    struct sleep_stats sl = { 0 };
    for (uint32_t c = 1; c < ncpu; c++)
        sleep_stats_add(&sl, &psleeps[c]);
    printf("# pulse senders slept %lu times on a refusal (%s): %lu early, %lu past the bound of "
           "%lu us, worst %lu us past the time asked\n", (unsigned long)sl.n,
           pulse_refusal_sleep_ns ? "every one" : "every 64th", (unsigned long)sl.early,
           (unsigned long)sl.late,
           (unsigned long)(sleep_bound_cycles() * 1000000u / sleep_cycles_per_sec()),
           (unsigned long)(sl.worst * 1000000u / sleep_cycles_per_sec()));
    bool ok = sent_ok == ncpu - 1 && joined && !pbad && !pnotpulse && !short_count &&
              killed_ok == PULSE_KILLS && streamed == PULSE_KILLS && bound &&
              !sl.early && (!virtual_time || !sl.late);
    uint64_t hz = ClockCyclesPerSec();
    printf("# pulse senders done in %lu ms, the kills in %lu ms (the run's clock)\n",
           (unsigned long)((ta - t0) * 1000u / hz), (unsigned long)((tb - ta) * 1000u / hz));
    printf("# %lu pulses each from CPUs 1..%lu, %lu short; %lu bad; %lu not pulses; %lu of %lu "
           "kills by KSIG_KILL, %lu streaming, %lu senders unseen; bound %s\n",
           (unsigned long)PULSES_EACH, (unsigned long)(ncpu - 1), (unsigned long)short_count,
           (unsigned long)pbad, (unsigned long)pnotpulse, (unsigned long)killed_ok,
           (unsigned long)PULSE_KILLS, (unsigned long)streamed, (unsigned long)unseen,
           bound ? "holds" : "broken");
    printf("%s %u - pulses from a thread on each of CPUs 1..%lu to one channel, each received "
           "once in its sender's order; a sender process killed mid-stream %lu times; the "
           "process's bound of %lu pulses after it all\n", ok ? "ok" : "not ok", testno,
           (unsigned long)(ncpu - 1), (unsigned long)PULSE_KILLS, (unsigned long)PROC_BOUND);
    return ok;
}
