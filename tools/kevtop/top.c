// SPDX-License-Identifier: MIT
// kevtop's intervals (top.h). The analysis pass (kx_pass.h, as every reader takes it) feeds the
// model every event in time order (the live reader's order); before an event at or past the
// current frame's end (the pass's step before the model), the frame is closed at its end:
// every event before that moment has been given and none after, which is when the model's
// running sums may be read (kx_stats_th_time). The frame's interrupts are the entries in it
// (a rate per second of trace time: an interrupt's record completes only once its thread has
// handled it, which may be frames later). Records (a thread's kernel calls, messages,
// interrupts handled, waits) are counted in the frame in which the model completes them. A heartbeat (the live
// reader's time callback) closes the frames it passes; the segment's end closes the last one at
// the last event, after kx_stats_finish, so that the frames add up to the model's totals.
// But for one thing: a heartbeat past the last event closes frames counting the thread that ran
// there as running to their ends (the board said nothing happened meanwhile), and if the
// segment then ends, kx_stats_finish ends that run at the last event, before them. The model's
// total is then below what the frames counted: the last frame gives the thread no CPU time
// (never a negative one), and the frames exceed the model's total by the heartbeat's tail.
// The first frame is at most FIRST_S of trace time (a run shorter than -d is seen while it
// runs); the others are -d long from its end.
// Losses: the board's LOSS frames are counted as they come; the trailer's count of events lost
// after the last buffer holds the same events again, and is counted less them, per CPU.
#include "top.h"

#include <kevhost/kx_pass.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_S 0.5

struct top {
    void (*frame)(void *user, const struct top_frame *f);
    int (*halt)(void *user);
    void *user;
    double span_s;
    uint64_t span;              // cycles
    uint64_t first;             // the first frame's, cycles (at most span)
    struct kx_stats *s;
    struct kx_pass pass;        // how an event reaches s: the frames closed before it
    unsigned seg;
    int started;
    uint64_t t0, next;          // the open frame's start and end
    uint64_t events0;           // the model's event count at its start
    unsigned gaps0;             // the model's loss windows at its start
    uint64_t prev[KX_MAX_THREADS]; // CPU time at the open frame's start
    uint64_t prev_exec[KX_MAX_THREADS]; // ... and its executed share
    uint64_t kcalls[KX_MAX_THREADS], msgs[KX_MAX_THREADS], ints[KX_MAX_THREADS];
    uint64_t wait[KX_MAX_THREADS];
    uint64_t ints_all;          // interrupts that entered in the open frame
    int wait_th, wait_owner, wait_obj;
    uint64_t wait_t;
    // losses the board reported (LOSS frames) in the open frame, and in all
    uint64_t board_lost, board_total;
    struct ks_reader reader;    // the last READER frame (reader_said: one came)
    int reader_said;
    uint64_t board_cpu[KEV_MAX_CPUS]; // ... per CPU, not yet found in the trailer's count
    char board_why[160];
    uint64_t lost_total;        // every loss so far (the model's windows and the board's)
    const struct kev_live_counts *counts;
    struct top_row rows[KX_MAX_THREADS];
    uint8_t end_state[KX_MAX_THREADS]; // the states at the last event (the last frame's)
    int ended;
};

// ---- the model's records ------------------------------------------------------------------------

static int th_ok(int th)
{
    return th >= 0 && (unsigned)th < KX_MAX_THREADS;
}

static void on_kcall(void *user, const struct kx_kcall_row *r)
{
    struct top *t = user;
    if (th_ok(r->th) && r->exited)
        t->kcalls[r->th]++;
}

static void on_irq(void *user, const struct kx_irq_row *r)
{
    struct top *t = user;
    if (th_ok(r->th))
        t->ints[r->th]++;
}

static void on_msg(void *user, const struct kx_msg *g)
{
    struct top *t = user;
    if (th_ok(g->client))
        t->msgs[g->client]++;
    if (th_ok(g->server) && g->server != g->client)
        t->msgs[g->server]++;
}

static void on_wait(void *user, const struct kw_wait *w)
{
    struct top *t = user;
    if (!w->t1 || !th_ok(w->th))
        return;
    uint64_t d = w->t1 - w->t0;
    if (d > t->wait[w->th])
        t->wait[w->th] = d;
    if (d > t->wait_t) {
        t->wait_t = d;
        t->wait_th = w->th;
        t->wait_owner = w->owner;
        t->wait_obj = w->obj;
    }
}

// ---- frames ---------------------------------------------------------------------------------------

