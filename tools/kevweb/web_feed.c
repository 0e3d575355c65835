// SPDX-License-Identifier: MIT
// kevweb's view of the trace (web_feed.h). The analysis pass (kx_pass.h, as every reader takes
// it) feeds the model every event in time order (the live reader's); its records come back
// through a sink: a thread's state interval when it ends and a message when replied to become
// timeline records in a ring of WF_WINDOW. Everything else is
// read from the model when a message is built, between two events: each thread's CPU time so
// far (kx_stats_th_time: what kx_stats_finish would give for a trace ending then) and of it
// what its CPU executed (kx_exec_time: the CPUs run in turn by an emulator), each CPU's
// busy, idle and unknown time, the worst wait with its chain (kx_chains: the waiter's worst
// wait, kevstat's sentence), the task instances the model has ended since the last update
// (judged by the model as they end, kx_tasks_judge_now: a given deadline or period, else a
// periodic task's timer's interval, none for an event-driven task; then forgotten by the model:
// kx_stats_forget), and the losses (the model's windows, the board's LOSS frames, the
// stream's own faults).
#define _GNU_SOURCE
#include "web_feed.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kevhost/json_out.h>
#include <kevhost/kx_chain_text.h>
#include <kevhost/kx_pass.h>
#include <kevhost/kx_stats.h>

enum { REC_STATE, REC_MSG };

// A timeline record: a thread's state interval, or a message from client (th) to server (th2).
struct rec {
    uint64_t t0, t1, t2;        // state: t0-t1; message: send, receive, reply
    int32_t th, th2;            // state: th2 its CPU (-1 not running); message: the server
    uint8_t kind, state;
    int16_t prio;
};

// An instance as the page shows it.
struct inst {
    uint64_t id, release, start, end, exec, limit; // limit: the deadline judged against, 0 none
    int th;
    int late;
};

struct ring_inst {
    struct inst v[WF_RECENT];
    uint64_t n, sent;           // given in all, sent in updates
};

struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
};

struct web_feed {
    struct kx_stats *s;
    struct kx_pass pass;        // how an event reaches s (the analysis pass)
    const struct kev_live_counts *counts;
    struct kx_timing_set timing;
    unsigned seg;
    uint64_t cps;
    char board[64];
    uint64_t t_now;             // every event before it has been given
    int started;
    // the timeline's window
    struct rec *rec;            // WF_WINDOW of them
    uint64_t nrec, sent_rec;
    // task instances: those the model has ended, reported once (then forgotten by the model);
    // each thread's releases so far, for the mean interval between them
    struct ring_inst inst, miss;
    // each thread's instances reported: judged against a deadline (late ones counted), or not
    // (an event-driven task with none given): the tasks the page names
    uint32_t late_by[KX_MAX_THREADS];
    uint8_t judged_by[KX_MAX_THREADS]; // 1 judged, 2 not, 3 both (its deadline came later)
    // what the last update said of each thread
    unsigned names_sent;
    uint64_t *sent_cpu, *sent_exec;
    uint8_t *sent_state;
    int16_t *sent_prio;
    // losses the board reported (LOSS frames), and the stream's last fault
    uint64_t board_lost;
    char board_why[300];
    char fault[300];
    uint64_t faults;
    uint64_t events_sent;
    int ended, end_sent;
    int whole;                  // a finished capture: the model's verdicts at its end, once
    int whole_judged;           // (web_feed_whole)
    // no header decoded yet: what the page was last told of the input (faults, bytes, its end)
    int input_ended;
    uint64_t nohead_faults, nohead_bytes;
    int nohead_ended, nohead_sent;
    char report_url[64], report_why[300];
    int report_sent;
};

