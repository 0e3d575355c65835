// SPDX-License-Identifier: MIT
// kev2perfetto's slices on a thread's child tracks (kev2perfetto.h): its kernel calls, entry to
// exit, on "kernel calls" (a call whose exit is missing ends at the thread's next call, its
// death or the trace's end), and its states other than running and ready, from the state's
// event to the thread's next, on "state"; each with the event's fields as args.
#include <string.h>

#include "kev2perfetto.h"

#include <trace/kev_kercall.h>

// The kernel-call track of thread th: a child of its thread track, described once.
static uint64_t kcall_track(struct conv *c, int th)
{
    uint64_t uuid = 0x400000000ull + (uint32_t)kx_ltid(c->m, th);
    pf_describe_child(c, th, uuid, "kernel calls",
                      &c->kc_described[th >= 0 ? (unsigned)th : KX_MAX_THREADS]);
    return uuid;
}

// Close th's open kernel-call slice at t (its exit is missing).
void pf_kcall_close(struct conv *c, int th, uint64_t t)
{
    unsigned slot = th >= 0 ? (unsigned)th : KX_MAX_THREADS;
    if (!c->kc_open[slot])
        return;
    uint64_t uuid = kcall_track(c, th);
    size_t at = pf_te_begin(c, t);
    pf_arg_uint(&c->pkt, "exit_missing", 1, 0);
    pf_te_end(c, at, uuid, 2, NULL, NULL);
    c->kc_open[slot] = 0;
}

// A kernel call's entry begins a slice named for the call, its exit ends it (an exit without
// its entry is an instant); the fields of each are the slice's args.
void pf_kcall_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e)
{
    int th = pf_current_of(c->m, e->cpu);
    enum kev_kcall_part part = kev_kcall_part(e);
    if (c->m->in_snapshot || part == KEV_KCALL_NONE)
        return;
    unsigned slot = th >= 0 ? (unsigned)th : KX_MAX_THREADS, call = kev_kcall_no(e);
    char nb[48];
    const char *name = part == KEV_KCALL_ENTRY ? kev_kcall_api_name(call, e->w, e->nw) : NULL;
    if (!name) // (as the API names it: an entry's arguments may, CondBroadcast)
        name = kev_kcall_name(call);
    if (!name)
        name = kev_event_title(e->cls, e->ev, nb, sizeof(nb));
    uint64_t uuid = kcall_track(c, th);
    static struct kev_fields fs;
    kev_fields_decode(r, e, &fs);
    int ends = part != KEV_KCALL_ENTRY && c->kc_open[slot] == call + 1; // the open slice's exit
    if (!ends) // (an entry, or an exit of another call: the open slice's exit is missing)
        pf_kcall_close(c, th, e->t64);
    size_t at = pf_te_begin(c, e->t64);
    pf_table_args(&fs, &c->pkt);
    if (part == KEV_KCALL_INTR) // QNX's interrupted call ends it as its exit does
        pf_arg_uint(&c->pkt, "interrupted", 1, 0);
    if (part == KEV_KCALL_ENTRY) {
        pf_te_end(c, at, uuid, 1, "kcall", name);
        c->kc_open[slot] = (uint16_t)(call + 1);
    } else if (ends) {
        pf_te_end(c, at, uuid, 2, NULL, NULL);
        c->kc_open[slot] = 0;
    } else {
        char label[64];
        snprintf(label, sizeof(label), "%s exit", name);
        pf_te_end(c, at, uuid, 3, "kcall", label);
    }
}

// Thread th's "state" track, a child of its thread track, described once.
static uint64_t state_track(struct conv *c, int th)
{
    uint64_t uuid = STATE_TRACK(c, th);
    pf_describe_child(c, th, uuid, "state", &c->state_described[th]);
    return uuid;
}

void pf_state_close(struct conv *c, int th, uint64_t t, int why)
{
    if (th < 0 || !c->state_open[th])
        return;
    uint64_t uuid = state_track(c, th);
    size_t at = pf_te_begin(c, t);
    if (why != STATE_NEXT)
        pf_arg_uint(&c->pkt, why == STATE_TRACE_ENDED ? "trace_ended" : "events_lost", 1, 0);
    pf_te_end(c, at, uuid, 2, NULL, NULL);
    c->state_open[th] = 0;
}

// A thread state event: the thread's state slice ends, and a state other than running or ready
// (those are the scheduling events') begins one, from this event to the thread's next state
// event (or a loss of events, which may have held it): "blocked: REPLY" (the event table's name without its TH), "stopped", "dead", with
// the event's fields as args. Perfetto's own thread states come from sched_switch's Linux
// letters only (S, D, ...), which cannot say what a QNX thread waits for.
void pf_state_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                    int th)
{
    if (th < 0 || kx_is_idle(c->m, th))
        return;
    pf_state_close(c, th, e->t64, STATE_NEXT);
    if (e->ev == KEV_TH_RUNNING || e->ev == KEV_TH_READY || e->ev == KEV_TH_CREATE ||
        e->ev == KEV_TH_DESTROY)
        return;
    static struct kev_fields fs;
    kev_fields_decode(r, e, &fs);
    char name[48];
    const char *st = strncmp(fs.name, "TH", 2) ? fs.name : fs.name + 2;
    if (e->ev == KEV_TH_DEAD)
        snprintf(name, sizeof(name), "dead");
    else if (e->ev == KEV_TH_STOPPED)
        snprintf(name, sizeof(name), "stopped");
    else
        snprintf(name, sizeof(name), "blocked: %s", st);
    uint64_t uuid = state_track(c, th);
    size_t at = pf_te_begin(c, e->t64);
    pf_table_args(&fs, &c->pkt);
    pf_te_end(c, at, uuid, 1, "thread_state", name);
    c->state_open[th] = 1;
}
