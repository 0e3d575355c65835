// SPDX-License-Identifier: MIT
// irqrate: drives the board's device timer at a programmed rate (RATE_HZ, or the board's
// nearest) for RUN_MS of board time, through the normal driver path: InterruptAttachEvent,
// a pulse per interrupt, acknowledge the device, InterruptUnmask. User events mark the
// window (EV_START with the programmed rate, EV_STOP with the pulses counted) so that the
// test (test/qemu/test_irqrate.sh) can hold the trace's interrupt entries in that window
// against the rate the device was programmed at: every interrupt once, none early.
#include <kern.h>
#include <stdio.h>
#include <board_user.h>

#define RATE_HZ   1000u
#define RUN_MS    150u
#define EV_START  210           // user event: a = the rate programmed (Hz)
#define EV_STOP   211           // user event: a = the pulses received
#define CODE_IRQ  5

int main(void)
{
    int chid = ChannelCreate(0);
    int self = ConnectAttach(0, chid);
    int id = InterruptAttachEvent(DEVTIMER_IRQ, self, CODE_IRQ);
    if (chid < 0 || self < 0 || id < 0) {
        printf("irqrate: set-up failed\n");
        return 1;
    }
    uint64_t end = ClockCycles() + (uint64_t)ClockCyclesPerSec() * RUN_MS / 1000u;
    uint32_t hz = devtimer_start_hz(RATE_HZ);
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_START, hz, DEVTIMER_IRQ);
    uint32_t n = 0, other = 0;
    while (ClockCycles() < end) {
        struct kpulse p;
        TimerTimeout(100 * 1000000ull);
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            break;                  // no interrupt for 100 ms: the test says so
        if (p.code != CODE_IRQ) {
            other++;
            continue;
        }
        devtimer_ack();
        InterruptUnmask(DEVTIMER_IRQ, id);
        n++;
    }
    devtimer_stop();
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_STOP, n, other);
    InterruptDetach(id);
    printf("irqrate: %lu interrupts in %u ms, device programmed at %lu Hz (line %d)\n",
           (unsigned long)n, RUN_MS, (unsigned long)hz, DEVTIMER_IRQ);
    return n > 0 ? 0 : 2;
}
