// SPDX-License-Identifier: MIT
// TraceStartWithLogger(): what a program that records itself does after starting a passive
// tracelogger (-d1): turn every class on and start tracing. On one CPU the logger (higher
// priority) has allocated its buffers and shared the capture's control before the caller runs
// again; on several it runs beside the caller, so until it has (ECANCELED: no buffers yet,
// EPERM: control not shared yet) this tries again every millisecond, for up to a second.
// TraceSpawnLogger() and TraceStopLogger(): the logger's whole life around a program that
// records itself (livemark, period).
#include <kern.h>
#include <errno.h>
#include <stdio.h>

int TraceStartWithLogger(void)
{
    int r;
    for (int tries = 0; tries < 1000; tries++) {
        r = TraceEvent(KTRACE_ADDALLCLASSES, 0, 0, 0);
        if (r == 0 || (errno != ECANCELED && errno != EPERM))
            break;
        ThreadSleep(1000000);
    }
    if (r < 0)
        return r;
    r = TraceEvent(KTRACE_START, 0, 0, 0);
    if (r < 0 && errno == EBUSY)    // an active logger started it itself
        return 0;
    return r;
}

int TraceSpawnLogger(const char *name, int prio)
{
    int logger = ProcSpawn("tracelogger", prio, 0);
    if (logger < 0) {
        printf("%s: no tracelogger\n", name);
        return -1;
    }
    if (TraceStartWithLogger() < 0) {
        printf("%s: cannot start tracing: errno %d\n", name, errno);
        return -1;
    }
    return logger;
}

int TraceStopLogger(int logger)
{
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    int st;
    ProcWait(logger, &st);
    return KW_EXITED(st) ? KW_EXITSTATUS(st) : 4;
}
