// SPDX-License-Identifier: MIT
// Interrupts delivered to a thread as pulses: a software-triggered line and a real device
// (the board's device timer through ktest's device window), masking until InterruptUnmask, and the
// errors of attaching.
#include "ktest.h"
#include <board_user.h>

void test_irq(void)
{
    printf("# interrupts\n");
    int chid = ChannelCreate(0);
    int coid = ConnectAttach(0, chid);
    struct kpulse p;

    int id = InterruptAttachEvent(24, coid, 9);
    CHECK(id > 0, "attach line 24 as an event (id %d)", id);
    CHECK(InterruptTrigger(24) == 0, "trigger line 24");
    int r = MsgReceive(chid, &p, sizeof(p), NULL);
    CHECK(r == 0 && p.code == 9 && p.value == 24, "interrupt arrives as a pulse (code %ld)",
          (long)p.code);
    InterruptTrigger(24);       // the line is masked until we unmask it
    TimerTimeout(5 * 1000000ull);
    CHECK_ERR(MsgReceive(chid, &p, sizeof(p), NULL), ETIMEDOUT);
    CHECK(InterruptUnmask(24, id) == 0, "unmask line 24");
    r = MsgReceive(chid, &p, sizeof(p), NULL);
    CHECK(r == 0 && p.code == 9, "the interrupt held while masked arrives after unmask");
    CHECK_ERR(InterruptAttachEvent(24, coid, 9), EBUSY);
    CHECK_ERR(InterruptAttachEvent(9, coid, 9), EINVAL);
    CHECK_ERR(InterruptAttachEvent(24 + 100, coid, 9), EINVAL);
    CHECK_ERR(InterruptUnmask(25, id), EINVAL);
    CHECK(InterruptDetach(id) == 0, "detach line 24");
    CHECK_ERR(InterruptTrigger(24), EPERM);

    // A real device: the device timer counts 1 ms and interrupts.
    id = InterruptAttachEvent(DEVTIMER_IRQ, coid, 3);
    CHECK(id > 0, "attach the device timer's line %d", DEVTIMER_IRQ);
    devtimer_start(ClockCyclesPerSec() / 1000);
    int n = 0;
    for (int i = 0; i < 3; i++) {
        TimerTimeout(200 * 1000000ull);
        if (MsgReceive(chid, &p, sizeof(p), NULL) == 0 && p.code == 3 && p.value == DEVTIMER_IRQ)
            n++;
        devtimer_ack();
        InterruptUnmask(DEVTIMER_IRQ, id);
    }
    devtimer_stop();
    CHECK(n == 3, "three device timer interrupts delivered to the driver thread (%d)", n);

    // Another process may not attach (EPERM), nor mask or unmask the line this one attached,
    // nor name wrong lines and ids: EINVAL each on every board, or kt_peer exits 100 + the
    // answers that were not (with several CPUs the masks run on the kernel lock's shared side,
    // kernel/irq.c; ktest's flash slot on netduinoplus2 leaves no room for a check of its own).
    int pid = ProcSpawn("kt_peer", 0, 0xa0000u | (uint32_t)id << 8 | DEVTIMER_IRQ);
    int st = 0;
    ProcWait(pid, &st);
    CHECK(KW_EXITED(st) && KW_EXITSTATUS(st) == EPERM,
          "a program without I/O rights cannot attach interrupts (exit %d)", KW_EXITSTATUS(st));
    InterruptDetach(id);
    ConnectDetach(coid);
    ChannelDestroy(chid);
}
