// SPDX-License-Identifier: MIT
// kevstat's faults section (kx_faults.h). Keeps the first KX_MAX_FAULTS faults (a capture
// holds few: each kills its process) and counts the rest; a FAULT's stack is the STACK of
// kind FAULT of the same thread that the kernel writes right after it on the same CPU.
#include "kx_faults.h"
#include <stdio.h>
#include <trace/kev_stack.h>

#define KX_MAX_FAULTS 64u

static struct {
    struct kev_fault f;
    struct kev_stack s;
    int have_stack;
    unsigned cpu;
    uint64_t t;
} faults[KX_MAX_FAULTS];
static unsigned nfaults;
static uint64_t more;

void kx_faults_event(const struct kev_event *e)
{
    if (e->cls != KEV_C_SYSTEM || (e->ev != KEV_SYS_FAULT && e->ev != KEV_SYS_STACK))
        return;
    struct kev_stack s;
    if (e->ev == KEV_SYS_STACK) {   // the last fault's, when it is that thread's on that CPU
        if (nfaults && kev_stack_decode(e->w, e->nw, &s) == 0 && s.kind == KEV_STACK_FAULT &&
            !faults[nfaults - 1].have_stack && faults[nfaults - 1].f.who == s.who &&
            faults[nfaults - 1].cpu == e->cpu) {
            faults[nfaults - 1].s = s;
            faults[nfaults - 1].have_stack = 1;
        }
        return;
    }
    struct kev_fault f;
    if (kev_fault_decode(e->w, e->nw, &f) != 0)
        return;
    if (nfaults == KX_MAX_FAULTS) {
        more++;
        return;
    }
    faults[nfaults].f = f;
    faults[nfaults].have_stack = 0;
    faults[nfaults].cpu = e->cpu;
    faults[nfaults].t = e->t64;
    nfaults++;
}

void kx_faults_print(const struct kx_stats *st)
{
    printf("== Faults ==\n");
    if (!nfaults)
        printf("  (no SYSTEM FAULT events: no process faulted while the capture ran)\n");
    for (unsigned i = 0; i < nfaults; i++) {
        const struct kev_fault *f = &faults[i].f;
        const char *name = kev_proc_name(st->r, f->pid);
        char text[200];
        kev_fault_text(f, text, sizeof(text));
        printf("  %.3f us CPU %u %s %s\n",
               kx_seconds(st->r, faults[i].t - st->t_first) * 1e6, faults[i].cpu,
               name ? name : "?", text);
        if (!faults[i].have_stack) {
            printf("    (no stack recorded)\n");
            continue;
        }
        const struct kev_stack *s = &faults[i].s;
        printf("    stack, %u frames%s%s:\n", s->depth, s->ended ? ", cut short: " : "",
               s->ended ? kev_stack_ended_name(s->ended) : "");
        for (unsigned k = 0; k < s->depth; k++)     // as dtrace prints a stack: stacksym reads it
            printf("              0x%llx\n", (unsigned long long)s->pcs[k]);
    }
    if (more)
        printf("  (%llu more faults not listed)\n", (unsigned long long)more);
}
