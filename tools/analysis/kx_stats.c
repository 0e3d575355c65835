// SPDX-License-Identifier: MIT
// One-pass analyses of a decoded trace (see kx_stats.h); the JSON writer is kx_stats_json.c.
#include "kx_stats.h"

#include <stdlib.h>
#include <string.h>

void kx_dist_add(struct kx_dist *d, uint64_t v)
{
    if (!d->n || v < d->min)
        d->min = v;
    if (v > d->max)
        d->max = v;
    d->n++;
    d->sum += v;
    d->hist[kx_log2_bucket(v)]++;
}

static int kw_thread_of(void *user, uint32_t pid, uint32_t tid)
{
    return kx_thread(user, pid, tid);
}

void kx_stats_init(struct kx_stats *s, const struct kev_reader *r)
{
    memset(s, 0, sizeof(*s));
    s->r = r;
    kx_model_init(&s->m, r);
    kx_msgs_init(&s->q);
    for (unsigned i = 0; i < KX_MAX_THREADS; i++)
        s->th[i].state = KX_STATE_UNKNOWN;
    s->worst_chan = -1;
    s->kw = malloc(sizeof(*s->kw));
    if (s->kw)
        kw_init(s->kw, kw_thread_of, &s->m);
    s->ureg = calloc(1, sizeof(*s->ureg));
}

void kx_stats_free(struct kx_stats *s)
{
    if (s->kw)
        kw_free(s->kw);
    free(s->kw);
    s->kw = NULL;
    free(s->ureg);
    s->ureg = NULL;
}

// ---- threads -------------------------------------------------------------------------------------

static void set_state(struct kx_stats *s, int idx, unsigned st, uint64_t t)
{
    struct kx_th_stats *ts = &s->th[idx];
    if (ts->state < KEV_TH_NSTATES && t >= ts->since) {
        ts->state_t[ts->state] += t - ts->since;
        if (ts->state == KEV_TH_RUNNING && ts->prio_run >= 0 && ts->prio_run < (int)KX_NPRIO)
            s->prio_t[ts->prio_run] += t - ts->since;
        if (ts->state == KEV_TH_RUNNING && ts->run_cpu)
            s->busy_t[ts->run_cpu - 1] += t - ts->since;
    }
    ts->state = st;
    ts->since = t;
}

static void idle_end(struct kx_stats *s, unsigned cpu, uint64_t t)
{
    if (s->m.cur[cpu] < 0 && s->idle_since[cpu] && t >= s->idle_since[cpu])
        s->idle_t[cpu] += t - s->idle_since[cpu];
    s->idle_since[cpu] = 0;
}

static void thread_event(struct kx_stats *s, const struct kev_event *e, int idx)
{
    if (idx < 0)
        return;
    struct kx_th_stats *ts = &s->th[idx];
    uint64_t t = e->t64;
    unsigned cpu = e->cpu;
    if (e->ev == KEV_TH_RUNNING) {
        int prev = s->m.cur[cpu];
        if (prev >= 0 && prev != idx && s->th[prev].state == KEV_TH_RUNNING)
            set_state(s, prev, KEV_TH_READY, t); // switched out without its own event
        idle_end(s, cpu, t);
        ts->prio_run = e->nw >= 4 ? (int)e->w[2] : s->m.th[idx].prio;
        ts->runs++;
        if (ts->wake_irq) {
            unsigned irq = ts->wake_irq - 1;
            kx_dist_add(&s->irq[irq].latency, t - ts->wake_t);
            ts->wake_irq = 0;
        }
        set_state(s, idx, KEV_TH_RUNNING, t);
        // The START snapshot's events all come from the CPU that took it, whichever CPU each
        // thread runs on: they say nothing of its CPU (no migration, no CPU's running time).
        if (s->m.in_snapshot) {
            ts->run_cpu = 0;
            return;
        }
        if (ts->run_cpu && ts->run_cpu != cpu + 1u)
            ts->migrations++, s->migrations++;
        ts->run_cpu = cpu + 1u;         // after set_state: a run on the old CPU ends there
        return;
    }
    if (ts->state == KEV_TH_RUNNING && s->m.cur[cpu] == idx)
        s->idle_since[cpu] = t ? t : 1; // the CPU has nobody until the next RUNNING
    if (e->ev == KEV_TH_READY && s->cpu_irq[cpu] && ts->state != KEV_TH_RUNNING) {
        ts->wake_irq = s->cpu_irq[cpu];
        ts->wake_t = s->cpu_irq_t[cpu];
    }
    unsigned st = e->ev == KEV_TH_DESTROY ? KEV_TH_DEAD
                  : e->ev == KEV_TH_CREATE ? KX_STATE_UNKNOWN : e->ev;
    set_state(s, idx, st, t);
}

