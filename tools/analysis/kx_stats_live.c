// SPDX-License-Identifier: MIT
// The analysis model read while the trace still arrives (kevtop, kx_stats.h): the model's
// figures at a moment between two events, for a view that shows them interval by interval.
// Nothing here computes a figure of its own: each answer is the model's sum so far, with the
// part of an interval still open up to the moment asked. A view that runs for hours drops what
// the model keeps only for its end-of-trace listings (kx_stats_forget).
#include <kevhost/kx_stats.h>

uint64_t kx_stats_th_time(const struct kx_stats *s, int idx, unsigned st, uint64_t t)
{
    if (idx < 0 || (unsigned)idx >= s->m.nth || st >= KEV_TH_NSTATES)
        return 0;
    const struct kx_th_stats *ts = &s->th[idx];
    uint64_t sum = ts->state_t[st];
    if (ts->state == st && t > ts->since) // set_state will add this when it ends
        sum += t - ts->since;
    return sum;
}

void kx_stats_forget(struct kx_stats *s)
{
    if (s->tasks)
        kx_tasks_forget(s->tasks);
    if (s->kw)
        kw_forget_done(s->kw);
}
