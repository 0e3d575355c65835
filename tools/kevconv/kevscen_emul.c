// SPDX-License-Identifier: MIT
// kevscen's "emul" scenario (kevscen4: two CPUs; 1 MHz clock, one cycle a microsecond): what
// QEMU does to time, written on purpose for the tests of kx_emul (kevstat's "time:" line and
// warnings, the report's). Every round of EM_ROUND cycles at T:
//   * the tick (INT 0x100) on CPU 0 every EM_TICK cycles, but for EM_SKIP periods in a row
//     after the fourth: one gap a round, of EM_SKIP periods no tick came for; CPU 1's tick
//     share (INT 0x101) half a period later, but while CPU 1 is stalled (below);
//   * the basic script's worker (the "hog") runs on CPU 0 from T+50 to T+900;
//   * its client (the "sampler") runs on CPU 1 from T+100 for EM_RUN cycles: two events at its
//     start, two at its end, and between them CPU 1 writes nothing, not even its tick share,
//     while CPU 0 takes two ticks: a stall of EM_RUN - 10 cycles. It runs again at T+5100 for
//     10 cycles, with no stall.
// With -c (the header item QEMU_CLOCK, as scripts/qemu-run.sh passes it) the capture says how
// its time was kept; the stalls are QEMU's turns only under -icount, the gaps the emulator's
// but without the item. The sampler sleeps between its runs: a task of two instances a round,
// the long one (EM_RUN) and the short one inside the gap; given a deadline of EM_DEADLINE
// (shorter than the long run less its stall, longer than the short one), the long one misses
// every round, the emulator's miss where its stall covers the lateness.
#include "kevscen.h"

#include <stdio.h>
#include <string.h>

#include <uapi/kcall.h>

#define EM_ROUND 10000u
#define EM_TICK 1000u
#define EM_SKIP 2u      // periods skipped a round (the 5th and 6th)
#define EM_RUN 2500u    // the sampler's stretched run, past two of CPU 0's ticks
#define EM_SHORT 10u    // the sampler's run inside the gap
#define EM_DEADLINE 20u // the deadline the tests give the sampler (client/main)
#define EM_TICK_IRQ 0x100u
#define EM_SHARE_IRQ 0x101u
enum { EM_SAMPLER = 2, EM_HOG = 5 };   // the basic script's client and worker

static void tick(uint64_t t, unsigned irq)
{
    at(t), ev(KEV_C_INT, KEV_INT_ENTER, irq, 0);
    at(t + 2), ev(KEV_C_INT, KEV_INT_EXIT, irq, 0);
}

// CPU 1's tick shares from period k on, but those inside the stall.
static void shares(uint64_t T, unsigned from, unsigned to)
{
    trace_host_port.cpu = 1;
    for (unsigned k = from; k < to; k++)
        if (k * EM_TICK + EM_TICK / 2 >= 100 + EM_RUN)
            tick(T + k * EM_TICK + EM_TICK / 2, EM_SHARE_IRQ);
}

void emul_round(uint64_t T)
{
    trace_host_port.cpu = 0;
    tick(T, EM_TICK_IRQ);
    at(T + 50), th(KEV_TH_RUNNING, EM_HOG);
    trace_host_port.cpu = 1, at(T + 100), th(KEV_TH_RUNNING, EM_SAMPLER);
    at(T + 103), kc_in(KC_ClockCycles, 0);
    trace_host_port.cpu = 0, at(T + 110), kc_in(KC_ClockCycles, 0);
    at(T + 410), kc_out(KC_ClockCycles, 0);
    at(T + 900), th(KEV_TH_NANOSLEEP, EM_HOG);
    tick(T + EM_TICK, EM_TICK_IRQ), tick(T + 2 * EM_TICK, EM_TICK_IRQ);
    trace_host_port.cpu = 1, at(T + 100 + EM_RUN - 7), kc_out(KC_ClockCycles, 0);
    at(T + 100 + EM_RUN), th(KEV_TH_NANOSLEEP, EM_SAMPLER);
    shares(T, 0, 3);
    for (unsigned k = 3; k < 10; k++) {
        trace_host_port.cpu = 0;
        if (k < 5 || k >= 5 + EM_SKIP)
            tick(T + k * EM_TICK, EM_TICK_IRQ);
        if (k == 5) {
            trace_host_port.cpu = 1, at(T + 5100), th(KEV_TH_RUNNING, EM_SAMPLER);
            at(T + 5100 + EM_SHORT), th(KEV_TH_NANOSLEEP, EM_SAMPLER);
        }
        shares(T, k, k + 1);
    }
    trace_host_port.cpu = 0;
}

// The results the script gives, from its own numbers: the ticks from T0 to the last round's
// tenth; the stretched runs only when the capture says QEMU ran under -icount.
void emul_expect(unsigned rounds, const char *clock)
{
    unsigned long long R = rounds;
    printf("expect emul.tick.period %u\n", EM_TICK);
    printf("expect emul.tick.periods %llu\n", 10 * R - 1);
    printf("expect emul.tick.skipped %llu\n", EM_SKIP * R);
    printf("expect emul.tick.gaps %llu\n", R);
    printf("expect emul.tick.longest %u\n", (EM_SKIP + 1) * EM_TICK);
    int icount = clock && !strncmp(clock, "icount", 6);
    printf("expect emul.stretched %llu\n", icount ? R : 0);
    if (icount)
        printf("expect emul.worst %u %u %u\n", 1u, EM_RUN, EM_RUN - 10); // CPU, run, stalled
    // the sampler's instances under --deadline client/main=EM_DEADLINE us: the long one's miss
    // (late EM_RUN - EM_DEADLINE) the emulator's when its stall (EM_RUN - 10) covers it; the
    // gap's time in the short one, when the gaps are the emulator's (an item names QEMU)
    int gaps = clock != NULL;
    printf("expect emul.tasks.deadline %u\n", EM_DEADLINE);
    printf("expect emul.tasks.instances %llu\n", 2 * R);
    printf("expect emul.tasks.misses %llu\n", icount ? 0 : R);
    printf("expect emul.tasks.emulator_misses %llu\n", icount ? R : 0);
    printf("expect emul.tasks.stretched %llu\n", (icount ? R : 0) + (gaps ? R : 0));
    printf("expect emul.tasks.emulator %llu\n", (icount ? R * (EM_RUN - 10) : 0) +
                                                 (gaps ? R * EM_SHORT : 0));
}
