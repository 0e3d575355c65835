// SPDX-License-Identifier: MIT
// period: pid 1 of the periodic image. Starts the tracelogger (passive, its options from the
// host), traces every class, and runs a 1 ms timer for 1000 periods at priority 20, measuring
// each interval between its wake-ups with ClockTime(). Prints the longest and how many came
// late (over 2 ms), then stops tracing and waits for the logger: whether an application keeps
// its period while the logger writes the trace out (the logger must run below it).
#include <kern.h>
#include <errno.h>
#include <stdio.h>

#define PERIOD_US 1000u
#define PERIODS   1000u

int main(void)
{
    int logger = ProcSpawn("tracelogger", 0, 0);
    if (logger < 0) {
        printf("period: no tracelogger\n");
        return 1;
    }
    if (TraceStartWithLogger() < 0) {
        printf("period: cannot start tracing: errno %d\n", errno);
        return 1;
    }
    int chid = ChannelCreate(0);
    int timer = TimerCreate(ConnectAttach(0, chid), 1, 0);
    TimerSettime(timer, PERIOD_US, PERIOD_US);
    uint64_t prev = ClockTime(), max = 0, sum = 0;
    unsigned late = 0;
    for (unsigned i = 0; i < PERIODS; i++) {
        struct kpulse p;
        MsgReceive(chid, &p, sizeof(p), NULL);
        uint64_t now = ClockTime(), d = now - prev;
        prev = now;
        sum += d;
        if (d > max)
            max = d;
        if (d > 2u * PERIOD_US * 1000u)
            late++;
    }
    TimerDestroy(timer);
    printf("period: %u periods of %u us: longest %lu us, mean %lu us, %u late (over %u us)\n",
           PERIODS, PERIOD_US, (unsigned long)(max / 1000u), (unsigned long)(sum / PERIODS / 1000u),
           late, 2u * PERIOD_US);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    int st;
    ProcWait(logger, &st);
    return KW_EXITED(st) ? KW_EXITSTATUS(st) : 4;
}