// ---- output ---------------------------------------------------------------------------------------

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int k = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if ((size_t)k < room) {
            b->len += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 65536;
        while (cap < b->len + (size_t)k + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

static void sb_sink(void *user, const char *p, size_t n)
{
    sb_printf(user, "%.*s", (int)n, p);
}

// s as a JSON string by the host's one rule, with the page's escapes (json_out.h): no raw
// newline (a message's data is one line), nothing that reads as markup.
static void sb_str(struct sbuf *b, const char *s)
{
    json_str_to(sb_sink, b, s, JSON_PAGE);
}

#define U(x) ((unsigned long long)(x))

// ---- the model's records --------------------------------------------------------------------------

static void rec_add(struct web_feed *f, const struct rec *r)
{
    f->rec[f->nrec % WF_WINDOW] = *r;
    f->nrec++;
}

static void on_state(void *user, const struct kx_state_row *r)
{
    struct web_feed *f = user;
    if (r->state >= KEV_TH_NSTATES || r->t1 < r->t0 || r->th < 0)
        return;
    rec_add(f, &(struct rec){ r->t0, r->t1, 0, r->th, r->cpu, REC_STATE, (uint8_t)r->state,
                              (int16_t)r->prio });
}

static void on_msg(void *user, const struct kx_msg *g)
{
    struct web_feed *f = user;
    if (g->client < 0 || g->server < 0)
        return;
    rec_add(f, &(struct rec){ g->t_send, g->t_recv, g->t_reply, g->client, g->server, REC_MSG,
                              (uint8_t)g->pulse, -1 });
}

// ---- task instances -------------------------------------------------------------------------------

static void ring_put(struct ring_inst *g, const struct inst *i)
{
    g->v[g->n % WF_RECENT] = *i;
    g->n++;
}

// An instance reported: its thread judged or not, late or not (the page names the tasks).
static void count_inst(struct web_feed *f, const struct inst *v)
{
    f->judged_by[v->th] |= v->limit ? 1u : 2u;
    f->late_by[v->th] += v->late != 0;
}

// A finished capture, at its end: every instance the model judged over the whole file
// (kx_tasks_finish: kevstat's verdicts, the open ones past their deadline among them); late 1
// the program's miss, 2 the emulator's.
static void whole_instances(struct web_feed *f, const struct kx_tasks *k)
{
    for (size_t j = 0; j < k->ninst; j++) {
        const struct kx_inst *x = &k->inst[j];
        if (x->exit || x->th < 0 || (unsigned)x->th >= KX_MAX_THREADS || (!x->end && !x->missed))
            continue;
        struct inst v = { x->id, x->release, x->start, x->end, x->exec, x->deadline, x->th,
                          x->missed ? 1 + x->emul_miss : 0 };
        count_inst(f, &v);
        ring_put(&f->inst, &v);
        if (v.late)
            ring_put(&f->miss, &v);
    }
}

// The instances the model has ended since the last look, each once; then the model forgets
// them (kx_stats_forget: its memory stays bounded however long the run). A finished capture's
// are judged once, at its end, as kevstat judges them (whole_instances).
static void scan_instances(struct web_feed *f)
{
    struct kx_tasks *k = f->s ? f->s->tasks : NULL;
    if (!k || (f->whole && !f->ended))
        return;
    if (f->whole) {
        if (!f->whole_judged)
            whole_instances(f, k);
        f->whole_judged = 1;
        return;
    }
    for (size_t j = 0; j < k->ninst; j++) { // in release order, so a thread's in order
        const struct kx_inst *x = &k->inst[j];
        if (!x->end || x->th < 0 || (unsigned)x->th >= KX_MAX_THREADS)
            continue;
        struct inst v = { x->id, x->release, x->start, x->end, x->exec, 0, x->th, 0 };
        v.late = kx_tasks_judge_now(k, &f->s->m, x, f->cps, &v.limit);
        if (!x->exit)
            count_inst(f, &v);
        ring_put(&f->inst, &v);
        if (v.late)
            ring_put(&f->miss, &v);
    }
    if (!f->ended)
        kx_stats_forget(f->s);
}

// ---- the live reader's consumer ---------------------------------------------------------------------

static void reset(struct web_feed *f)
{
    if (f->s)
        kx_stats_delete(f->s);
    f->s = NULL;
    f->nrec = f->sent_rec = 0;
    memset(&f->inst, 0, sizeof(f->inst));
    memset(&f->miss, 0, sizeof(f->miss));
    memset(f->late_by, 0, sizeof(f->late_by));
    memset(f->judged_by, 0, sizeof(f->judged_by));
    f->names_sent = 0;
    f->events_sent = 0;
    if (f->sent_cpu) {
        memset(f->sent_cpu, 0, KX_MAX_THREADS * sizeof(*f->sent_cpu));
        memset(f->sent_exec, 0, KX_MAX_THREADS * sizeof(*f->sent_exec));
        memset(f->sent_state, 0, KX_MAX_THREADS * sizeof(*f->sent_state));
        memset(f->sent_prio, 0, KX_MAX_THREADS * sizeof(*f->sent_prio));
    }
    f->started = f->ended = f->end_sent = f->whole_judged = 0;
    f->t_now = 0;
}

// The analysis pass's step once the model took e (kx_pass.h): every event up to e given.
static void after_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                        struct kx_model *m)
{
    struct web_feed *f = user;
    (void)r, (void)m;
    if (e->cls != KEV_C_CONTROL)
        f->started = 1;
    if (e->t64 > f->t_now)
        f->t_now = e->t64;
}

static void on_begin(void *user, struct kev_reader *r, unsigned seg)
{
    struct web_feed *f = user;
    reset(f);
    f->seg = seg;
    f->cps = r->kr_cycles_per_sec ? r->kr_cycles_per_sec : 1000000000u;
    snprintf(f->board, sizeof(f->board), "%s", r->kr_board);
    f->s = kx_stats_new(r);
    if (!f->s)
        return;
    if (f->s->tasks)
        kx_tasks_rules(f->s->tasks, &f->timing);
    const struct kx_sink k = { .user = f, .state = on_state, .msg = on_msg };
    kx_stats_sink(f->s, &k);
    f->pass = (struct kx_pass){ .after = after_event, .user = f };
    kx_stats_model(&f->pass, f->s);
}

static void on_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct web_feed *f = user;
    if (f->s)
        kx_pass_step(&f->pass, r, e);
}

