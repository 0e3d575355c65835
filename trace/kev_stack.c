// SPDX-License-Identifier: MIT
// The decoder of SYSTEM STACK and FAULT events (trace/kev_stack.h): the one reading of their
// layout (trace/kev.h, docs/trace-events.md) for every host tool.
#include <trace/kev_events.h>
#include <trace/kev_stack.h>
#include <stdio.h>

static inline uint64_t word_pair(const uint32_t *w)
{
    return (uint64_t)w[0] << 32 | w[1];   // high word first, as CONTROL TIME
}

int kev_stack_decode(const uint32_t *w, unsigned nw, struct kev_stack *s)
{
    if (!w || nw < 2)
        return -1;
    uint32_t info = w[1];
    s->who = w[0];
    s->pid = kev_who_pid(w[0]);
    s->tid = kev_who_tid(w[0]);
    s->kind = KEV_STACK_KIND(info);
    s->depth = KEV_STACK_DEPTH(info);
    s->ended = KEV_STACK_ENDED(info);
    s->at_max = (info & KEV_STACK_AT_MAX) != 0;
    s->pc64 = (info & KEV_STACK_PC64) != 0;
    unsigned per = s->pc64 ? 2u : 1u;
    if (s->kind < KEV_STACK_USER || s->kind > KEV_STACK_FAULT || s->depth > KEV_STACK_MAXDEPTH ||
        nw < 2u + per * s->depth)
        return -1;
    for (unsigned i = 0; i < s->depth; i++)
        s->pcs[i] = s->pc64 ? word_pair(&w[2 + 2 * i]) : w[2 + i];
    return 0;
}

int kev_fault_decode(const uint32_t *w, unsigned nw, struct kev_fault *f)
{
    if (!w || nw < 6)
        return -1;
    f->who = w[0];
    f->pid = kev_who_pid(w[0]);
    f->tid = kev_who_tid(w[0]);
    f->sig = KEV_FAULT_SIGNAL(w[1]);
    f->kind = KEV_FAULT_KIND(w[1]);
    f->addr_valid = (w[1] & KEV_FAULT_ADDR_VALID) != 0;
    f->pc = word_pair(&w[2]);
    f->addr = word_pair(&w[4]);
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
