// SPDX-License-Identifier: MIT
// Faults with their stacks, for the converters (conv_fault.h).
#include <kevhost/conv_fault.h>
#include <string.h>

int cf_event(struct cf_faults *p, const struct kev_event *e, struct cf_fault *done)
{
    if (e->cpu >= KEV_MAX_CPUS)
        return 0;
    unsigned cpu = e->cpu;
    int out = 0;
    struct kev_stack s;
    struct kev_fault f;
    if (p->holding[cpu]) {
        struct cf_fault *h = &p->held[cpu];
        if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_STACK &&
            kev_stack_decode(e->w, e->nw, &s) == 0 && s.kind == KEV_STACK_FAULT &&
            s.who == h->f.who) {
            h->s = s;
            h->have_stack = 1;
        }
        *done = *h;
        p->holding[cpu] = 0;
        out = 1;
    }
    if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_FAULT && kev_fault_decode(e->w, e->nw, &f) == 0) {
        struct cf_fault *h = &p->held[cpu];
        memset(h, 0, sizeof(*h));
        memcpy(h->w, e->w, sizeof(h->w));
        h->f = f;
        h->t = e->t64;
        h->cpu = cpu;
        p->holding[cpu] = 1;
    }
    return out;
}

int cf_flush(struct cf_faults *p, struct cf_fault *done)
{
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        if (p->holding[cpu]) {
            *done = p->held[cpu];
            p->holding[cpu] = 0;
            return 1;
        }
    return 0;
}
