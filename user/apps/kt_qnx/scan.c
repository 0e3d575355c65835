// SPDX-License-Identifier: MIT
// kt_qnx's view of the ring through this kernel's own calls (uapi/ktrace.h): what the full
// buffers hold, for main.c, which sees only QNX's names.
#include <kern.h>
#include <errno.h>
#include <string.h>
#include <trace/kev.h>
#include <uapi/ktrace.h>
#include "kt_qnx.h"

void scan_qnx_events(uint32_t code, uint32_t d0, uint32_t d1, struct qnx_seen *s)
{
    struct ktrace_buffer b;
    memset(s, 0, sizeof(*s));
    while (TraceEvent(KTRACE_TAKEBUFFER, (uint32_t)(uintptr_t)&b, 0, 0) == 0) {
        const struct kev_slot *sl = (const struct kev_slot *)(uintptr_t)b.addr;
        for (unsigned i = 0; i < b.nslots; i++) {
            uint32_t h = sl[i].header;
            unsigned cls = kev_hdr_class(h), ev = kev_hdr_event(h), type = kev_hdr_type(h);
            if (type == KEV_TYPE_CC || type == KEV_TYPE_CE)
                continue;
            if (cls == KEV_C_USER && ev == code) {
                if (type == KEV_TYPE_S && sl[i].data[1] == d0 && sl[i].data[2] == d1)
                    s->user2++;
                else if (type == KEV_TYPE_CB && sl[i].data[1] == 0x11)
                    s->user_buf++;
                else if (type == KEV_TYPE_CB)
                    s->user_str++;
            } else if (cls == KEV_C_PR_TH) {
                s->prth += ev == KEV_TH_RUNNING || ev == KEV_TH_READY;
            } else if (cls == KEV_C_KER_CALL) {
                if (ev < KEV_KC_MAX)
                    s->kercall_entry++;
                else
                    s->kercall_exit++;
            }
        }
        TraceEvent(KTRACE_RELEASEBUFFER, b.index, 0, 0);
    }
}

// ProcArg() 1: another process's capture, not shared: every control command but the query is
// EPERM. 2: the owner shared it: STOP and START work. Returns the failures.
int intrude(int shared)
{
    struct ktrace_query q;
    int bad = TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0) != 0;
    if (shared)
        return bad + (TraceEvent(KTRACE_STOP, 0, 0, 0) != 0) +
               (TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0) != 0);
    static const uint32_t cmds[] = { KTRACE_STOP, KTRACE_START, KTRACE_DELALLCLASSES,
                                     KTRACE_FLUSHBUFFER, KTRACE_SETRINGMODE, KTRACE_DEALLOCBUFFER,
                                     KTRACE_SHARECONTROL };
    for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        errno = 0;
        bad += !(TraceEvent(cmds[i], 1, 0, 0) == -1 && errno == EPERM);
    }
    errno = 0;
    bad += !(TraceEvent(KTRACE_ADDCLASS, KEV_C_USER, 0, 0) == -1 && errno == EPERM);
    return bad;
}
