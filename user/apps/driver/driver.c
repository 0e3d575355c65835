// SPDX-License-Identifier: MIT
// driver: an interrupt-driven device driver. It owns CMSDK timer 0 (mapped into this process
// only), runs it at 2 ms, takes each interrupt as a pulse, reads the device, hands the sample
// to srv and unmasks the line. Thirty interrupts, then the device is stopped.
#include <kern.h>
#include <stdio.h>
#include <demo_proto.h>

#define TIMER0 0x40000000u
#define T_CTRL   (*(volatile uint32_t *)(TIMER0 + 0x0))
#define T_VALUE  (*(volatile uint32_t *)(TIMER0 + 0x4))
#define T_RELOAD (*(volatile uint32_t *)(TIMER0 + 0x8))
#define T_INT    (*(volatile uint32_t *)(TIMER0 + 0xc))
#define TIMER0_IRQ 8

int main(void)
{
    uint32_t addr = ProcArg();
    int srv = ConnectAttach(DEMO_PID(addr), DEMO_CHID(addr));
    int chid = ChannelCreate(0);
    int self = ConnectAttach(0, chid);
    int id = InterruptAttachEvent(TIMER0_IRQ, self, 2);
    if (srv < 0 || id < 0)
        return 1;
    uint32_t period = ClockCyclesPerSec() / 500;      // 2 ms
    T_CTRL = 0;
    T_INT = 1;
    T_RELOAD = period;
    T_VALUE = period;
    T_CTRL = 1 | 8;
    int n;
    for (n = 0; n < 30; n++) {
        struct kpulse p;
        TimerTimeout(500000000ull);
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            break;
        T_INT = 1;
        struct demo_msg m = { DEMO_SAMPLE, (int32_t)(ClockCycles() & 0xffff) };
        MsgSend(srv, &m, sizeof(m), NULL, 0);
        InterruptUnmask(TIMER0_IRQ, id);
    }
    T_CTRL = 0;
    InterruptDetach(id);
    printf("driver: %d device interrupts handled\n", n);
    return n == 30 ? 0 : 2;
}
