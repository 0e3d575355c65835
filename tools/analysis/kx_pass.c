// SPDX-License-Identifier: MIT
// One pass of a capture through the analysis model (kx_pass.h): the order of the steps (the
// converter before the model, the model, the converter after) kept in one place.
#include <kevhost/kx_pass.h>

int kx_pass_step(const struct kx_pass *p, const struct kev_reader *r, const struct kev_event *e)
{
    int stop = p->on_event ? p->on_event(p->user, r, e, p->m) : 0;
    if (p->feed)
        p->feed(p->model, e);
    else if (p->m)
        kx_model_update(p->m, e);
    if (p->after)
        p->after(p->user, r, e, p->m);
    return stop;
}

static int step(void *user, struct kev_reader *r, const struct kev_event *e)
{
    return kx_pass_step(user, r, e);
}

int kx_pass_run(const char *tool, struct kx_file *f, const struct kx_pass *p)
{
    struct kx_pass *q = (struct kx_pass *)p; // (kev_cb's user is not const; nothing writes it)
    return p->file_order ? kx_decode(tool, f, step, q) : kx_decode_sorted(tool, f, step, q);
}