static void on_time(void *user, struct kev_reader *r, uint64_t t)
{
    struct web_feed *f = user;
    (void)r;
    if (f->started && t > f->t_now)
        f->t_now = t;
}

static void on_loss(void *user, struct kev_reader *r, const struct ks_loss *l)
{
    struct web_feed *f = user;
    (void)r;
    f->board_lost += l->events;
    snprintf(f->board_why, sizeof(f->board_why), "CPU %lu: %llu dropped by the logger, the host %s",
             (unsigned long)l->cpu, U(l->events),
             l->reason == KS_LOSS_HOST_STOP ? "asked it to stop" : "not reading");
}

static void on_fault(void *user, enum kev_live_fault what, const char *text)
{
    struct web_feed *f = user;
    (void)what;
    f->faults++;
    snprintf(f->fault, sizeof(f->fault), "%s", text);
}

static void on_end(void *user, struct kev_reader *r, int complete)
{
    struct web_feed *f = user;
    (void)r, (void)complete;
    if (!f->s || f->ended)
        return;
    kx_stats_finish(f->s);
    scan_instances(f);
    if (f->s->t_last > f->t_now)
        f->t_now = f->s->t_last;
    f->ended = 1;
}

struct kev_live_consumer web_feed_consumer(struct web_feed *f)
{
    return (struct kev_live_consumer){ .user = f, .begin = on_begin, .event = on_event,
                                       .time = on_time, .loss = on_loss, .fault = on_fault,
                                       .end = on_end };
}

// ---- messages -------------------------------------------------------------------------------------

static uint64_t th_cpu(const struct web_feed *f, unsigned i)
{
    const struct kx_stats *s = f->s;
    return f->ended ? s->th[i].state_t[KEV_TH_RUNNING]
                    : kx_stats_th_time(s, (int)i, KEV_TH_RUNNING, f->t_now);
}

// Of its CPU time, what its CPU executed (kx_exec_time: the CPUs in turn, the model's share
// up to the last event; else its CPU time, which th_cpu brings to now).
static uint64_t th_exec(const struct web_feed *f, unsigned i)
{
    return f->ended || kx_exec_in_turns(f->s) ? kx_exec_time(f->s, (int)i) : th_cpu(f, i);
}

