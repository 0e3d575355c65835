// SPDX-License-Identifier: MIT
// overrun: a periodic task that misses exactly one deadline and says, by its own clock, which
// and when. A timer pulse every 2 ms releases period k at t0 + k * 2 ms (t0: the first pulse);
// each period inserts a user event at its start (code 1, [k, 0], stamped with its own cycle
// counter's reading) and one at its end (code 2, [k, its length in us]), which it has the
// kernel write at once (KTRACE_USERDRAIN) between two readings of its clock, so that the
// event's stamp lies between them; it busy-waits 0.4 ms, but period MISS 3 ms: it ends past its deadline (its release + 2 ms),
// the next, released meanwhile, still within its own. A D clause over the two events sees the
// miss as the program does (docs/incidents.md). It starts its periods 100 ms after it starts
// (the consumer's and the logger's set-up done), and after the last it lingers LINGER seconds
// (a test's reset comes meanwhile). Its arguments: its part of the boot command line (a
// program another starts gets none of its own), else its app.mk's:
//   overrun [PERIODS [MISS [LINGER]]]    (default 100 99 0; MISS = PERIODS: none)
// Prints "overrun: period K missed its deadline: ended at cycles 0xE, its end event written by
// 0xW (released 0xR), N us late" for the miss (the cycles' low words) and "overrun: P periods,
// missed M" at its end; exits 0.
#include <kern.h>
#include <pulse_chan.h>
#include <stdio.h>
#include <stdlib.h>

#define PERIOD_US 2000u
#define WORK_US   400u
#define OVER_US   3000u
#define CODE_START 1u
#define CODE_END   2u

static volatile uint32_t sink;

static void spin_until(uint64_t until)
{
    while (ClockCycles() < until)
        for (unsigned i = 0; i < 100; i++)
            sink = i;
}

int main(int argc, char **argv)
{
    static char cmd[1024];
    static char *kv[64];    // (every word of the boot line is split before its part is found)
    int kc = kargs("overrun", cmd, sizeof(cmd), kv, 64);    // its part of the boot line, if any
    if (kc < 0) {
        printf("overrun: boot command line over %u bytes: arguments not read\n",
               (unsigned)sizeof(cmd) - 2);
        return 2;
    }
    if (kc > 0) {
        argc = kc;
        argv = kv;
    }
    unsigned periods = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 100u;
    unsigned miss = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 99u;
    unsigned linger = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 0u;
    if (periods == 0 || miss > periods) {
        printf("overrun: usage: overrun [PERIODS [MISS <= PERIODS [LINGER]]]\n");
        return 2;
    }
    uint64_t hz = ClockCyclesPerSec(), period = hz * PERIOD_US / 1000000u;
    ThreadSleep(100u * 1000000u);
    struct pulse_chan tick;
    if (pulse_chan_timer(&tick, PERIOD_US, 1) < 0) {
        printf("overrun: cannot set up its timer\n");
        return 1;
    }
    struct kpulse p;
    MsgReceive(tick.chid, &p, sizeof(p), NULL);
    uint64_t t0 = ClockCycles(), k = 0;
    unsigned missed = 0;
    for (unsigned done = 0; done < periods; done++) {
        uint64_t start = ClockCycles();
        TraceUserEventAt(CODE_START, (uint32_t)start, (uint32_t)k, 0);
        spin_until(start + hz * (k == miss ? OVER_US : WORK_US) / 1000000u);
        uint64_t end = ClockCycles();
        uint64_t release = t0 + k * period, deadline = release + period;
        TraceUserEventAt(CODE_END, 0, (uint32_t)k, (uint32_t)((end - start) * 1000000u / hz));
        TraceEvent(KTRACE_USERDRAIN, 0, 0, 0);      // written now, stamped by the kernel
        uint64_t written = ClockCycles();
        if (end > deadline) {
            missed++;
            printf("overrun: period %u missed its deadline: ended at cycles 0x%08lx, its end "
                   "event written by 0x%08lx (released 0x%08lx), %lu us late\n", (unsigned)k,
                   (unsigned long)(uint32_t)end, (unsigned long)(uint32_t)written,
                   (unsigned long)(uint32_t)release,
                   (unsigned long)((end - deadline) * 1000000u / hz));
        }
        if (done + 1u == periods)
            break;
        MsgReceive(tick.chid, &p, sizeof(p), NULL);
        uint64_t idx = (ClockCycles() - t0) / period;   // the latest release
        k = idx > k + 1u ? idx : k + 1u;
    }
    TimerDestroy(tick.id);
    printf("overrun: %u periods, missed %u\n", periods, missed);
    for (unsigned s = 0; s < linger; s++)
        ThreadSleep(1000000000u);
    return 0;
}
