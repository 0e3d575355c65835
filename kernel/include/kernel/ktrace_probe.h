// SPDX-License-Identifier: MIT
// The probe block's kernel side (kernel/ktrace_probe.c; trace/kev_probe.h): KTRACE_PROBE,
// the capture's start and end, and the tick's one test for a reader's flush request.
#ifndef KERNEL_KTRACE_PROBE_H
#define KERNEL_KTRACE_PROBE_H

#include <stdint.h>
#include <trace/kev_probe.h>

struct proc;
extern struct kev_probe_block kev_probe_block;

int ktrace_probe_call(const struct proc *p, uint32_t op, uint32_t arg);    // KTRACE_PROBE
void ktrace_probe_started(void);    // KTRACE_START: a published capture runs
void ktrace_probe_gone(void);       // the ring is freed: nothing to read
void ktrace_probe_flush(void);      // closes the buffers holding events, serves the request

// The traced tick's test: a reader moved pb_flush_req on (written while the target was
// halted, hence the volatile loads). Two loads and a compare a tick, only while tracing.
static inline void ktrace_probe_tick(void)
{
    if (__builtin_expect(*(volatile uint32_t *)&kev_probe_block.pb_flush_req !=
                             *(volatile uint32_t *)&kev_probe_block.pb_flush_done, 0))
        ktrace_probe_flush();
}

#endif
