// SPDX-License-Identifier: MIT
// dtrace -i's stacks (kevreplay_stacks.h): a firing at a capture's STACK sample or FAULT sees
// the recorded pcs as stack( ) (kind KERNEL) or ustack( ) (kinds USER, FAULT); any other
// firing sees empty stacks, as the capture holds none for it. The events are decoded by the
// shared trace/kev_stack.c.
#include "kevreplay_stacks.h"
#include <d/dstacks.h>
#include <d/dvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kevhost/kx_fields.h>
#include <trace/kev_decode.h>
#include <trace/period_due.h>

static struct {
    int have;
    unsigned kind;              /* DVM_STACK_KERNEL or DVM_STACK_USER */
    unsigned n;
    uint64_t pcs[KEV_STACK_MAXDEPTH];
} cur;

/* timer probe k's next time on a CPU (k: its place among the program's timer probes, in
 * their order in the object); 0: not yet */
static uint64_t (*due)[DVM_MAXCPU];
static unsigned ndue;

static struct {
    int have;
    uint32_t at;
    struct kev_stack s;
} kept[DVM_MAXCPU];     /* each CPU's last sample, for its interrupt's DTIMER */

void rstacks_keep(unsigned cpu, const struct kev_stack *s, uint32_t at)
{
    if (cpu >= DVM_MAXCPU)
        return;
    kept[cpu].have = 1;
    kept[cpu].at = at;
    kept[cpu].s = *s;
}

const struct kev_stack *rstacks_kept(unsigned cpu, uint32_t at)
{
    return cpu < DVM_MAXCPU && kept[cpu].have && kept[cpu].at == at ? &kept[cpu].s : NULL;
}

static unsigned replay_stack(unsigned kind, uint64_t *pcs, unsigned max)
{
    if (!cur.have || kind != cur.kind)
        return 0;
    unsigned n = cur.n < max ? cur.n : max;
    memcpy(pcs, cur.pcs, n * sizeof(pcs[0]));
    return n;
}

void rstacks_set(const struct kev_stack *s)
{
    cur.have = 1;
    cur.kind = s->kind == KEV_STACK_KERNEL ? DVM_STACK_KERNEL : DVM_STACK_USER;
    cur.n = s->depth;
    memcpy(cur.pcs, s->pcs, s->depth * sizeof(s->pcs[0]));
}

void rstacks_clear(void)
{
    cur.have = 0;
}

void rstacks_count(struct rstack_census *c, const struct kev_event *e)
{
    struct kev_stack s;
    struct kev_fault f;
    if (e->ev == KEV_SYS_ONCPU) {
        c->oncpu++;
    } else if (e->ev == KEV_SYS_FUNC_ENTER || e->ev == KEV_SYS_FUNC_EXIT) {
        c->func++;
    } else if (e->ev == KEV_SYS_USDT) {
        c->usdt++;
    } else if (e->ev == KEV_SYS_DPROG) {
        uint32_t what = kev_field(e, kx_fields()->dprog_what); /* a span's go or stop */
        if ((what == KEV_DPROG_GO || what == KEV_DPROG_STOP) && !c->dprog++)
            c->dprog_timers = kev_field(e, kx_fields()->dprog_timers);
        c->dprog_go += what == KEV_DPROG_GO;
    } else if (e->ev == KEV_SYS_DTIMER) {
        c->dtimer++;
    } else if (e->ev == KEV_SYS_REMAIN_CPU) {
        c->remain++;
    } else if (e->ev == KEV_SYS_SURRENDER) {
        c->surrender++;
    } else if (e->ev == KEV_SYS_SIGNAL_SEND) {
        c->sigsend++;
    } else if (e->ev == KEV_SYS_STEAL) {
        c->steal++;
    } else if (e->ev == KEV_SYS_STACK) {
        if (kev_stack_decode(e->w, e->nw, &s) != 0)
            c->bad++;
        else if (s.kind != KEV_STACK_FAULT)
            c->samples++;
    } else if (e->ev == KEV_SYS_FAULT) {
        if (kev_fault_decode(e->w, e->nw, &f) != 0)
            c->bad++;
        else
            c->faults++;
    }
}

static int count(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    rstacks_count(user, e);
    return 0;
}

int rstacks_census(const uint8_t *data, size_t len, struct rstack_census *c)
{
    static struct kev_reader r;
    memset(c, 0, sizeof(*c));
    if (kev_open(&r, data, len) != 0)
        return -1;
    kev_set_user(&r, c);
    kev_on_class(&r, KEV_C_SYSTEM, count);  /* rstacks_count picks its events, as live */
    kev_decode(&r);     /* a damaged file: what came before the damage (kev_replay says why) */
    return 0;
}

void rstacks_begin(const struct dvm_state *st, const struct rstack_census *c)
{
    memset(&cur, 0, sizeof(cur));
    memset(kept, 0, sizeof(kept));
    dvm_stack = replay_stack;
    int profile = 0;
    ndue = 0;
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++) {
        profile |= (st->obj.probes[k].dp_flags & DIF_PRF_PROFILE) != 0;
        ndue += st->obj.probes[k].dp_flags != 0;
    }
    free(due);
    due = calloc(ndue + 1u, sizeof(*due));
    if (!due) {
        fprintf(stderr, "dtrace: out of memory\n");
        exit(1);
    }
    if (!c->samples && profile)
        fprintf(stderr, "dtrace: the capture has no stack samples (record them with "
                "tracelogger -p HZ): profile-N fires by capture time, on each CPU in the "
                "thread the capture says ran there, with arg0 and arg1 0 (the capture holds no "
                "pc for those moments)%s\n",
                st->stacks.mem ? ", and its stacks are empty" : "");
    else if (!c->samples && !c->faults && st->stacks.mem)
        fprintf(stderr, "dtrace: the capture has no stack samples nor faults (tracelogger -p "
                "HZ records samples): stack( ) and ustack( ) are empty\n");
    if (c->bad)
        fprintf(stderr, "dtrace: %u STACK/FAULT events of the capture are malformed: skipped\n",
                c->bad);
}

unsigned rstacks_profile_due(unsigned k, unsigned cpu, uint64_t period, uint64_t start,
                             uint64_t t)
{
    if (k >= ndue || cpu >= DVM_MAXCPU || !period)
        return 0;
    uint64_t *next = &due[k][cpu];
    if (!*next)
        *next = period_first_due(period, start);    /* the board's grid, not the capture's */
    /* the board's rule (kernel/kdt_fire.c kdt_timers_run): a late sample also fires the periods
     * it passed over, which the board sampled in as many STACK events of the same moment (the
     * later ones then find nothing due) */
    return period_fires_catch_up(next, period, t, PERIOD_CATCH_UP_MAX);
}
