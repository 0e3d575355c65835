// SPDX-License-Identifier: MIT
// period: pid 1 of the periodic image. Starts the tracelogger (passive, its options from the
// host) below its own priority, traces every class, and runs a 1 ms timer at priority 20,
// measuring the 1000 intervals between its wake-ups with ClockTime(). Prints the longest,
// shortest and mean interval and how many came late (over 2 ms), then stops tracing and waits
// for the logger: whether an application keeps its period while the logger writes the trace
// out (test/qemu/test_period.sh, docs/x86.md).
//
// The logger runs below the application (LOGGER_PRIO): a logger that polls its transport
// (x86-pc's UART) holds the CPU for a whole buffer, ~600 us under -icount shift=0 and a second
// at 115200 baud on a real PC, which a logger above the application would take out of its
// period. Below it, the logger gets the idle time (the application uses ~0.3 % of the CPU
// here) and the ring (BOARD_TRACE_BUFS buffers) holds what it has not sent yet.
#include <kern.h>
#include <stdio.h>

#define PERIOD_US   1000u
#define PERIODS     1000u
#define LOGGER_PRIO 5       // below this program's 20 (app.mk)

int main(void)
{
    int logger = TraceSpawnLogger("period", LOGGER_PRIO);
    if (logger < 0)
        return 1;
    int chid = ChannelCreate(0);
    int timer = TimerCreate(ConnectAttach(0, chid), 1, 0);
    TimerSettime(timer, PERIOD_US, PERIOD_US);
    // Intervals are counted from the first wake-up: the first expiry is rounded up to a whole
    // tick after the call, so the time from here to it is anything up to two periods.
    struct kpulse p;
    MsgReceive(chid, &p, sizeof(p), NULL);
    uint64_t prev = ClockTime(), max = 0, min = UINT64_MAX, sum = 0;
    unsigned late = 0;
    for (unsigned i = 0; i < PERIODS; i++) {
        MsgReceive(chid, &p, sizeof(p), NULL);
        uint64_t now = ClockTime(), d = now - prev;
        prev = now;
        sum += d;
        if (d > max)
            max = d;
        if (d < min)
            min = d;
        if (d > 2u * PERIOD_US * 1000u)
            late++;
    }
    TimerDestroy(timer);
    printf("period: %u periods of %u us: longest %lu us, mean %lu us, %u late (over %u us), "
           "shortest %lu us\n",
           PERIODS, PERIOD_US, (unsigned long)(max / 1000u), (unsigned long)(sum / PERIODS / 1000u),
           late, 2u * PERIOD_US, (unsigned long)(min / 1000u));
    return TraceStopLogger(logger);
}
