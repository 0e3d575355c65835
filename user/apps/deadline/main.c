// SPDX-License-Identifier: MIT
// deadline: a periodic task that says which periods it missed. A timer pulse every 2 ms
// (500 Hz) releases period k at t0 + k * 2 ms (t0: the first pulse, by ClockCycles); each
// period busy-waits 0.4 ms of its own cycle counter, and N programmed ones (the middle of each
// equal share of the run) 3 ms, one and a half periods: such a period ends past its deadline
// (its release + 2 ms) and the next, released meanwhile, still ends within its own. So a run
// that disturbs nothing misses exactly the N programmed periods; a watcher that takes the CPU
// from it adds misses, and one that holds it past a whole period loses a timer pulse (a wake-up
// whose release index, by the clock, is two or more past the last one's).
//   deadline [PERIODS [OVERRUNS]]    (default 600 6; a part "deadline ..." of the boot command
//                                    line, as QEMU_ARGS gives it, before the image's ARGS)
// Prints: "deadline: P periods, missed M: k1 k2 ...; pulses lost L" and exits 0.
#include <kern.h>
#include <pulse_chan.h>
#include <stdio.h>
#include <stdlib.h>

#define PERIOD_US  2000u
#define WORK_US    400u
#define OVER_US    3000u
#define MAX_LISTED 32

// Work: a loop of plain instructions, its clock read once every ~50 us (ClockCycles is a
// kernel call on some boards: two trace events), until `us` have passed since `from`.
static volatile uint32_t sink;
static uint32_t per_50us = 1000;     // loop turns in 50 us (calibrate)

static void turns(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        sink = i;
}

static void calibrate(uint64_t hz)
{
    uint64_t t = ClockCycles();
    turns(20000);
    uint64_t c = ClockCycles() - t;
    per_50us = c ? (uint32_t)(20000u * (hz / 20000u) / c) : 1000u;
    if (per_50us == 0)
        per_50us = 1;
}

static void spin_us(uint64_t from, uint32_t us, uint64_t hz)
{
    uint64_t n = hz * us / 1000000u;
    while (ClockCycles() - from < n)
        turns(per_50us);
}

int main(int argc, char **argv)
{
    static char cmd[1024];      // its part of the boot command line, when one names it: first
    static char *kargv[64];     // (every word of the line is split before its part is found)
    int kargc = kargs("deadline", cmd, sizeof(cmd), kargv, 64);
    if (kargc < 0) {
        printf("deadline: the boot command line does not fit its buffer\n");
        return 2;
    }
    if (kargc > 1)
        argc = kargc, argv = kargv;
    unsigned periods = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 600u;
    unsigned overruns = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 6u;
    if (periods == 0 || overruns > periods) {
        printf("deadline: usage: deadline [PERIODS [OVERRUNS <= PERIODS]]\n");
        return 2;
    }
    uint64_t hz = ClockCyclesPerSec(), period = hz * PERIOD_US / 1000000u;
    calibrate(hz);
    struct pulse_chan tick;
    if (pulse_chan_timer(&tick, PERIOD_US, 1) < 0) {
        printf("deadline: cannot set up its timer\n");
        return 1;
    }
    struct kpulse p;
    MsgReceive(tick.chid, &p, sizeof(p), NULL);
    uint64_t t0 = ClockCycles();
    unsigned missed = 0, listed = 0, lost = 0, share = periods / (overruns ? overruns : 1u);
    unsigned list[MAX_LISTED];
    uint64_t k = 0;     // the period being run (its release index)
    for (unsigned done = 0; done < periods; done++) {
        uint64_t start = ClockCycles();
        int over = overruns && k % share == share / 2 && k / share < overruns;
        spin_us(start, over ? OVER_US : WORK_US, hz);
        uint64_t end = ClockCycles();
        if (end - t0 > (k + 1u) * period) {     // past its deadline
            if (listed < MAX_LISTED)
                list[listed++] = (unsigned)k;
            missed++;
        }
        if (done + 1u == periods)
            break;
        MsgReceive(tick.chid, &p, sizeof(p), NULL);
        // Released at t0 + k * period: the index of the latest release now is the next one,
        // or more when pulses never came.
        uint64_t idx = (ClockCycles() - t0) / period;
        if (idx > k + 1u)
            lost += (unsigned)(idx - k - 1u);
        k = idx > k + 1u ? idx : k + 1u;
    }
    TimerDestroy(tick.id);
    printf("deadline: %u periods, missed %u:", periods, missed);
    for (unsigned i = 0; i < listed; i++)
        printf(" %u", list[i]);
    printf("; pulses lost %u\n", lost);
    return 0;
}
