// SPDX-License-Identifier: MIT
// irqrate: drives the board's device timer at a programmed rate (RATE_HZ, or the board's
// nearest) for RUN_MS of board time, through the normal driver path: InterruptAttachEvent,
// a pulse per interrupt, acknowledge the device, InterruptUnmask. User events mark the
// window (EV_START with the programmed rate, EV_STOP with the pulses counted) so that the
// test (test/qemu/test_irqrate.sh) can hold the trace's interrupt entries in that window
// against the rate the device was programmed at: every interrupt once, none early.
//   irqrate [HZ [MS [free]]]   (its part of the boot command line; default 1000 150)
// "free": a thread at priority 1, below everything but the idle threads, spins a loop of two
// instructions a turn through the window and says how many turns it made: the CPU time nothing
// else took, by the program's own count (test/qemu/test_d_cost.sh holds what a D program says
// it cost against it).
#include <kern.h>
#include <pulse_chan.h>
#include <spin_turns.h>
#include <stdio.h>
#include <stdlib.h>
#include <board_user.h>

#define RATE_HZ   1000u
#define RUN_MS    150u
#define FREE_PRIO 1
#define FREE_CHUNK 10000u       // turns between two looks at the window's end
#define EV_START  210           // user event: a = the rate programmed (Hz)
#define EV_STOP   211           // user event: a = the pulses received
#define CODE_IRQ  5

// The free-time meter: turns of a two-instruction loop while `free_run` holds.
static volatile int free_run = 1;
static volatile uint64_t free_turns;

static int free_meter(void *arg)
{
    (void)arg;
    while (free_run) {
        spin_turns(FREE_CHUNK);
        free_turns += FREE_CHUNK;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static char cmd[256];
    static char *kargv[8];
    int kargc = kargs("irqrate", cmd, sizeof(cmd), kargv, 8);
    if (kargc > 1)
        argc = kargc, argv = kargv;
    uint32_t rate = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : RATE_HZ;
    uint32_t run_ms = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : RUN_MS;
    int meter = argc > 3 && argv[3][0] == 'f';
    if (kargc < 0 || !rate || !run_ms) {
        printf("irqrate: usage: irqrate [HZ [MS [free]]]\n");
        return 2;
    }
    static uint8_t free_stack[1024] __attribute__((aligned(16)));
    struct pulse_chan irq;
    if (pulse_chan_irq(&irq, DEVTIMER_IRQ, CODE_IRQ) < 0) {
        printf("irqrate: set-up failed\n");
        return 1;
    }
    if (meter && ThreadCreate(free_meter, NULL, free_stack, sizeof(free_stack), FREE_PRIO, 0) < 0) {
        printf("irqrate: cannot start its free-time meter\n");
        return 1;
    }
    uint64_t end = ClockCycles() + (uint64_t)ClockCyclesPerSec() * run_ms / 1000u;
    uint32_t hz = devtimer_start_hz(rate);
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_START, hz, DEVTIMER_IRQ);
    uint32_t n = 0, other = 0;
    while (ClockCycles() < end) {
        struct kpulse p;
        TimerTimeout(100 * 1000000ull);
        if (MsgReceive(irq.chid, &p, sizeof(p), NULL) != 0)
            break;                  // no interrupt for 100 ms: the test says so
        if (p.code != CODE_IRQ) {
            other++;
            continue;
        }
        devtimer_ack();
        InterruptUnmask(DEVTIMER_IRQ, irq.id);
        n++;
    }
    devtimer_stop();
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_STOP, n, other);
    InterruptDetach(irq.id);
    free_run = 0;
    printf("irqrate: %lu interrupts in %u ms, device programmed at %lu Hz (line %d)\n",
           (unsigned long)n, (unsigned)run_ms, (unsigned long)hz, DEVTIMER_IRQ);
    if (meter)
        printf("irqrate: free time %s turns of 2 instructions\n", u64txt(free_turns).s);
    return n > 0 ? 0 : 2;
}
