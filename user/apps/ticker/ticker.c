// SPDX-License-Identifier: MIT
// ticker: a periodic thread: a 5 ms timer delivers pulses; each tick is passed on as a pulse
// of its own to srv (found by its name). Forty ticks, then done.
#include <kern.h>
#include <stdio.h>
#include <sys/dispatch.h>
#include <demo_proto.h>

int main(void)
{
    TimerTimeout(DEMO_OPEN_WAIT_NS);   // srv may still be starting: wait for its name
    int srv = name_open(DEMO_SRV_NAME, NAME_FLAG_WAIT);
    int chid = ChannelCreate(0);
    int self = ConnectAttach(0, chid);
    int timer = TimerCreate(self, 1, 0);
    if (srv < 0 || timer < 0)
        return 1;
    TimerSettime(timer, 5000, 5000);
    uint64_t t0 = ClockTime();
    for (int i = 1; i <= 40; i++) {
        struct kpulse p;
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            return 2;
        MsgSendPulse(srv, 15, DEMO_PULSE_TICK, i);
    }
    TimerDestroy(timer);
    printf("ticker: 40 ticks in %lu ms\n", (unsigned long)((ClockTime() - t0) / 1000000u));
    return 0;
}
