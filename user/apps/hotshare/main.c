// SPDX-License-Identifier: MIT
// hotshare: a periodic interrupt-driven thread whose hot function takes a known share of each
// period, the workload of the profile test (test/stacks/test_hotshare.sh; docs/profiling.md,
// "The profile timer"). The board's device timer interrupts RATE_HZ times a second; at each
// pulse the thread runs hot_spin(), which spins on the cycle counter until SHARE_PCT % of a
// period has passed, and waits for the next pulse: the CPU idles the rest of the period. A
// sampler locked to the device (one driven by a tick on the same clock) lands at the same
// phase of every period and sees the hot function in almost all samples or in almost none; one
// at its own rate (profile-997) sees it in SHARE_PCT % of the samples of that CPU.
// The program's own counters are the truth: it times every hot_spin() with the cycle counter
// (inline reads, no kernel call, so no sample lands in a clock function) and prints the hot
// time, the window and the share. User events mark the window (EV_START, EV_STOP) so that a D
// predicate, live or over the capture, counts the samples of the same span.
#include <kern.h>
#include <pulse_chan.h>
#include <stdio.h>
#include <stdlib.h>
#include <board_user.h>
#include <board_clock.h>

#define RATE_HZ   2000u         // defaults; its part of the boot command line (kargs):
                                // `hotshare [rate_hz [share_pct [run_ms]]]`
#define SHARE_PCT 30u
#define RUN_MS    1500u
#define EV_START  230           // user event: a = the device's rate (Hz), b = the share (%)
#define EV_STOP   231           // user event: a = the periods served, b = hot time (us)
#define CODE_IRQ  5

static uint64_t hot_cycles;     // summed time inside hot_spin, by the cycle counter

// Spins for `cycles` of the counter; its own time goes to hot_cycles. Out of line, so that a
// sample's pc in it names it (ufunc).
static __attribute__((noinline)) void hot_spin(uint32_t cycles)
{
    uint32_t start = board_cycles32(), now;
    do
        now = board_cycles32();
    while (now - start < cycles);
    hot_cycles += now - start;
}

int main(void)
{
    static char cmd[256];
    char *argv[8];
    int argc = kargs("hotshare", cmd, sizeof(cmd), argv, 8);
    uint32_t rate = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : RATE_HZ;
    uint32_t share = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : SHARE_PCT;
    uint32_t run_ms = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : RUN_MS;
    if (!rate || share > 90u || !run_ms) {
        printf("hotshare: usage: hotshare [rate_hz [share_pct (0-90) [run_ms]]]\n");
        return 1;
    }
    struct pulse_chan irq;
    if (pulse_chan_irq(&irq, DEVTIMER_IRQ, CODE_IRQ) < 0) {
        printf("hotshare: set-up failed\n");
        return 1;
    }
    uint64_t cps = ClockCyclesPerSec();
    uint32_t hz = devtimer_start_hz(rate);
    if (!hz) {
        printf("hotshare: this board's device timer keeps no rate\n");
        return 2;
    }
    uint32_t spin = (uint32_t)(cps / hz * share / 100u);
    uint64_t start = ClockCycles();
    uint64_t end = start + cps * run_ms / 1000u;
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_START, hz, share);
    uint32_t n = 0;
    while (ClockCycles() < end) {
        struct kpulse p;
        TimerTimeout(100 * 1000000ull);
        if (MsgReceive(irq.chid, &p, sizeof(p), NULL) != 0)
            break;                  // no interrupt for 100 ms
        if (p.code != CODE_IRQ)
            continue;
        devtimer_ack();
        InterruptUnmask(DEVTIMER_IRQ, irq.id);
        hot_spin(spin);
        n++;
    }
    uint64_t stop = ClockCycles();
    uint64_t hot_us = hot_cycles * 1000000u / cps, span_us = (stop - start) * 1000000u / cps;
    if (!span_us)
        span_us = 1;
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_STOP, n, (uint32_t)hot_us);
    devtimer_stop();
    InterruptDetach(irq.id);
    printf("hotshare: %lu periods at %lu Hz, hot %lu us of %lu us (%lu.%02lu%%)\n",
           (unsigned long)n, (unsigned long)hz, (unsigned long)hot_us, (unsigned long)span_us,
           (unsigned long)(hot_us * 100u / span_us),
           (unsigned long)(hot_us * 10000u / span_us % 100u));
    return n > 0 ? 0 : 2;
}