// ---- kernel calls and interrupts ------------------------------------------------------------------

static void kcall_event(struct kx_stats *s, const struct kev_event *e)
{
    int idx = s->m.cur[e->cpu];
    unsigned call = e->ev % KEV_KC_MAX;
    struct kx_kc_stats *k = &s->kc[call];
    int32_t ret;
    uint32_t en;
    if (e->ev < KEV_KC_MAX) {
        k->entries++;
        if (idx >= 0)
            s->th[idx].kc_call = call + 1, s->th[idx].kc_t = e->t64;
        return;
    }
    if (e->ev >= 3 * KEV_KC_MAX)
        return;
    if (e->ev >= 2 * KEV_KC_MAX) {
        k->interrupted++;
    } else if (kev_kcall_exit(e, &ret, &en) && en) { // [-1, errno] (trace/kev_decode.h)
        k->errors++;
        k->err[en < KX_MAX_ERRNO ? en : KX_MAX_ERRNO - 1]++;
    }
    if (idx >= 0 && s->th[idx].kc_call == call + 1) {
        kx_dist_add(&k->lat, e->t64 - s->th[idx].kc_t);
        s->th[idx].kc_call = 0;
    }
}

static void int_event(struct kx_stats *s, const struct kev_event *e)
{
    uint32_t n = kev_int_irq(e);
    unsigned irq = n < KX_MAX_IRQ ? n : KX_MAX_IRQ - 1;
    unsigned cpu = e->cpu;
    struct kx_irq_stats *q = &s->irq[irq];
    switch (e->ev) {
    case KEV_INT_ENTER:
        if (!q->count)
            q->first = e->t64;
        q->count++;
        q->last = e->t64;
        s->cpu_irq[cpu] = irq + 1;
        s->cpu_irq_t[cpu] = s->cpu_hnd_t[cpu] = e->t64;
        break;
    case KEV_INT_HANDLER_ENTER:
        s->cpu_hnd_t[cpu] = e->t64;
        break;
    case KEV_INT_HANDLER_EXIT:
        if (s->cpu_irq[cpu] == irq + 1)
            kx_dist_add(&q->handler, e->t64 - s->cpu_hnd_t[cpu]);
        break;
    case KEV_INT_EXIT:
        if (s->cpu_irq[cpu] == irq + 1)
            kx_dist_add(&q->total, e->t64 - s->cpu_irq_t[cpu]);
        s->cpu_irq[cpu] = 0;
        break;
    default:
        break;
    }
}

// ---- messages -------------------------------------------------------------------------------------

// A channel is (client thread, receiving process): the process of the thread that received
// the message when known, else the pid the send names.
static int chan_of(struct kx_stats *s, const struct kx_msg *g)
{
    uint32_t srv = g->server >= 0 ? s->m.th[g->server].pid : g->srv_pid;
    for (unsigned i = 0; i < s->nchan; i++)
        if (s->chan[i].client == g->client && s->chan[i].irq == g->irq &&
            s->chan[i].srv_pid == srv &&
            s->chan[i].pulse == g->pulse)
            return (int)i;
    if (s->nchan >= KX_MAX_CHAN)
        return -1;
    struct kx_chan *c = &s->chan[s->nchan];
    memset(c, 0, sizeof(*c));
    c->client = g->client;
    c->irq = g->irq;
    c->srv_pid = srv;
    c->pulse = g->pulse;
    return (int)s->nchan++;
}

const char *kx_chan_client(const struct kx_stats *s, const struct kx_chan *c, char *buf,
                           size_t n)
{
    if (c->client < 0 && c->irq) {
        snprintf(buf, n, "irq %u", c->irq - 1);
        return buf;
    }
    return kx_label(&s->m, c->client, buf, n);
}

