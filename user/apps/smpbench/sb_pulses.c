// SPDX-License-Identifier: MIT
// smpbench's pulse figures (`smpbench pulses`, QEMU_ARGS; scripts/bench-smp.sh runs it on 2 CPUs
// under -icount shift=0, where the counts are deterministic). n sender/receiver pairs (1, then
// 2), each pair's two threads bound to its own CPU, each pair on its own channel. The sender
// (the higher priority) sends BATCH pulses, numbered, then a message; the receiver takes the
// pulses it finds queued and then the message, and replies: so every pulse is a MsgSendPulse
// and a MsgReceive that finds a pulse, two calls that run on the big-reader lock's
// shared side (kernel/ipc.c). Prints, for n = 1, 2:
//   smp_pulse_exclusive_entries_per_1000_<n>pair  kernel entries that took the lock exclusive
//       per 1000 pulses, setup and ticks included (before: every pulse's two calls, 2000+);
//   smp_pulse_shared_calls_per_1000_<n>pair  kernel calls finished in shared mode per 1000
//       pulses (the batch's message round trip included: 2375 = 19 calls per 8 pulses);
//   smp_pulses_per_s_<n>pair  pulses per second of the run's clock, all pairs.
// The receiver checks each pulse's number (its sender's count): a pulse lost or received twice
// fails the run ("smpbench: pulses out of order").
#include <kern.h>
#include <stdio.h>
#include "sb_pairs.h"
#include "sb_pulses.h"

#define SBP_MAXPAIR 2
#define SBP_BATCH 8u
#define SBP_BATCHES 1000u
#define SBP_PRIO 10

static volatile uint32_t sbp_bad;

static int sbp_receiver(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg, expect = 1;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << k));
    for (;;) {
        union pair_msg u;
        int rcvid = MsgReceive(pair_chid[k], &u, sizeof(u), NULL);
        if (rcvid < 0)
            return 1;
        if (rcvid == 0) {
            if ((uint32_t)u.p.value != expect)
                sbp_bad++;
            expect = (uint32_t)u.p.value + 1u;
            continue;
        }
        uint32_t v = u.v;
        MsgReply(rcvid, 0, NULL, 0);
        if (v == 0)
            return 0;
    }
}

static int sbp_sender(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg, one = 1, zero = 0, n = 1;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << k));
    int coid = ConnectAttach(0, pair_chid[k]);
    MsgSend(coid, &one, sizeof(one), NULL, 0);      // both threads on CPU k from here
    pair_ready_wait_go();
    for (uint32_t b = 0; b < SBP_BATCHES; b++) {
        for (uint32_t i = 0; i < SBP_BATCH; i++)
            if (MsgSendPulse(coid, SBP_PRIO, 1, (int)n++) != 0)
                sbp_bad++;
        MsgSend(coid, &one, sizeof(one), NULL, 0);
    }
    pair_done(k);
    MsgSend(coid, &zero, sizeof(zero), NULL, 0);
    ConnectDetach(coid);
    return 0;
}

void pulses_bench(uint32_t ncpu)
{
    uint32_t np = ncpu < 2 ? 1 : SBP_MAXPAIR;
    for (uint32_t n = 1; n <= np; n++) {
        uint32_t e0 = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE);
        uint32_t s0 = sysinfo(KSYSINFO_KCALLS_SHARED);
        uint64_t c = pairs_phase_of(n, sbp_receiver, 59, sbp_sender, 60);
        uint32_t excl = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE) - e0;
        uint32_t shared = sysinfo(KSYSINFO_KCALLS_SHARED) - s0;
        uint64_t pulses = (uint64_t)n * SBP_BATCHES * SBP_BATCH;
        printf("BENCH smp_pulse_exclusive_entries_per_1000_%lupair %lu entries\n",
               (unsigned long)n, (unsigned long)((excl * 1000ull + pulses / 2) / pulses));
        printf("BENCH smp_pulse_shared_calls_per_1000_%lupair %lu calls\n", (unsigned long)n,
               (unsigned long)((shared * 1000ull + pulses / 2) / pulses));
        printf("BENCH smp_pulses_per_s_%lupair %lu pulses/s\n", (unsigned long)n,
               (unsigned long)(pulses * ClockCyclesPerSec() / (c ? c : 1)));
    }
    if (sbp_bad)
        printf("smpbench: pulses out of order or refused: %lu\n", (unsigned long)sbp_bad);
}