// The losses of the frame: the model's new loss windows (the kernel's drops, and at the end the
// trailer's count of events lost after the last buffer) and the board's LOSS frames, with the
// stream's own losses in all; into f.
static void frame_losses(struct top *t, struct top_frame *f)
{
    const struct kx_stats *s = t->s;
    uint64_t lost = 0;
    char *p = f->loss_text;
    size_t n = sizeof(f->loss_text), k = 0;
    for (unsigned g = t->gaps0; g < s->ngaps; g++) {
        uint64_t gl = s->gap[g].lost;
        unsigned cpu = s->gap[g].cpu;
        if (s->gap[g].after_end && cpu < KEV_MAX_CPUS) {
            // the trailer counts the events the logger dropped (LOSS frames, already counted)
            uint64_t same = t->board_cpu[cpu] < gl ? t->board_cpu[cpu] : gl;
            t->board_cpu[cpu] -= same;
            gl -= same;
            if (!gl)
                continue;
        }
        lost += gl;
        if (k < n)
            k += (size_t)snprintf(p + k, n - k, "%sCPU %u: %llu %s", k ? "; " : "",
                                  cpu, (unsigned long long)gl,
                                  s->gap[g].after_end ? "lost after the last buffer (the trailer's "
                                                        "count)"
                                                      : "dropped by the kernel, no buffer free");
    }
    if (t->board_lost && k < n)
        k += (size_t)snprintf(p + k, n - k, "%s%s", k ? "; " : "", t->board_why);
    lost += t->board_lost;
    t->lost_total += lost;
    f->lost = lost;
    f->lost_total = t->lost_total;
    f->buffers_lost = t->counts ? t->counts->buffers_lost : 0;
    t->gaps0 = s->ngaps;
    t->board_lost = 0;
    t->board_why[0] = 0;
}

// Close the open frame at t1 (every event before t1 given, none after).
static void close_frame(struct top *t, uint64_t t1, int last)
{
    struct kx_stats *s = t->s;
    uint64_t cps = s->r->kr_cycles_per_sec;
    int turns = kx_exec_in_turns(s);
    struct top_frame f = { s, cps ? cps : 1000000000u, t->seg, t->t0, t1, s->events - t->events0, t->ints_all,
                           s->ncpu ? s->ncpu : 1, turns, t->rows, 0, 0, 0, 0, "", -1, -1, -1, 0,
                           last, 0, 0, 0 };
    unsigned nr = 0;
    for (unsigned i = 0; i < s->m.nth && i < KX_MAX_THREADS; i++) {
        uint64_t cum = kx_stats_th_time(s, (int)i, KEV_TH_RUNNING, t1);
        uint64_t cpu = cum > t->prev[i] ? cum - t->prev[i] : 0; // (the heartbeat's tail: above)
        // (the executed share as the model has it at its last event, the CPUs in turn)
        uint64_t xcum = turns ? kx_exec_time(s, (int)i) : cum;
        uint64_t exec = xcum > t->prev_exec[i] ? xcum - t->prev_exec[i] : 0;
        t->prev[i] = cum;
        t->prev_exec[i] = xcum;
        if (!cpu && !t->kcalls[i] && !t->msgs[i] && !t->ints[i] && !t->wait[i])
            continue;
        struct top_row *r = &t->rows[nr++];
        *r = (struct top_row){ (int)i, s->m.th[i].pid, s->m.th[i].tid, "",
                               t->ended ? t->end_state[i] : s->th[i].state,
                               s->m.th[i].prio, cpu, exec, t->kcalls[i], t->msgs[i], t->ints[i],
                               t->wait[i] };
        kx_label(&s->m, (int)i, r->label, sizeof(r->label));
        t->kcalls[i] = t->msgs[i] = t->ints[i] = t->wait[i] = 0;
    }
    f.nrows = nr;
    frame_losses(t, &f);
    f.reader_said = t->reader_said;
    f.reader_behind = t->reader.behind;
    f.reader_dropped = t->reader.dropped;
    f.wait_th = t->wait_t ? t->wait_th : -1;
    f.wait_owner = t->wait_owner;
    f.wait_obj = t->wait_obj;
    f.wait_t = t->wait_t;
    t->frame(t->user, &f);
    t->t0 = t1;
    t->next = t1 + t->span;
    t->events0 = s->events;
    t->ints_all = 0;
    t->wait_t = 0;
}

// Close every frame that ends at or before t.
static void advance(struct top *t, uint64_t t1)
{
    while (t->started && t1 >= t->next && !(t->halt && t->halt(t->user)))
        close_frame(t, t->next, 0);
}

// ---- the live reader's consumer -------------------------------------------------------------------

