// SPDX-License-Identifier: MIT
// Decoding of the SYSTEM KPANIC event (trace/kev_panic.h): its words and its message, and the
// one line traceprinter, kevstat and kevdump print for it. A kernel fault's kind is FAULT's
// (KEV_FAULT_*, named by kev_stack.c), its 64-bit words high first, as every event's. A
// capture written before that (its first word a cause 0-5, pc and address low word first) is
// read too, each old cause as the kind it meant.
#include <stdio.h>
#include <trace/kev.h>
#include <trace/kev_events.h>
#include <trace/kev_panic.h>
#include <trace/kev_stack.h>

static uint64_t high_first(const uint32_t *w)
{
    return (uint64_t)w[0] << 32 | w[1];
}

// The layout before KEV_PANIC_CALL / KEV_PANIC_EXCEPTION: a cause alone, low words first.
static void decode_old(const uint32_t *w, struct kev_panic *p)
{
    static const unsigned kind_of[] = { 0, KEV_FAULT_ACCESS, KEV_FAULT_EXEC, KEV_FAULT_UNDEF,
                                        KEV_FAULT_ALIGN, KEV_FAULT_OTHER };
    p->old_layout = 1;
    p->origin = w[0] == KEV_PANIC_SOFTWARE ? KEV_PANIC_CALL : KEV_PANIC_EXCEPTION;
    p->kind = kind_of[w[0]];
    p->pc = (uint64_t)w[2] << 32 | w[1];
    p->addr = (uint64_t)w[4] << 32 | w[3];
    p->addr_valid = p->addr != 0;   // the old layout wrote 0 when the CPU gave none
}

int kev_panic_decode(const struct kev_reader *r, const struct kev_event *e, struct kev_panic *p)
{
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_KPANIC || e->nw < KEV_KPANIC_WORDS)
        return 0;
    const uint32_t *w = e->w;
    if (w[0] <= KEV_PANIC_OTHER) {
        decode_old(w, p);
    } else {
        p->old_layout = 0;
        p->origin = KEV_PANIC_ORIGIN(w[0]);
        p->kind = KEV_FAULT_KIND(w[0]);
        p->addr_valid = (w[0] & KEV_FAULT_ADDR_VALID) != 0;
        p->pc = high_first(&w[1]);
        p->addr = high_first(&w[3]);
    }
    p->pid = kev_who_pid(w[5]);
    p->tid = kev_who_tid(w[5]);
    p->msg[0] = 0;
    if (e->nw > KEV_KPANIC_WORDS)
        kev_event_string(r, e, KEV_KPANIC_WORDS, p->msg, sizeof(p->msg));
    return 1;
}

void kev_panic_format(const struct kev_panic *p, char *buf, size_t n)
{
    const char *cause = p->origin == KEV_PANIC_CALL ? "software"
                      : p->origin == KEV_PANIC_EXCEPTION ? kev_fault_kind_name(p->kind) : "?";
    snprintf(buf, n, "cause:%s pc:0x%08llx addr:0x%08llx pid:%u tid:%u msg:\"%s\"", cause,
             (unsigned long long)p->pc, (unsigned long long)p->addr, (unsigned)p->pid,
             (unsigned)p->tid, p->msg);
}
