// SPDX-License-Identifier: MIT
// irqpace: raises the board's software-driven level line (SWLINE_IRQ of its board_user.h) once
// per period of a kernel timer, RAISES times, and serves each interrupt as a driver serves a
// device: InterruptAttachEvent, a pulse per interrupt, lower the line (the device serviced),
// InterruptUnmask. The line stays high from the raise until the driver lowers it, so the
// kernel masks it while it is still asserted: on the NVIC the exception return then latches
// it pending again, and an unmask that kept that latch would deliver every raise twice.
// User events mark the window (EV_START at the first tick with the pace in Hz and the line,
// EV_STOP once the last raise is served, with the raises and the interrupts taken) so that
// test/qemu/test_irqrate.sh can hold the trace's interrupt entries against the program's own
// count of raises and the timer's period.
#include <kern.h>
#include <stdio.h>
#include <board_user.h>

#ifndef SWLINE_IRQ
#error "irqpace: this board has no software-driven level line (SWLINE_IRQ in board_user.h)"
#endif

#define PERIOD_US 1000u         // the kernel timer's period: the pace of the raises
#define RAISES    150u
#define EV_START  210           // user event: a = the pace (Hz), b = the line
#define EV_STOP   211           // user event: a = raises, b = interrupts taken
#define CODE_IRQ  5
#define CODE_TICK 6
#define DRAIN_NS  (5u * 1000000u)
#define MISSED_MAX 100u

// The CPU never waits: a thread below everything else spins, so the idle thread never sleeps
// in WFI. Under -icount shift=0,sleep=off (the capture's deterministic clock) QEMU 7.2 wakes a
// Cortex-M waiting in WFI on every second timer interrupt only, which stretched this
// program's 1 ms period to two ticks; a CPU that is running sees every tick.
#define SPIN_PRIO 1
static KSTACK(spin_stack, 512);

static int spin(void *arg)
{
    (void)arg;
    for (;;)
        __asm__ volatile("" ::: "memory");
    return 0;
}

int main(void)
{
    int chid = ChannelCreate(0);
    int self = ConnectAttach(0, chid);
    swline_lower();
    if (ThreadCreate(spin, NULL, spin_stack, sizeof(spin_stack), SPIN_PRIO, 0) < 0) {
        printf("irqpace: no spinning thread\n");
        return 1;
    }
    int id = InterruptAttachEvent(SWLINE_IRQ, self, CODE_IRQ);
    int timer = TimerCreate(self, CODE_TICK, 0);
    if (chid < 0 || self < 0 || id < 0 || timer < 0 ||
        TimerSettime(timer, PERIOD_US, PERIOD_US) < 0) {
        printf("irqpace: set-up failed\n");
        return 1;
    }
    struct kpulse p;
    do {                        // start on a tick: the first expiry is rounded to the tick
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            return 1;
    } while (p.code != CODE_TICK);
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_START, 1000000u / PERIOD_US, SWLINE_IRQ);
    uint32_t raised = 0, taken = 0, missed = 0, other = 0;
    int high = 0;
    // Raise on a tick (a tick that finds the line still high is counted, not raised), serve
    // on an interrupt; then wait DRAIN_NS more for any interrupt still to come (counted in
    // the line printed: the trace's window has ended).
    for (;;) {
        if (raised == RAISES && !high) {
            if (timer >= 0) {       // the window ends with the last raise served
                TraceEvent(KTRACE_INSERTSUSEREVENT, EV_STOP, raised, taken);
                TimerDestroy(timer);
                timer = -1;
            }
            TimerTimeout(DRAIN_NS);
        } else {
            TimerTimeout(100u * 1000000u);
        }
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            break;                  // drained, or nothing for 100 ms (the count says so)
        if (p.code == CODE_TICK && timer >= 0) {
            if (high) {
                if (++missed > MISSED_MAX)
                    break;          // the line raises no interrupt: the count says so
            } else if (raised < RAISES) {
                swline_raise();
                raised++;
                high = 1;
            }
        } else if (p.code == CODE_IRQ) {
            swline_lower();
            InterruptUnmask(SWLINE_IRQ, id);
            taken++;
            high = 0;
        } else {
            other++;
        }
    }
    InterruptDetach(id);
    printf("irqpace: %lu raises every %u us, %lu interrupts taken (line %d), %lu ticks missed\n",
           (unsigned long)raised, PERIOD_US, (unsigned long)taken, SWLINE_IRQ,
           (unsigned long)missed);
    return raised == RAISES ? 0 : 2;
}