// The analysis pass's step before the model takes e (kx_pass.h): the frames that end at or
// before it closed, with every event before it given and none after.
static int before_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                        struct kx_model *m)
{
    struct top *t = user;
    (void)r, (void)m;
    if (!t->started && e->cls != KEV_C_CONTROL) {
        t->started = 1;
        t->t0 = e->t64;
        t->next = e->t64 + t->first;
        t->events0 = t->s->events;
    }
    advance(t, e->t64);
    if (e->cls == KEV_C_INT && e->ev == KEV_INT_ENTER)
        t->ints_all++;
    return 0;
}

static void on_begin(void *user, struct kev_reader *r, unsigned seg)
{
    struct top *t = user;
    kx_stats_delete(t->s);
    memset(t->prev, 0, sizeof(t->prev));
    memset(t->prev_exec, 0, sizeof(t->prev_exec));
    memset(t->kcalls, 0, sizeof(t->kcalls));
    memset(t->msgs, 0, sizeof(t->msgs));
    memset(t->ints, 0, sizeof(t->ints));
    memset(t->wait, 0, sizeof(t->wait));
    memset(t->board_cpu, 0, sizeof(t->board_cpu));
    t->s = kx_stats_new(r);
    t->seg = seg;
    t->started = 0;
    t->ended = 0;
    t->gaps0 = 0;
    t->ints_all = t->wait_t = 0;
    uint64_t cps = r->kr_cycles_per_sec ? r->kr_cycles_per_sec : 1000000000u;
    t->span = (uint64_t)(t->span_s * (double)cps + 0.5);
    if (!t->span)
        t->span = 1;
    t->first = (uint64_t)(FIRST_S * (double)cps + 0.5);
    if (!t->first || t->first > t->span)
        t->first = t->span;
    if (t->s) {
        const struct kx_sink k = { .user = t, .kcall = on_kcall, .irq = on_irq, .msg = on_msg,
                                   .wait = on_wait };
        kx_stats_sink(t->s, &k);
        t->pass = (struct kx_pass){ .on_event = before_event, .user = t };
        kx_stats_model(&t->pass, t->s);
    }
}

static void on_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct top *t = user;
    if (t->s)
        kx_pass_step(&t->pass, r, e);
}

static void on_time(void *user, struct kev_reader *r, uint64_t t1)
{
    struct top *t = user;
    (void)r;
    if (t->s)
        advance(t, t1);
}

static void on_loss(void *user, struct kev_reader *r, const struct ks_loss *l)
{
    struct top *t = user;
    (void)r;
    t->board_lost += l->events;
    t->board_total += l->events;
    if (l->cpu < KEV_MAX_CPUS)
        t->board_cpu[l->cpu] += l->events;
    size_t k = strlen(t->board_why);
    snprintf(t->board_why + k, sizeof(t->board_why) - k, "%sCPU %lu: %llu dropped by the "
             "logger, the host %s", k ? "; " : "", (unsigned long)l->cpu,
             (unsigned long long)l->events,
             l->reason == KS_LOSS_HOST_STOP ? "asked it to stop" : "not reading");
}

static void on_end(void *user, struct kev_reader *r, int complete)
{
    struct top *t = user;
    (void)r, (void)complete;
    if (!t->s)
        return;
    for (unsigned i = 0; i < t->s->m.nth && i < KX_MAX_THREADS; i++)
        t->end_state[i] = (uint8_t)t->s->th[i].state; // finishing forgets them
    t->ended = 1;
    kx_stats_finish(t->s);
    if (t->started) // (a heartbeat may have closed frames past the last event)
        close_frame(t, t->s->t_last > t->t0 ? t->s->t_last : t->t0, 1);
}

// The reader's word on its lag and the board's drops: the frames say the last one.
static void on_reader(void *user, const struct ks_reader *s)
{
    struct top *t = user;
    t->reader = *s;
    t->reader_said = 1;
}

struct kev_live_consumer top_consumer(struct top *t)
{
    return (struct kev_live_consumer){ .user = t, .begin = on_begin, .event = on_event,
                                       .time = on_time, .loss = on_loss, .reader = on_reader,
                                       .end = on_end };
}

struct top *top_new(double span_s, void (*frame)(void *user, const struct top_frame *f),
                    void *user)
{
    struct top *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->frame = frame;
    t->user = user;
    t->span_s = span_s;
    return t;
}

void top_halt(struct top *t, int (*halt)(void *user))
{
    t->halt = halt;
}

void top_counts(struct top *t, const struct kev_live_counts *c)
{
    t->counts = c;
}

void top_free(struct top *t)
{
    if (t)
        kx_stats_delete(t->s);
    free(t);
}
