// SPDX-License-Identifier: MIT
// init: pid 1 of the demo system. Starts the tracelogger (passive: init itself starts and
// stops tracing around the run), then the server and the rest, which find the server by its
// name (demo_proto.h), reaps them all, asks the server for its statistics, stops it, stops
// tracing, waits for the logger to save everything, and exits 0 only if every program did
// its job.
#include <kern.h>
#include <stdio.h>
#include <errno.h>
#include <sys/dispatch.h>
#include <demo_proto.h>
#include <logger_prio.h>

static int spawn(const char *name)
{
    int pid = ProcSpawn(name, 0, 0);
    if (pid < 0)
        printf("init: cannot start %s: errno %d\n", name, errno);
    return pid;
}

int main(void)
{
    int failures = 0;
    printf("init: demo system starting\n");
    // The passive logger saves what init starts (TraceStartWithLogger waits for it to be
    // ready when it runs on another CPU).
    int logger = ProcSpawn("tracelogger", BOARD_LOGGER_SPAWN_PRIO, 0);
    if (logger > 0) {
        int r = TraceStartWithLogger();
        if (r < 0) {
            printf("init: cannot start tracing: errno %d\n", errno);
            failures++;
        }
    }
    int srv = spawn("srv");
    printf("init: srv is pid %d, named \"%s\"\n", srv, DEMO_SRV_NAME);
    const char *names[] = { "worker", "driver", "ticker", "client" };
    int pids[4];
    for (int i = 0; i < 4; i++)
        pids[i] = spawn(names[i]);

    int logger_status = -1;
    for (int n = 0; n < 4; n++) {
        int st = 0;
        int pid = ProcWait(-1, &st);
        if (pid == logger) {            // it should end last, after tracing stops
            logger_status = st;
            printf("init: tracelogger ended early, wait status %#x\n", st);
            n--;
            continue;
        }
        const char *who = "?";
        for (int i = 0; i < 4; i++)
            if (pids[i] == pid)
                who = names[i];
        if (!KW_EXITED(st) || KW_EXITSTATUS(st) != 0) {
            printf("init: %s (pid %d) failed, wait status %#x\n", who, pid, st);
            failures++;
        } else {
            printf("init: %s (pid %d) finished\n", who, pid);
        }
    }

    int coid = name_open(DEMO_SRV_NAME, 0);
    struct demo_stats stats = { 0, 0, 0, 0 };
    struct demo_msg m = { DEMO_STATS, 0 };
    if (coid < 0)
        printf("init: name_open(%s): errno %d\n", DEMO_SRV_NAME, errno);
    MsgSend(coid, &m, sizeof(m), &stats, sizeof(stats));
    printf("init: srv handled %ld reads, %ld writes, %ld device samples, %ld ticks\n",
           (long)stats.reads, (long)stats.writes, (long)stats.samples, (long)stats.ticks);
    m.op = DEMO_QUIT;
    MsgSend(coid, &m, sizeof(m), NULL, 0);
    int st = 0;
    ProcWait(srv, &st);
    if (stats.reads == 0 || stats.samples == 0 || stats.ticks == 0 || KW_EXITSTATUS(st) != 0)
        failures++;
    if (logger > 0) {
        TraceEvent(KTRACE_STOP, 0, 0, 0);
        if (logger_status == -1)
            ProcWait(logger, &logger_status);
        st = logger_status;
        if (!KW_EXITED(st) || KW_EXITSTATUS(st) != 0) {
            printf("init: tracelogger failed, wait status %#x\n", st);
            failures++;
        }
    }
    printf("init: demo system done, %d failures\n", failures);
    return failures ? 1 : 0;
}
