// SPDX-License-Identifier: MIT
// Decoding of the SYSTEM KPANIC event (trace/kev_panic.h): its words and its message, and the
// one line traceprinter, kevstat and kevdump print for it.
#include <stdio.h>
#include <trace/kev.h>
#include <trace/kev_panic.h>

int kev_panic_decode(const struct kev_reader *r, const struct kev_event *e, struct kev_panic *p)
{
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_KPANIC || e->nw < KEV_KPANIC_WORDS)
        return 0;
    p->cause = e->w[0];
    p->pc = (uint64_t)e->w[2] << 32 | e->w[1];
    p->addr = (uint64_t)e->w[4] << 32 | e->w[3];
    p->pid = e->w[5] >> 16;
    p->tid = e->w[5] & 0xffffu;
    p->msg[0] = 0;
    if (e->nw > KEV_KPANIC_WORDS)
        kev_event_string(r, e, KEV_KPANIC_WORDS, p->msg, sizeof(p->msg));
    return 1;
}

void kev_panic_format(const struct kev_panic *p, char *buf, size_t n)
{
    const char *cause = kev_panic_cause_name(p->cause);
    char unknown[16];
    if (!cause) {
        snprintf(unknown, sizeof(unknown), "%u", p->cause);
        cause = unknown;
    }
    snprintf(buf, n, "cause:%s pc:0x%08llx addr:0x%08llx pid:%u tid:%u msg:\"%s\"", cause,
             (unsigned long long)p->pc, (unsigned long long)p->addr, (unsigned)p->pid,
             (unsigned)p->tid, p->msg);
}
