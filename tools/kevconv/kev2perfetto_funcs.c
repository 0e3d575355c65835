// SPDX-License-Identifier: MIT
// kev2perfetto's function calls (kev2perfetto.h): the calls fbt and pid recorded, paired by
// the analysis model (tools/analysis/kx_funcs.c), kept as they come and written at the end as
// slices in time order, nested as they ran: a kernel function's on a track per CPU, a
// program's on its thread's track; named from the ELF files found by build id.
#include <stdlib.h>

#include "kev2perfetto.h"
#include <kevhost/tool_syms.h>
#include <kevhost/tool_grow.h>

// A CPU's track of kernel function slices, described before its first slice.
static uint64_t cpu_track(struct conv *c, unsigned cpu)
{
    uint64_t uuid = 0x300000000ull + cpu;
    if (!c->cpu_described[cpu]) {
        c->cpu_described[cpu] = 1;
        struct pb d = { 0 };
        char name[40];
        snprintf(name, sizeof(name), "cpu %u kernel functions", cpu);
        pb_int(&d, 1, (int64_t)uuid);
        pb_str(&d, 2, name);
        pf_put_descriptor(c, &d);
    }
    return uuid;
}

// A function call (kx_funcs.c's row), kept: the slices (and the instants of calls whose
// return was not recorded) are written at the end in time order, so that a reader that sorts
// by time alone (a stable sort, as trace processor's) keeps them nested where times are equal
// (func_order).
void pf_func_keep(void *user, const struct kx_func_row *r)
{
    struct conv *c = user;
    if (r->t1)
        c->exit_paired = 1;
    if (tool_grow(&c->rows, &c->caprows, c->nrows + 1, sizeof(*c->rows), 1024)) {
        c->oom = 1;
        return;
    }
    c->rows[c->nrows++] = *r;
}

// A FUNC_ENTER or FUNC_EXIT to the model's pairing (its calls come to pf_func_keep), an IMAGE
// for the programs' addresses; a return whose entry was not recorded is an instant.
void pf_func_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e)
{
    int th = pf_current_of(c->m, e->cpu);
    if (!c->funcs && !(c->funcs = kx_funcs_new()))
        c->oom = 1;
    else if (e->ev == KEV_SYS_IMAGE)
        kx_funcs_image(c->funcs, r, e);
    else {
        uint64_t dropped = kx_funcs_dropped(c->funcs);
        c->exit_paired = 0;
        kx_funcs_event(c->funcs, e, th, th >= 0 ? c->m->th[th].pid : 0, &c->func_sink);
        if (e->ev == KEV_SYS_FUNC_EXIT && !c->exit_paired &&
            kx_funcs_dropped(c->funcs) == dropped)
            pf_table_instant(c, r, e, th); // a return whose entry was not recorded
    }
}

// A slice's begin or end: the row and which. At one time: ends of longer calls first (inner
// before outer), then begins (outer before inner), then the ends of calls that took no time
// (inner before outer), so every end closes the slice it belongs to.
struct func_point {
    uint64_t t;
    unsigned cls;   // 0 end, 1 begin, 2 end of a call of no time
    int depth;      // the order within the class (ends: deeper first)
    size_t row;
};

static int func_order(const void *a, const void *b)
{
    const struct func_point *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

void pf_func_slices(struct conv *c)
{
    struct func_point *p = malloc(2 * c->nrows * sizeof(*p) + 1);
    if (!p) {
        c->oom = c->nrows != 0;
        return;
    }
    for (size_t i = 0; i < c->nrows; i++) {
        const struct kx_func_row *r = &c->rows[i];
        int d = (int)r->depth;
        p[2 * i] = (struct func_point){ r->t0, 1, d, i };
        p[2 * i + 1] = (struct func_point){ r->t1, r->t1 == r->t0 ? 2u : 0u, -d, i };
    }
    qsort(p, 2 * c->nrows, sizeof(*p), func_order);
    for (size_t k = 0; k < 2 * c->nrows; k++) {
        const struct kx_func_row *r = &c->rows[p[k].row];
        int end = p[k].cls != 1;
        if (!r->t1 && end) // no return recorded: the call is its entry's instant alone
            continue;
        uint64_t uuid;
        if (r->user) {   // a program's function: on its thread's track
            pf_describe(c, r->th, 0);
            uuid = pf_track_uuid(c, r->th, 0);
        } else {
            uuid = cpu_track(c, r->cpu % KEV_MAX_CPUS);
        }
        size_t te_at = pf_te_begin(c, p[k].t);
        struct pb *te = &c->pkt;
        char fn[128];
        if (!end) {
            syms_function(r->fn, fn, sizeof(fn));
            if (r->t1) {
                pf_arg_uint(te, "call_site", r->call_site, 1);
            } else { // (the row keeps no call site for a call that did not return)
                pf_arg_uint(te, "this_fn", r->fn, 1);
                pf_arg_uint(te, "return_missing", 1, 0);
            }
        } else {
            pf_arg_uint(te, "return_value", r->value, 0);
            pf_arg_uint(te, "return_offset", r->ret_off, 0);
        }
        pf_te_end(c, te_at, uuid, end ? 2 : r->t1 ? 1 : 3, NULL, end ? NULL : fn);
    }
    free(p);
}
