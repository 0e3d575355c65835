// SPDX-License-Identifier: MIT
// hang: pid 1 of the flight-recorder image. Starts the tracelogger (its command line, from
// the host, says ring mode: "tracelogger -d1 -r"), traces class USER only, inserts "-A
// events=N" user events with payloads 1..N (default 50000: the ring wraps and overwrites the
// oldest buffers, which the kernel counts), says so, and then hangs the system: it spins at
// the highest priority for ever, with no events, so the ring keeps what it had. kevdump then
// reads it from the halted target; the last payload must be N and the lost count N minus what
// the dump holds. With "crash" on its command line it makes the kernel fault instead
// (ThreadCtl KTCTL_KDEBUG_FAULT: this image links kernel/kcrash.c), which halts in place;
// "crash-locked" makes it fault while holding its CPU's trace buffer lock.
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev.h>

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);

int main(void)
{
    static char cmd[256];
    uintptr_t blk[2] = { (uintptr_t)cmd, sizeof(cmd) - 1 };
    if (sys_semihost(0x15, (uintptr_t)blk) == 0)
        cmd[blk[1]] = '\0';
    const char *p = strstr(cmd, "events=");
    uint32_t n = p ? (uint32_t)strtoul(p + 7, NULL, 10) : 50000u;

    int logger = ProcSpawn("tracelogger", 0, 0);
    if (logger < 0) {
        printf("hang: no tracelogger\n");
        return 1;
    }
    // Wait until the logger has its buffers and shares the control (or has gone).
    int st;
    for (int tries = 0; tries < 1000; tries++) {
        TimerTimeout(1);    // ProcWait only looks
        if (ProcWait(logger, &st) == logger) {
            printf("hang: tracelogger exited with status %d\n", KW_EXITSTATUS(st));
            return 3;
        }
        if (TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0) == 0 || (errno != ECANCELED && errno != EPERM))
            break;
        ThreadSleep(1000000);
    }
    ThreadSleep(20000000);      // the logger configures the ring mode and waits
    TraceEvent(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    if (TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0) < 0) {
        printf("hang: cannot start tracing\n");
        return 1;
    }
    for (uint32_t i = 1; i <= n; i++)
        TraceEvent(KTRACE_INSERTSUSEREVENT, 1, i, 0);
    if (strstr(cmd, "crash")) {
        // The post-mortem test of a kernel fault (test/qemu/test_kfault.sh): the kernel
        // faults in kcrash_bad_read, writes its KPANIC event and halts in place.
        // "crash-locked": the fault comes while this CPU holds its trace buffer's lock.
        uintptr_t how = strstr(cmd, "crash-locked") ? KDEBUG_FAULT_TRACE_LOCKED : KDEBUG_FAULT_PLAIN;
        printf("hang: %lu user events inserted; faulting the kernel now\n", (unsigned long)n);
        int r = ThreadCtl(KTCTL_KDEBUG_FAULT, (void *)how);
        printf("hang: the kernel did not fault (ThreadCtl: %d, errno %d)\n", r, errno);
        return 4;
    }
    printf("hang: %lu user events inserted; hanging now\n", (unsigned long)n);
    for (;;)
        __asm__ volatile("" ::: "memory");
}
