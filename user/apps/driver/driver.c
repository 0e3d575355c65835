// SPDX-License-Identifier: MIT
// driver: an interrupt-driven device driver. It owns the board's device timer (mapped into
// this process only, board_user.h), runs it at 2 ms, takes each interrupt as a pulse, reads the device, hands the sample
// to srv and unmasks the line. Thirty interrupts, then the device is stopped.
#include <kern.h>
#include <stdio.h>
#include <demo_proto.h>
#include <board_user.h>

int main(void)
{
    uint32_t addr = ProcArg();
    int srv = ConnectAttach(DEMO_PID(addr), DEMO_CHID(addr));
    int chid = ChannelCreate(0);
    int self = ConnectAttach(0, chid);
    int id = InterruptAttachEvent(DEVTIMER_IRQ, self, 2);
    if (srv < 0 || id < 0)
        return 1;
    uint32_t period = ClockCyclesPerSec() / 500;      // 2 ms
    devtimer_start(period);
    int n;
    for (n = 0; n < 30; n++) {
        struct kpulse p;
        TimerTimeout(500000000ull);
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            break;
        devtimer_ack();
        struct demo_msg m = { DEMO_SAMPLE, (int32_t)(ClockCycles() & 0xffff) };
        MsgSend(srv, &m, sizeof(m), NULL, 0);
        InterruptUnmask(DEVTIMER_IRQ, id);
    }
    devtimer_stop();
    InterruptDetach(id);
    printf("driver: %d device interrupts handled\n", n);
    return n == 30 ? 0 : 2;
}