static void path_add(struct kx_stats *s, int chan, const struct kx_seg *g)
{
    for (unsigned i = 0; i < s->npsum; i++) {
        struct kx_pathsum *p = &s->psum[i];
        if (p->chan == chan && p->th == g->th && p->waiting == g->waiting) {
            p->t += g->t1 - g->t0;
            return;
        }
    }
    if (s->npsum < KX_MAX_PATHSUM)
        s->psum[s->npsum++] = (struct kx_pathsum){ chan, g->th, g->waiting, g->t1 - g->t0 };
}

static void comm_event(struct kx_stats *s, const struct kev_event *e)
{
    const struct kx_msg *g;
    enum kx_msg_step step = kx_msgs_event(&s->q, &s->m, e, &g);
    if (step == KX_MSG_RECV && g->pulse) {
        int ch = chan_of(s, g);
        if (ch >= 0)
            s->chan[ch].count++, kx_dist_add(&s->chan[ch].queue, g->t_recv - g->t_send);
        return;
    }
    if (step != KX_MSG_REPLY)
        return;
    int ch = chan_of(s, g);
    if (ch >= 0) {
        struct kx_chan *c = &s->chan[ch];
        c->count++;
        c->errors += (uint64_t)g->error;
        kx_dist_add(&c->lat, g->t_reply - g->t_send);
        kx_dist_add(&c->queue, g->t_recv - g->t_send);
        if (g->parent < 0) {
            struct kx_seg seg[KX_PATH_MAX];
            unsigned depth, n = kx_msgs_path(&s->q, g, seg, KX_PATH_MAX, &depth);
            c->roots++;
            for (unsigned i = 0; i < n; i++)
                path_add(s, ch, &seg[i]);
            if (g->t_reply - g->t_send > s->worst_total || s->worst_chan < 0) {
                s->worst_total = g->t_reply - g->t_send;
                s->worst_chan = ch;
                s->worst_depth = depth;
                s->nworst = n;
                memcpy(s->worst, seg, n * sizeof(seg[0]));
            }
        }
    }
    kx_msgs_release(&s->q, g);
}

// ---- lost events ----------------------------------------------------------------------------------

static void new_gap(struct kx_stats *s, unsigned cpu, uint64_t t0, uint64_t t1, uint64_t lost,
                    int after_end)
{
    if (s->ngaps >= KX_MAX_GAPS) {
        s->gaps_dropped++;
        return;
    }
    struct kx_gap *g = &s->gap[s->ngaps++];
    memset(g, 0, sizeof(*g));
    g->cpu = cpu;
    g->t0 = t0;
    g->t1 = t1 > t0 ? t1 : t0;
    g->lost = lost;
    g->after_end = after_end;
    for (unsigned i = 0; i < 256; i++) // the last 256 events before the gap (0: none yet)
        if (s->recent[cpu][i])
            g->classes[s->recent[cpu][i] % KEV_NCLASS]++;
    s->open_gap[cpu] = s->ngaps;
    s->after_gap[cpu] = 0;
}

void kx_user_value(const struct kx_stats *s, const struct kev_event *e, uint32_t pid, char *out,
                   size_t n)
{
    kx_user_text(s->r, NULL, pid, e, 0, out, n); // registrations are added by user_event
    const struct kev_ureg_entry *g = s->ureg ? kev_userreg_find(s->ureg, pid, e->ev) : NULL;
    char v[256];
    if (g && g->fmt[0] && !kx_user_string(s->r, e, v, sizeof(v)))
        kev_userreg_format(g->fmt, e->w, e->nw, out, n);
}

void kx_user_last(const struct kx_stats *s, const struct kx_user *u, char *out, size_t n)
{
    struct kev_event e = { 0 };
    e.cls = KEV_C_USER;
    e.ev = u->id;
    e.w = u->vw;
    e.nw = u->vnw;
    e.nslots = u->vslots;
    kx_user_value(s, &e, u->pid, out, n);
}

const char *kx_user_name(const struct kx_stats *s, uint32_t pid, uint32_t code)
{
    const struct kev_ureg_entry *g = s->ureg ? kev_userreg_find(s->ureg, pid, code) : NULL;
    return g ? g->name : NULL;
}

