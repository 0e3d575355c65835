// SPDX-License-Identifier: MIT
// Clocks, sleeps, kernel-call timeouts and periodic timers delivering pulses.
#include "ktest.h"
#include <board_user.h>

// The cycle counter's rate: fixed on boards that say so in board_user.h, 0 where it is
// measured at boot (x86-pc's TSC). Boards that say nothing run it at 25 MHz.
// A board whose counter runs at one rate on the chip and another in QEMU gives the second as
// BOARD_CYCLE_HZ_ALT (netduinoplus2: boards/netduinoplus2/user.mk).
#ifndef BOARD_CYCLE_HZ
#define BOARD_CYCLE_HZ 25000000u
#endif
#ifndef BOARD_CYCLE_HZ_ALT
#define BOARD_CYCLE_HZ_ALT BOARD_CYCLE_HZ
#endif

static int late_sem;

static int late_poster(void *arg)
{
    (void)arg;
    ThreadSleep(20 * 1000000ull);
    SemPost(late_sem);
    return 0;
}

void test_time(void)
{
    printf("# time\n");
    // Two reads in a row may see one count where the counter is slower than the CPU (AArch64's
    // generic timer: 62.5 MHz under QEMU, tens of instructions a count), never a smaller one;
    // a few thousand instructions later it has moved on.
    uint64_t c1 = ClockCycles(), c2 = ClockCycles(), c3 = c2;
    for (unsigned i = 0; i < 10000u && c3 == c1; i++)
        c3 = ClockCycles();
    CHECK(c2 >= c1 && c3 > c1, "ClockCycles increases (%s -> %s -> %s)", u64txt(c1).s,
          u64txt(c2).s, u64txt(c3).s);
    if (BOARD_CYCLE_HZ)
        CHECK(ClockCyclesPerSec() == BOARD_CYCLE_HZ || ClockCyclesPerSec() == BOARD_CYCLE_HZ_ALT,
              "cycle counter runs at %lu Hz (the board's: %lu or %lu)",
              (unsigned long)ClockCyclesPerSec(), (unsigned long)BOARD_CYCLE_HZ,
              (unsigned long)BOARD_CYCLE_HZ_ALT);
    else
        CHECK(ClockCyclesPerSec() >= 1000000u, "cycle counter measured at boot: %lu Hz",
              (unsigned long)ClockCyclesPerSec());

    uint64_t t0 = ClockTime();
    CHECK(ThreadSleep(10 * 1000000ull) == 0, "ThreadSleep 10 ms");
    uint64_t slept = ClockTime() - t0;
    CHECK(slept >= 10000000ull && slept < 500000000ull, "slept at least 10 ms (%s us)",
          u64txt(slept / 1000).s);

    int chid = ChannelCreate(0);
    char buf[16];
    t0 = ClockTime();
    TimerTimeout(5 * 1000000ull);
    CHECK_ERR(MsgReceive(chid, buf, sizeof(buf), NULL), ETIMEDOUT);
    CHECK(ClockTime() - t0 >= 5000000ull, "the timeout waited at least 5 ms");

    // TimerTimeout covers only the next call: here a non-blocking one.
    late_sem = SemCreate(0);
    int t = ThreadCreate(late_poster, NULL, stack_get(), TSTACK_SIZE, 110, 0);
    TimerTimeout(1 * 1000000ull);
    ThreadSelf();
    CHECK(SemWait(late_sem) == 0, "a timeout does not outlive the call after TimerTimeout");
    ThreadJoin(t, NULL);
    SemDestroy(late_sem);

    int coid = ConnectAttach(0, chid);
    int tid = TimerCreate(coid, 7, 99);
    CHECK(tid > 0, "TimerCreate");
    t0 = ClockTime();
    CHECK(TimerSettime(tid, 2000, 2000) == 0, "periodic timer every 2 ms");
    int got = 0;
    for (int i = 0; i < 5; i++) {
        struct kpulse p;
        if (MsgReceive(chid, &p, sizeof(p), NULL) == 0 && p.code == 7 && p.value == 99)
            got++;
    }
    uint64_t el = ClockTime() - t0;
    CHECK(got == 5 && el >= 9000000ull, "five timer pulses in %s us", u64txt(el / 1000).s);
    CHECK(TimerDestroy(tid) == 0, "TimerDestroy");
    CHECK_ERR(TimerSettime(tid, 1000, 0), EINVAL);
    ConnectDetach(coid);
    ChannelDestroy(chid);
}
