// SPDX-License-Identifier: MIT
// appinit: pid 1 of the images `make run APPS="..."` and `make dtrace APPS="..."` build. It
// starts the tracelogger when the image has one (passive: appinit starts and stops tracing
// around the run; not when its starter traces already, as dtrace -K does), then every program named on its command line ("appinit sensor ctrl"),
// waits for them all, stops tracing, waits for the logger to save the trace, and exits with
// the number of programs that failed (0: all exited 0). A start of tracing that fails is
// said, and the logger is told to give up, so that a boot never hangs without a word.
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <logger_prio.h>

#define MAX_APPS 16

static const char *errname(int e)
{
    switch (e) {
    case EPERM: return "EPERM: the program lacks KAPP_F_TRACE (FLAGS in its app.mk)";
    case ENOENT: return "ENOENT: not in this image";
    case ENOMEM: return "ENOMEM";
    case EBUSY: return "EBUSY";
    default: return "";
    }
}

// The passive logger started and tracing with it (TraceStartWithLogger waits for it to be
// ready when it runs on another CPU); unless tracing runs already, started by our starter
// (dtrace -K: its logger saves the run, its stop ends it). The logger's pid (0: none of ours);
// *started says tracing started, and a start that failed is said and counted in *failures.
static int logger_start(int *started, int *failures)
{
    struct ktrace_query q = { 0 };
    int logger = TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0) == 0 && q.running
                     ? 0
                     : ProcSpawn("tracelogger", BOARD_LOGGER_SPAWN_PRIO, 0);
    *started = 0;
    if (logger > 0) {
        if (TraceStartWithLogger() < 0) {
            int e = errno;
            printf("appinit: cannot start tracing: errno %d %s\n", e, errname(e));
            (*failures)++;
        } else {
            *started = 1;
        }
    }
    return logger;
}

// The programs argv[1..argc) started: their pids in pids and, moved down, their names in
// argv[1...]; one that cannot start is said and counted in *failures. The number started.
static int apps_start(int argc, char **argv, int *pids, int *failures)
{
    int napps = 0;
    for (int i = 1; i < argc && napps < MAX_APPS; i++) {
        int pid = ProcSpawn(argv[i], 0, 0);
        if (pid < 0) {
            int e = errno;
            printf("appinit: cannot start %s: errno %d %s\n", argv[i], e, errname(e));
            (*failures)++;
            continue;
        }
        pids[napps] = pid;
        argv[1 + napps] = argv[i];
        napps++;
    }
    return napps;
}

// Waits for the napps programs started (pids, named argv[1...]), saying how each ended; a
// logger that ends first has its wait status in *logger_status. The programs that failed.
static int apps_wait(int napps, const int *pids, char **argv, int logger, int *logger_status)
{
    int failures = 0;
    for (int left = napps; left > 0; ) {
        int st = 0;
        int pid = ProcWait(-1, &st);
        if (pid < 0)
            break;
        if (pid == logger) {
            *logger_status = st;
            printf("appinit: tracelogger ended early, wait status %#x\n", st);
            continue;
        }
        const char *who = "?";
        for (int i = 0; i < napps; i++)
            if (pids[i] == pid)
                who = argv[1 + i];
        if (!KW_EXITED(st) || KW_EXITSTATUS(st) != 0) {
            printf("appinit: %s (pid %d) failed, wait status %#x\n", who, pid, st);
            failures++;
        } else {
            printf("appinit: %s (pid %d) finished\n", who, pid);
        }
        left--;
    }
    return failures;
}

// Tracing stopped and the logger waited for while it saves the trace: 1 when it failed (said),
// else 0.
static int logger_finish(int logger, int started, int logger_status)
{
    if (logger > 0 && !started)
        printf("appinit: no trace: tracing never started (the tracelogger gives up by itself)\n");
    if (logger > 0 && started) {
        TraceEvent(KTRACE_STOP, 0, 0, 0);
        if (logger_status == -1)
            ProcWait(logger, &logger_status);
        if (!KW_EXITED(logger_status) || KW_EXITSTATUS(logger_status) != 0) {
            printf("appinit: tracelogger failed, wait status %#x\n", logger_status);
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    // the whole boot command line: on x86-pc it carries make dtrace's D text (up to the 2048
    // bytes the kernel keeps, kernel/arch/x86/cpu.c), and a line that does not fit is lost
    static char cmd[2048];
    char *argv[MAX_APPS + 2];
    int argc = kargs("appinit", cmd, sizeof(cmd), argv, MAX_APPS + 2);
    int failures = 0;
    if (argc < 0) {
        printf("appinit: the boot command line is longer than the %u bytes it reads: shorten "
               "it\n", (unsigned)sizeof(cmd) - 2);
        return 2;
    }
    if (argc < 2) {
        printf("appinit: no programs to start (the command line wants \"appinit NAME...\")\n");
        return 1;
    }
    printf("appinit: starting");
    for (int i = 1; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");

    int started, pids[MAX_APPS], logger_status = -1;
    int logger = logger_start(&started, &failures);
    int napps = apps_start(argc, argv, pids, &failures);
    failures += apps_wait(napps, pids, argv, logger, &logger_status);
    failures += logger_finish(logger, started, logger_status);
    printf("appinit: done, %d failures\n", failures);
    return failures;
}