// A user event, counted per (id, process of the running thread); a registration (code
// KEV_USER_REGISTRY) names the process's events from then on.
static void user_event(struct kx_stats *s, const struct kev_event *e)
{
    int th = s->m.cur[e->cpu];
    uint32_t pid = th >= 0 ? s->m.th[th].pid : 0;
    char text[KEV_UREG_NAME + KEV_UREG_FMT + 16];
    if (e->ev == KEV_USER_REGISTRY && s->ureg && kx_user_string(s->r, e, text, sizeof(text)))
        kev_userreg_add(s->ureg, pid, text);
    unsigned i = 0;
    while (i < s->nuser && (s->user[i].id != e->ev || s->user[i].pid != pid))
        i++;
    if (i == s->nuser) {
        if (s->nuser >= KX_MAX_USER) {
            s->user_other++;
            return;
        }
        s->user[s->nuser++] = (struct kx_user){ e->ev, pid, th, 0, e->t64, e->t64, { 0 }, 0, 0 };
    }
    struct kx_user *u = &s->user[i];
    u->count++;
    u->last = e->t64;
    u->vnw = e->nw < KX_USER_WORDS ? e->nw : KX_USER_WORDS;
    u->vslots = (u->vnw + 1u) / 2u > 1u ? (u->vnw + 1u) / 2u : 1u;
    memcpy(u->vw, e->w, u->vnw * sizeof(uint32_t));
    if (u->th < 0)
        u->th = th;
}

int kx_stats_damaged(const struct kx_stats *s)
{
    return s->r->kr_err != 0;
}

void kx_stats_event(struct kx_stats *s, const struct kev_event *e)
{
    unsigned cpu = e->cpu;
    if (e->cls == KEV_C_CONTROL) {
        if (e->ev == KEV_CTL_DROPPED && e->w[0])
            new_gap(s, cpu, s->last_t[cpu] ? s->last_t[cpu] : e->t64, e->t64, e->w[0], 0);
        kx_model_update(&s->m, e);
        return;
    }
    if (!s->events)
        s->t_first = e->t64;
    s->events++;
    s->t_last = e->t64;
    s->last_t[cpu] = e->t64;
    s->class_n[e->cls]++;
    s->recent[cpu][s->nrecent[cpu]++] = (uint8_t)e->cls; // wraps at 256
    if (s->open_gap[cpu]) {
        s->gap[s->open_gap[cpu] - 1].classes[e->cls]++;
        if (++s->after_gap[cpu] >= 256)
            s->open_gap[cpu] = 0;
    }
    int th = s->m.cur[cpu]; // the event's thread for the wait analysis (a state event's own)
    switch (e->cls) {
    case KEV_C_PR_TH:
        if (e->ev <= KEV_TH_DESTROY && e->nw >= 2)
            thread_event(s, e, th = kx_thread(&s->m, e->w[0], e->w[1]));
        break;
    case KEV_C_KER_CALL: kcall_event(s, e); break;
    case KEV_C_INT: int_event(s, e); break;
    case KEV_C_COMM: comm_event(s, e); break;
    case KEV_C_USER: user_event(s, e); break;
    default: break;
    }
    if (s->kw)
        kw_event(s->kw, e, th);
    kx_model_update(&s->m, e);
}

void kx_stats_finish(struct kx_stats *s)
{
    for (unsigned i = 0; i < s->m.nth; i++)
        set_state(s, (int)i, s->th[i].state, s->t_last);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        idle_end(s, cpu, s->t_last);
    if (s->kw)
        kw_finish(s->kw);
    const struct kev_reader *r = s->r;
    if (!r->kr_have_trailer)
        return;
    for (unsigned cpu = 0; cpu < r->kr_trl_ncpu && cpu < KEV_MAX_CPUS; cpu++)
        if (r->kr_trl_lost[cpu] > r->kr_cpu[cpu].cs_lost_stream)
            new_gap(s, cpu, s->last_t[cpu], s->t_last,
                    r->kr_trl_lost[cpu] - r->kr_cpu[cpu].cs_lost_stream, 1);
}
