// SPDX-License-Identifier: MIT
// kev2perfetto's counters (kev2perfetto.h): counter tracks (TrackDescriptor.counter,
// TYPE_COUNTER events with counter_value) carry what the analysis model knows after each
// event: a thread's priority and the number of ready threads. A value is written only when it
// differs from the track's last, so a track holds one value per change.
#include "kev2perfetto.h"

// A counter track's descriptor: named name, a child of parent (0: none), values in unit
// (CounterDescriptor.unit: 2 UNIT_COUNT; 0 none).
static void describe_counter(struct conv *c, uint64_t uuid, uint64_t parent, const char *name,
                             unsigned unit)
{
    struct pb d = { 0 };
    pb_int(&d, 1, (int64_t)uuid);
    pb_str(&d, 2, name);
    if (parent)
        pb_int(&d, 5, (int64_t)parent);
    c->sub.len = 0;
    if (unit)
        pb_int(&c->sub, 3, unit);
    pb_bytes(&d, 8, c->sub.p, c->sub.len);
    pf_put_descriptor(c, &d);
}

static void counter_value(struct conv *c, uint64_t uuid, uint64_t t, int64_t v)
{
    size_t at = pf_te_begin(c, t);
    pb_int(&c->pkt, 30, v);
    pf_te_end(c, at, uuid, 4, NULL, NULL);
}

// Thread th's priority as the model has it after the event at t (PRIO_CHANGE's new priority, a
// wide state event's), QNX's number, on the "priority" counter under its thread track.
void pf_prio_note(struct conv *c, int th, uint64_t t)
{
    int p = th >= 0 ? c->m->th[th].prio : -1;
    if (p < 0 || c->prio_out[th] == p + 1 || kx_is_idle(c->m, th)) // (most: no change)
        return;
    if (!c->prio_out[th]) {
        pf_describe(c, th, 0);
        describe_counter(c, PRIO_TRACK(c, th), pf_track_uuid(c, th, 0), "priority", 0);
    }
    c->prio_out[th] = (int16_t)(p + 1);
    counter_value(c, PRIO_TRACK(c, th), t, p);
}

// The "ready threads" counter's value as of ready_t, if it changed since last written.
void pf_ready_flush(struct conv *c)
{
    if (c->ready_n == c->ready_out)
        return;
    if (c->ready_out < 0)
        describe_counter(c, READY_TRACK, 0, "ready threads", 2);
    c->ready_out = c->ready_n;
    counter_value(c, READY_TRACK, c->ready_t, c->ready_n);
}

// Thread th counted among the ready threads (idle aside) while the model's state for it is
// READY, after the event at t. Changes at one time are written as one value: a preemption's
// READY and the next thread's RUNNING leave the count as it was. (The trace does not say
// which CPU's queue a READY thread waits on - another CPU may pull it - so the count is the
// system's, not a CPU's.)
void pf_ready_note(struct conv *c, int th, uint64_t t)
{
    if (th < 0)
        return;
    uint8_t r = c->m->th[th].state == KEV_TH_READY && !kx_is_idle(c->m, th);
    if (r == c->ready[th])
        return;
    if (t != c->ready_t) {
        if (c->ready_out >= 0 || c->ready_n) // (the first value written is not a 0)
            pf_ready_flush(c);
        c->ready_t = t;
    }
    c->ready[th] = r;
    c->ready_n += r ? 1 : -1;
}