// The loss line's parts: events lost (the model's windows by CPU and cause, the board's LOSS
// frames) and the stream's faults.
static void put_loss(struct web_feed *f, struct sbuf *b)
{
    const struct kx_stats *s = f->s;
    uint64_t kern = 0, after = 0;
    char why[600];
    size_t k = 0;
    why[0] = 0;
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++) {
        uint64_t kc = 0, ac = 0;
        for (unsigned g = 0; g < s->ngaps; g++)
            if (s->gap[g].cpu == c)
                *(s->gap[g].after_end ? &ac : &kc) += s->gap[g].lost;
        if (kc && k < sizeof(why))
            k += (size_t)snprintf(why + k, sizeof(why) - k, "%sCPU %u: %llu dropped by the kernel, "
                                  "no buffer free", k ? "; " : "", c, U(kc));
        if (ac && k < sizeof(why))
            k += (size_t)snprintf(why + k, sizeof(why) - k, "%sCPU %u: %llu lost after the last "
                                  "buffer (the trailer's count)", k ? "; " : "", c, U(ac));
        kern += kc;
        after += ac;
    }
    if (f->board_lost && k < sizeof(why))
        snprintf(why + k, sizeof(why) - k, "%s%s", k ? "; " : "", f->board_why);
    const struct kev_live_counts *c = f->counts;
    sb_printf(b, ",\"loss\":{\"events\":%llu,\"windows\":%u,\"why\":",
              U(kern + after + f->board_lost), s->ngaps);
    sb_str(b, why);
    sb_printf(b, ",\"buffers_lost\":%llu,\"frames_lost\":%llu,\"faults\":%llu,\"fault\":",
              U(c ? c->buffers_lost : 0), U(c ? c->frames_lost : 0), U(f->faults));
    sb_str(b, f->fault);
    sb_printf(b, "}");
}

// The worst wait so far with its chain: kevstat's sentence, its waiter, time and path.
static void put_worst(struct web_feed *f, struct sbuf *b)
{
    const struct kx_chains *c = f->s->chains;
    const struct kx_cwaiter *w = NULL;
    for (unsigned i = 0; c && i < f->s->m.nth && i < KX_MAX_THREADS; i++)
        if (c->waiter[i] && (!w || c->waiter[i]->worst_len > w->worst_len))
            w = c->waiter[i];
    if (!w || !w->worst_len)
        return;
    char text[1200];
    kx_cwait_text(f->s, &w->worst, w->worst_len, text, sizeof(text));
    const struct kx_wlink *p[KX_CHAIN_MAX];
    unsigned np = kx_cwait_path(&w->worst, p, KX_CHAIN_MAX);
    sb_printf(b, ",\"worst\":{\"th\":%d,\"t0\":%llu,\"len\":%llu,\"path\":[%d", w->worst.th,
              U(w->worst.t0), U(w->worst_len), w->worst.th);
    for (unsigned i = 0; i < np; i++)
        if (p[i]->l.to >= 0)
            sb_printf(b, ",%d", p[i]->l.to);
    sb_printf(b, "],\"text\":");
    sb_str(b, text);
    sb_printf(b, "}");
}

