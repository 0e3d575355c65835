// SPDX-License-Identifier: MIT
// A capture around an attack: one buffer per CPU where there is room (4 on qemu-virt-a53;
// netduinoplus2 has room for 2). A CPU writes only its own buffer, and one with none loses
// its events (counted): a capture with fewer buffers than CPUs loses whatever runs on the
// others, so a check of "nothing lost" would depend on which CPU its thread ran.
#include "capture.h"

int capture_begin(int *started)
{
    int a = TraceEvent(KTRACE_ALLOCBUFFER, 4, 0, 0);
    if (a < 0)
        a = TraceEvent(KTRACE_ALLOCBUFFER, 2, 0, 0);
    TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0);
    TraceEvent(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    TraceEvent(KTRACE_ADDCLASS, KEV_C_SYSTEM, 0, 0);
    // Not the fbt provider's function entries and exits: with every fbt probe on (the suite
    // under D, test/qemu/test_fbt_all.sh) they would fill the buffers the checks count on.
    TraceEvent(KTRACE_DELEVENT, KEV_C_SYSTEM, KEV_SYS_FUNC_ENTER, 0);
    TraceEvent(KTRACE_DELEVENT, KEV_C_SYSTEM, KEV_SYS_FUNC_EXIT, 0);
    *started = TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    return a;
}

// Each event's first slot: a simple event, or a combine event's CB (its first two payload
// words); control events are not handed on.
void capture_end(struct ktrace_query *q, event_scan scan, void *ctx)
{
    struct ktrace_buffer b;
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)q, 0, 0);
    while (TraceEvent(KTRACE_TAKEBUFFER, (uint32_t)(uintptr_t)&b, 0, 0) == 0) {
        const struct kev_slot *sl = (const struct kev_slot *)(uintptr_t)b.addr;
        for (unsigned i = 0; i < b.nslots; i++) {
            unsigned cls = kev_hdr_class(sl[i].header), type = kev_hdr_type(sl[i].header);
            if (cls != KEV_C_CONTROL && type != KEV_TYPE_CC && type != KEV_TYPE_CE)
                scan(&sl[i], ctx);
        }
        TraceEvent(KTRACE_RELEASEBUFFER, b.index, 0, 0);
    }
    TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
}
