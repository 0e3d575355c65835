// SPDX-License-Identifier: MIT
// init: pid 1 of the demo system. Starts the tracelogger (passive: init itself starts and
// stops tracing around the run), then the server and the rest, which find the server by its
// name (demo_proto.h), reaps them all, asks the server for its statistics, stops it, stops
// tracing, waits for the logger to save everything, and exits 0 only if every program did
// its job.
// `init loop=SECONDS [idle=MS]` on the boot command line: the same round again and again
// (the logger and tracing once around them all) until SECONDS of the board's clock have
// passed, with MS of quiet between rounds; a long run of the live stream (scripts/longrun.sh).
#include <kern.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/dispatch.h>
#include <demo_proto.h>
#include <logger_prio.h>

static bool quiet;          // rounds after the first say only what failed

static int spawn(const char *name)
{
    int pid = ProcSpawn(name, 0, 0);
    if (pid < 0)
        printf("init: cannot start %s: errno %d\n", name, errno);
    return pid;
}

// One round of the demo: the server and its four clients, reaped and checked. Returns the
// failures; *logger_status is set when the logger ended (it should not, before the stop).
static int demo_round(int logger, int *logger_status)
{
    int failures = 0;
    int srv = spawn("srv");     // its name goes with its process: each round's srv names anew
    if (!quiet)
        printf("init: srv is pid %d, named \"%s\"\n", srv, DEMO_SRV_NAME);

    const char *names[] = { "worker", "driver", "ticker", "client" };
    int pids[4];
    for (int i = 0; i < 4; i++)
        pids[i] = spawn(names[i]);

    for (int n = 0; n < 4; n++) {
        int st = 0;
        int pid = ProcWait(-1, &st);
        if (pid == logger) {            // it should end last, after tracing stops
            *logger_status = st;
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
        } else if (!quiet) {
            printf("init: %s (pid %d) finished\n", who, pid);
        }
    }

    int coid = name_open(DEMO_SRV_NAME, 0);
    struct demo_stats stats = { 0, 0, 0, 0 };
    struct demo_msg m = { DEMO_STATS, 0 };
    if (coid < 0)
        printf("init: name_open(%s): errno %d\n", DEMO_SRV_NAME, errno);
    MsgSend(coid, &m, sizeof(m), &stats, sizeof(stats));
    if (!quiet)
        printf("init: srv handled %ld reads, %ld writes, %ld device samples, %ld ticks\n",
               (long)stats.reads, (long)stats.writes, (long)stats.samples, (long)stats.ticks);
    m.op = DEMO_QUIT;
    MsgSend(coid, &m, sizeof(m), NULL, 0);
    ConnectDetach(coid);
    int st = 0;
    ProcWait(srv, &st);
    if (stats.reads == 0 || stats.samples == 0 || stats.ticks == 0 || KW_EXITSTATUS(st) != 0)
        failures++;
    return failures;
}

int main(void)
{
    // The whole boot command line, as appinit reads it (make dtrace's D text may be on it).
    static char cmd[2048];
    char *argv[8];
    unsigned loop_s = 0, idle_ms = 0;
    int argc = kargs("init", cmd, sizeof(cmd), argv, 8);
    if (argc < 0)
        printf("init: the boot command line is over the %u bytes init reads: its options "
               "(loop=, idle=) not read, one round\n", (unsigned)sizeof(cmd) - 2);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "loop=", 5) == 0)
            loop_s = (unsigned)strtoul(argv[i] + 5, NULL, 10);
        else if (strncmp(argv[i], "idle=", 5) == 0)
            idle_ms = (unsigned)strtoul(argv[i] + 5, NULL, 10);
        else
            printf("init: unknown option '%s' (loop=SECONDS idle=MS)\n", argv[i]);
    }
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
    int logger_status = -1;
    uint64_t t0 = ClockTime(), end = t0 + (uint64_t)loop_s * 1000000000u;
    unsigned rounds = 0;
    do {
        quiet = rounds > 0;
        int f = demo_round(logger, &logger_status);
        failures += f;
        rounds++;
        if (loop_s && (f || rounds % 100 == 0))
            printf("init: round %u done, %d failures so far, %lu s\n", rounds, failures,
                   (unsigned long)((ClockTime() - t0) / 1000000000u));
        if (loop_s && idle_ms)
            ThreadSleep((uint64_t)idle_ms * 1000000u);
    } while (loop_s && ClockTime() < end);

    if (logger > 0) {
        TraceEvent(KTRACE_STOP, 0, 0, 0);
        if (logger_status == -1)
            ProcWait(logger, &logger_status);
        int st = logger_status;
        if (!KW_EXITED(st) || KW_EXITSTATUS(st) != 0) {
            printf("init: tracelogger failed, wait status %#x\n", st);
            failures++;
        }
    }
    if (loop_s)
        printf("init: %u rounds in %lu s\n", rounds,
               (unsigned long)((ClockTime() - t0) / 1000000000u));
    printf("init: demo system done, %d failures\n", failures);
    return failures ? 1 : 0;
}