// What every message carries: the run's aggregates now.
static void put_head(struct web_feed *f, struct sbuf *b)
{
    const struct kx_stats *s = f->s;
    sb_printf(b, "\"seg\":%u,\"board\":", f->seg);
    sb_str(b, f->board);
    sb_printf(b, ",\"cps\":%llu,\"first\":%llu,\"now\":%llu,\"events\":%llu,\"ended\":%d,"
              "\"turns\":%d,\"ncpu\":%u,\"cpus\":[", U(f->cps), U(s->events ? s->t_first : 0),
              U(f->t_now), U(s->events), f->ended, kx_exec_in_turns(s), s->ncpu);
    for (unsigned c = 0; c < s->ncpu && c < KEV_MAX_CPUS; c++) {
        uint64_t busy = s->busy_t[c], idle = s->idle_t[c];
        int th = s->acc_cur[c];
        if (!f->ended && th >= 0 && f->t_now > s->acc_since[c]) { // the period still open
            if (kx_idle_cpu(&s->m, th) >= 0)
                idle += f->t_now - s->acc_since[c];
            else
                busy += f->t_now - s->acc_since[c];
        }
        sb_printf(b, "%s[%llu,%llu,%llu]", c ? "," : "", U(busy), U(idle), U(s->none_t[c]));
    }
    sb_printf(b, "],\"tasks\":{\"instances\":%llu,\"late\":%llu,\"whole\":%d,\"by\":[",
              U(f->inst.n), U(f->miss.n), f->whole);
    for (unsigned i = 0, n = 0; i < KX_MAX_THREADS; i++) // [thread, late, judged 1 / not 2 / 3]
        if (f->judged_by[i])
            sb_printf(b, "%s[%u,%u,%u]", n++ ? "," : "", i, f->late_by[i], f->judged_by[i]);
    sb_printf(b, "]");
    if (f->whole && f->whole_judged && s->tasks) { // the model's headline, kevstat's
        char head[2048];
        kx_tasks_headline(s, head, sizeof(head));
        sb_printf(b, ",\"headline\":");
        sb_str(b, head);
    }
    sb_printf(b, "}");
    put_loss(f, b);
    put_worst(f, b);
}

static void put_names(struct web_feed *f, struct sbuf *b, unsigned from)
{
    const struct kx_stats *s = f->s;
    char label[80];
    sb_printf(b, ",\"names\":[");
    for (unsigned i = from; i < s->m.nth && i < KX_MAX_THREADS; i++) {
        sb_printf(b, "%s[%u,%u,%u,", i > from ? "," : "", i, s->m.th[i].pid, s->m.th[i].tid);
        sb_str(b, kx_label(&s->m, (int)i, label, sizeof(label)));
        sb_printf(b, "]");
    }
    sb_printf(b, "]");
    f->names_sent = s->m.nth;
}

// Threads: [index, CPU time, state, priority, since, executed]; all, or those changed since the
// last (a thread's executed share changes only with its CPU time).
static void put_threads(struct web_feed *f, struct sbuf *b, int all)
{
    const struct kx_stats *s = f->s;
    int first = 1;
    sb_printf(b, ",\"th\":[");
    for (unsigned i = 0; i < s->m.nth && i < KX_MAX_THREADS; i++) {
        uint64_t cpu = th_cpu(f, i);
        unsigned st = s->th[i].state;
        int prio = s->m.th[i].prio;
        if (!all && cpu == f->sent_cpu[i] && st == f->sent_state[i] && prio == f->sent_prio[i])
            continue;
        f->sent_cpu[i] = cpu;
        f->sent_exec[i] = th_exec(f, i);
        f->sent_state[i] = (uint8_t)st;
        f->sent_prio[i] = (int16_t)prio;
        sb_printf(b, "%s[%u,%llu,%u,%d,%llu,%llu]", first ? "" : ",", i, U(cpu),
                  st < KEV_TH_NSTATES && !f->ended ? st : 255u, prio, U(s->th[i].since),
                  U(f->sent_exec[i]));
        first = 0;
    }
    sb_printf(b, "]");
}

// Timeline records from number `from` (the window's oldest at least) to the newest.
static void put_recs(struct web_feed *f, struct sbuf *b, uint64_t from)
{
    if (f->nrec - from > WF_WINDOW)
        from = f->nrec - WF_WINDOW;
    sb_printf(b, ",\"rec_from\":%llu,\"rec_end\":%llu,\"rec\":[", U(from), U(f->nrec));
    for (uint64_t n = from; n < f->nrec; n++) {
        const struct rec *r = &f->rec[n % WF_WINDOW];
        if (r->kind == REC_STATE)
            sb_printf(b, "%s[0,%d,%llu,%llu,%u,%d,%d]", n > from ? "," : "", r->th, U(r->t0),
                      U(r->t1), r->state, r->th2, r->prio);
        else
            sb_printf(b, "%s[1,%d,%llu,%llu,%llu,%d,%u]", n > from ? "," : "", r->th, U(r->t0),
                      U(r->t1), U(r->t2), r->th2, r->state);
    }
    sb_printf(b, "]");
    f->sent_rec = f->nrec;
}

