// SPDX-License-Identifier: MIT
// Decoding of the SYSTEM KPANIC event (trace/kev_panic.h): its fields where the event table's
// row puts them and its message, and the one line traceprinter, kevstat and kevdump print for
// it. A kernel fault's kind is FAULT's (KEV_FAULT_*, named by kev_stack.c). A capture written
// before that layout (its first word a cause 0-5, pc and address low word first), which no row
// describes, is read too, each old cause as the kind it meant.
#include <stdio.h>
#include <trace/kev.h>
#include <trace/kev_events.h>
#include <trace/kev_panic.h>
#include <trace/kev_stack.h>

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

// Field name of e (a KPANIC): 1 and *v, 0 when e lacks it.
static int field(const struct kev_event *e, const char *name, uint64_t *v)
{
    return kev_field_read(e, kev_field_desc_get(e->cls, e->ev, name), v);
}

int kev_panic_decode(const struct kev_reader *r, const struct kev_event *e, struct kev_panic *p)
{
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_KPANIC)
        return 0;
    const struct kev_field_desc *msg = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_KPANIC, "message");
    uint64_t origin, kind, addr_valid, who;
    if (!msg || e->nw < msg->word || !field(e, "origin", &origin) || !field(e, "who", &who))
        return 0;
    if (origin <= KEV_PANIC_OTHER) {
        decode_old(e->w, p);
    } else {
        if (!field(e, "kind", &kind) || !field(e, "addr_valid", &addr_valid) ||
            !field(e, "pc", &p->pc) || !field(e, "addr", &p->addr))
            return 0;
        p->old_layout = 0;
        p->origin = (unsigned)origin;
        p->kind = (unsigned)kind;
        p->addr_valid = addr_valid != 0;
    }
    p->pid = kev_who_pid(who);
    p->tid = kev_who_tid(who);
    p->msg[0] = 0;
    if (e->nw > msg->word)
        kev_event_string(r, e, msg->word, p->msg, sizeof(p->msg));
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
