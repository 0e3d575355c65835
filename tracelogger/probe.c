// SPDX-License-Identifier: MIT
// The probe path's logger side (-x probe; docs/probe-path.md): the capture's header and system
// page are published in the kernel's probe block (KTRACE_PROBE), and a reader outside the
// board (kevprobe) takes the buffers from the kernel's memory and gives them back itself.
// While tracing runs the logger is blocked (main.c, capture_probe): no buffer passes through
// it; the kernel's one pulse says the capture stopped (or its -n-th buffer began). At the end
// it tells the reader the stop time and the trailer's flags, waits for it to have read the
// rest, and says what the kernel did for the reader.
#include "tracelogger.h"
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <trace/kev_probe.h>

int probe_publish(const struct tl_opts *o)
{
    const uint8_t *head, *page;
    size_t hl, pl;
    kev_head_bytes(&head, &hl, &page, &pl);
    struct ktrace_probe_pub pub = {
        (uint32_t)(uintptr_t)head, (uint32_t)hl, (uint32_t)(uintptr_t)page, (uint32_t)pl,
        o->probe == 2 ? KEV_PROBE_F_KEEP : 0u, o->passive ? 0u : o->iterations,
    };
    if (TraceEvent(KTRACE_PROBE, KTRACE_PROBE_PUBLISH, (uint32_t)(uintptr_t)&pub, 0) < 0) {
        printf("tracelogger: the kernel refused the probe block (errno %d)\n", errno);
        return -1;
    }
    return 0;
}

int probe_finish(const struct tl_opts *o, uint64_t stop_time, uint32_t trl_flags)
{
    struct ktrace_probe_end end = { (uint32_t)stop_time, (uint32_t)(stop_time >> 32),
                                    trl_flags };
    if (TraceEvent(KTRACE_PROBE, KTRACE_PROBE_STOPPED, (uint32_t)(uintptr_t)&end, 0) < 0)
        return -1;
    uint64_t t0 = ClockTime();
    while (TraceEvent(KTRACE_PROBE, KTRACE_PROBE_HOSTDONE, 0, 0) != 1) {
        if (ClockTime() - t0 >= (uint64_t)o->probe_wait * 1000000000u) {
            printf("tracelogger: -x probe: no reader took the end of the capture within %u s "
                   "(its buffers are lost with the ring)\n", o->probe_wait);
            return -1;
        }
        ThreadSleep(10u * 1000000u);
    }
    return 0;
}

void probe_report(void)
{
    struct ktrace_probe_work w;
    if (TraceEvent(KTRACE_PROBE, KTRACE_PROBE_WORK, (uint32_t)(uintptr_t)&w, 0) < 0)
        return;
    uint64_t c = (uint64_t)w.cycles_hi << 32 | w.cycles_lo, hz = ClockCyclesPerSec();
    printf("tracelogger: the kernel served the reader %lu flushes in %s us of the board's time "
           "(the buffer starts they caused included)", (unsigned long)w.flushes,
           u64txt(hz ? c * 1000000u / hz : 0).s);
    uint64_t cc = (uint64_t)w.clean_hi << 32 | w.clean_lo;
    printf(" and cleaned its data cache for it %lu times in %s us\n", (unsigned long)w.cleans,
           u64txt(hz ? cc * 1000000u / hz : 0).s);
}