static void put_insts(struct sbuf *b, const char *name, struct ring_inst *g, uint64_t from)
{
    if (g->n - from > WF_RECENT)
        from = g->n - WF_RECENT;
    sb_printf(b, ",\"%s_from\":%llu,\"%s\":[", name, U(from), name);
    for (uint64_t n = from; n < g->n; n++) {
        const struct inst *i = &g->v[n % WF_RECENT];
        sb_printf(b, "%s[%llu,%d,%llu,%llu,%llu,%llu,%llu,%d]", n > from ? "," : "", U(i->id),
                  i->th, U(i->release), U(i->start), U(i->end), U(i->exec), U(i->limit), i->late);
    }
    sb_printf(b, "]");
    g->sent = g->n;
}

// No header decoded: what the page says instead of a trace (the faults: a damaged header, bytes
// before any; the bytes read; whether the input has ended without one).
static void put_nohead(struct web_feed *f, struct sbuf *b)
{
    sb_printf(b, "\"bytes\":%llu,\"faults\":%llu,\"input_ended\":%d,\"fault\":",
              U(f->counts ? f->counts->bytes : 0), U(f->faults), f->input_ended);
    sb_str(b, f->fault);
    f->nohead_faults = f->faults;
    f->nohead_bytes = f->counts ? f->counts->bytes : 0;
    f->nohead_ended = f->input_ended;
    f->nohead_sent = 1;
}

// The end: each thread's CPU time and its executed share as kevstat gives them (the model's,
// finished).
static void put_end(struct web_feed *f, struct sbuf *b)
{
    const struct kx_stats *s = f->s;
    sb_printf(b, "{\"seg\":%u,\"cpu\":[", f->seg);
    for (unsigned i = 0; i < s->m.nth && i < KX_MAX_THREADS; i++)
        sb_printf(b, "%s%llu", i ? "," : "", U(s->th[i].state_t[KEV_TH_RUNNING]));
    sb_printf(b, "],\"exec\":[");
    for (unsigned i = 0; i < s->m.nth && i < KX_MAX_THREADS; i++)
        sb_printf(b, "%s%llu", i ? "," : "", U(kx_exec_time(s, (int)i)));
    sb_printf(b, "]}");
}

static void put_report(struct web_feed *f, struct sbuf *b)
{
    sb_printf(b, "{\"url\":");
    sb_str(b, f->report_url);
    sb_printf(b, ",\"why\":");
    sb_str(b, f->report_why);
    sb_printf(b, "}");
}

static size_t done(struct sbuf *b, char **out)
{
    if (b->oom || !b->len) {
        free(b->p);
        *out = NULL;
        return 0;
    }
    *out = b->p;
    return b->len;
}

size_t web_feed_update(struct web_feed *f, char **out)
{
    struct sbuf b = { 0 };
    if (!f->s && (!f->nohead_sent || f->faults != f->nohead_faults ||
                  f->input_ended != f->nohead_ended ||
                  (f->counts && f->counts->bytes != f->nohead_bytes))) {
        sb_printf(&b, "event: nohead\ndata: {");
        put_nohead(f, &b);
        sb_printf(&b, "}\n\n");
    }
    if (f->s && (f->s->events != f->events_sent || f->nrec != f->sent_rec || f->ended != f->end_sent)) {
        if (!f->end_sent) {
            scan_instances(f);
            sb_printf(&b, "event: upd\ndata: {");
            put_head(f, &b);
            put_names(f, &b, f->names_sent);
            put_threads(f, &b, 0);
            put_recs(f, &b, f->sent_rec);
            put_insts(&b, "inst", &f->inst, f->inst.sent);
            put_insts(&b, "miss", &f->miss, f->miss.sent);
            sb_printf(&b, "}\n\n");
            f->events_sent = f->s->events;
        }
        if (f->ended && !f->end_sent) {
            sb_printf(&b, "event: end\ndata: ");
            put_end(f, &b);
            sb_printf(&b, "\n\n");
            f->end_sent = 1;
        }
    }
    if ((f->report_url[0] || f->report_why[0]) && !f->report_sent) {
        sb_printf(&b, "event: report\ndata: ");
        put_report(f, &b);
        sb_printf(&b, "\n\n");
        f->report_sent = 1;
    }
    return done(&b, out);
}

