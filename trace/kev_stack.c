// SPDX-License-Identifier: MIT
// The decoder of SYSTEM STACK and FAULT events (trace/kev_stack.h): the one reading of their
// layout for every host tool, each field where the event table's row puts it
// (trace/kev_events.c: the same rows the kernel's packing follows).
#include <trace/kev_decode.h>
#include <trace/kev_events.h>
#include <trace/kev_stack.h>
#include <stdio.h>

// Field name of e (a STACK or FAULT built over its words): 1 and *v, 0 when e lacks it.
static int field(const struct kev_event *e, const char *name, uint64_t *v)
{
    return kev_field_read(e, kev_field_desc_get(e->cls, e->ev, name), v);
}

int kev_stack_decode(const uint32_t *w, unsigned nw, struct kev_stack *s)
{
    struct kev_event e = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_STACK, .w = w, .nw = nw };
    uint64_t who, kind, depth, ended, at_max, pc64;
    if (!w || !field(&e, "who", &who) || !field(&e, "kind", &kind) || !field(&e, "depth", &depth) ||
        !field(&e, "ended", &ended) || !field(&e, "at_max", &at_max) || !field(&e, "pc64", &pc64))
        return -1;
    s->who = (uint32_t)who;
    s->pid = kev_who_pid(who);
    s->tid = kev_who_tid(who);
    s->kind = (unsigned)kind;
    s->depth = (unsigned)depth;
    s->ended = (unsigned)ended;
    s->at_max = at_max != 0;
    s->pc64 = pc64 != 0;
    if (s->kind < KEV_STACK_USER || s->kind > KEV_STACK_FAULT || s->depth > KEV_STACK_MAXDEPTH ||
        kev_field_array(&e, kev_field_desc_get(e.cls, e.ev, "pcs"), s->pcs,
                        KEV_STACK_MAXDEPTH) < s->depth)
        return -1;
    return 0;
}

int kev_fault_decode(const uint32_t *w, unsigned nw, struct kev_fault *f)
{
    struct kev_event e = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_FAULT, .w = w, .nw = nw };
    uint64_t who, sig, kind, addr_valid;
    if (!w || !field(&e, "who", &who) || !field(&e, "signal", &sig) || !field(&e, "kind", &kind) ||
        !field(&e, "addr_valid", &addr_valid) || !field(&e, "pc", &f->pc) ||
        !field(&e, "addr", &f->addr))
        return -1;
    f->who = (uint32_t)who;
    f->pid = kev_who_pid(who);
    f->tid = kev_who_tid(who);
    f->sig = (unsigned)sig;
    f->kind = (unsigned)kind;
    f->addr_valid = addr_valid != 0;
    return 0;
}

// The names of STACK and FAULT values (kev_stack_kind_name, ...) are the event table's
// (trace/kev_events.c).

int kev_stack_text(const struct kev_stack *s, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%u/%u %s depth %u", s->pid, s->tid, kev_stack_kind_name(s->kind),
                     s->depth);
    if (s->ended && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " (cut short: %s)",
                      kev_stack_ended_name(s->ended));
    else if (s->at_max && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " (depth bound)");
    for (unsigned i = 0; i < s->depth && n >= 0 && (size_t)n < size; i++)
        n += snprintf(buf + n, size - (size_t)n, " 0x%llx", (unsigned long long)s->pcs[i]);
    return n;
}

int kev_fault_text(const struct kev_fault *f, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%u/%u %s %s pc 0x%llx", f->pid, f->tid, kev_signal_name(f->sig),
                     kev_fault_kind_name(f->kind), (unsigned long long)f->pc);
    if (f->addr_valid && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " addr 0x%llx", (unsigned long long)f->addr);
    return n;
}
