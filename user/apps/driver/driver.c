// SPDX-License-Identifier: MIT
// driver: an interrupt-driven device driver. It owns the board's device timer (mapped into
// this process only, board_user.h), runs it at 500 Hz (x86-pc's RTC: 512 Hz), takes each interrupt as a pulse, reads the device, hands the sample
// to srv (found by its name) and unmasks the line. Thirty interrupts, then the device is stopped; it reports how
// long they took at the rate programmed, so a doubled delivery shows (test/qemu/test_demo.sh).
#include <kern.h>
#include <stdio.h>
#include <sys/dispatch.h>
#include <demo_proto.h>
#include <board_user.h>

int main(void)
{
    TimerTimeout(DEMO_OPEN_WAIT_NS);   // srv may still be starting: wait for its name
    int srv = name_open(DEMO_SRV_NAME, NAME_FLAG_WAIT);
    int chid = ChannelCreate(0);
    int self = ConnectAttach(0, chid);
    int id = InterruptAttachEvent(DEVTIMER_IRQ, self, 2);
    if (srv < 0 || id < 0)
        return 1;
    uint64_t t0 = ClockCycles();
    uint32_t hz = devtimer_start_hz(500);               // 2 ms
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
    uint32_t ms = (uint32_t)((ClockCycles() - t0) * 1000u / ClockCyclesPerSec());
    printf("driver: %d device interrupts handled in %lu ms at %lu Hz\n", n, (unsigned long)ms,
           (unsigned long)hz);
    return n == 30 ? 0 : 2;
}