size_t web_feed_snapshot(void *user, char **out)
{
    struct web_feed *f = user;
    struct sbuf b = { 0 };
    sb_printf(&b, "event: snap\ndata: {\"states\":[");
    for (unsigned st = 0; st < KEV_TH_NSTATES; st++)
        sb_printf(&b, "%s\"%s\"", st ? "," : "", kev_thread_state_name(st));
    sb_printf(&b, "],\"have\":%d", f->s != NULL);
    if (!f->s) {
        sb_printf(&b, ",");
        put_nohead(f, &b);
    } else {
        // a snapshot does not move what updates have sent: save and restore their marks
        unsigned names = f->names_sent;
        uint64_t rec = f->sent_rec, ni = f->inst.sent, nm = f->miss.sent;
        sb_printf(&b, ",");
        put_head(f, &b);
        put_names(f, &b, 0);
        sb_printf(&b, ",\"th\":[");
        for (unsigned i = 0; i < f->s->m.nth && i < KX_MAX_THREADS; i++)
            sb_printf(&b, "%s[%u,%llu,%u,%d,%llu,%llu]", i ? "," : "", i, U(f->sent_cpu[i]),
                      f->sent_state[i] < KEV_TH_NSTATES && !f->ended ? f->sent_state[i] : 255u,
                      f->sent_prio[i], U(f->s->th[i].since), U(f->sent_exec[i]));
        sb_printf(&b, "]");
        put_recs(f, &b, 0);
        put_insts(&b, "inst", &f->inst, 0);
        put_insts(&b, "miss", &f->miss, 0);
        if (f->end_sent) {
            sb_printf(&b, ",\"end\":");
            put_end(f, &b);
        }
        f->names_sent = names;
        f->sent_rec = rec;
        f->inst.sent = ni;
        f->miss.sent = nm;
    }
    if (f->report_sent) {
        sb_printf(&b, ",\"report\":");
        put_report(f, &b);
    }
    sb_printf(&b, "}\n\n");
    return done(&b, out);
}

void web_feed_whole(struct web_feed *f)
{
    f->whole = 1;
}

int web_feed_ended(const struct web_feed *f)
{
    return f->ended;
}

void web_feed_input_end(struct web_feed *f)
{
    f->input_ended = 1;
}

void web_feed_report(struct web_feed *f, const char *url, const char *why)
{
    snprintf(f->report_url, sizeof(f->report_url), "%s", url ? url : "");
    snprintf(f->report_why, sizeof(f->report_why), "%s", why ? why : "");
    f->report_sent = 0;
}

void web_feed_counts(struct web_feed *f, const struct kev_live_counts *c)
{
    f->counts = c;
}

struct web_feed *web_feed_new(const struct kx_timing_set *timing)
{
    struct web_feed *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    f->rec = calloc(WF_WINDOW, sizeof(*f->rec));
    f->sent_cpu = calloc(KX_MAX_THREADS, sizeof(*f->sent_cpu));
    f->sent_exec = calloc(KX_MAX_THREADS, sizeof(*f->sent_exec));
    f->sent_state = calloc(KX_MAX_THREADS, sizeof(*f->sent_state));
    f->sent_prio = calloc(KX_MAX_THREADS, sizeof(*f->sent_prio));
    if (!f->rec || !f->sent_cpu || !f->sent_exec || !f->sent_state || !f->sent_prio) {
        web_feed_free(f);
        return NULL;
    }
    if (timing)
        f->timing = *timing;
    return f;
}

void web_feed_free(struct web_feed *f)
{
    if (!f)
        return;
    reset(f);
    free(f->rec);
    free(f->sent_cpu);
    free(f->sent_exec);
    free(f->sent_state);
    free(f->sent_prio);
    free(f);
}
