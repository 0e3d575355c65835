// SPDX-License-Identifier: MIT
// One-pass analyses of a decoded trace (see kx_stats.h); the JSON writer is kx_stats_json.c.
#include <kevhost/kx_stats.h>
#include <kevhost/kx_ids.h>
#include <kevhost/kx_fields.h>
#include <kevhost/kx_emul.h>
#include <kevhost/kx_pass.h>
#include <trace/kev_kercall.h>

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

static int kw_is_idle(void *user, int th)
{
    return kx_is_idle(user, th);
}

// A chain's root waking (kx_chain.h): the wait analysis's own rule (kw_waking).
static int chain_root_waking(const void *user, int th)
{
    const struct kx_stats *s = user;
    return s->kw && !(s->skip & KX_SKIP_WAIT) && kw_waking(s->kw, th);
}

// Everything kx_stats_init does but clearing s: s is zero already.
static void stats_setup(struct kx_stats *s, const struct kev_reader *r)
{
    s->r = r;
    kx_model_setup(&s->m, r);
    kx_msgs_setup(&s->q);
    for (unsigned i = 0; i < KX_MAX_THREADS; i++) {
        s->th[i].state = KX_STATE_UNKNOWN;
        s->th[i].irq_wait = -1;
        s->th[i].waker = -1;
    }
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        s->acc_cur[c] = s->cpu_open[c] = -1;
    // the trace's CPUs (the trailer counts each one's events): a CPU that has not yet written
    // an event may already run a thread the START snapshot placed there
    s->ncpu = r->kr_trl_ncpu <= KEV_MAX_CPUS ? r->kr_trl_ncpu : KEV_MAX_CPUS;
    s->worst_chan = -1;
    s->kw = calloc(1, sizeof(*s->kw));
    if (s->kw) {
        kw_setup(s->kw, kw_thread_of, &s->m);
        s->kw->is_idle = kw_is_idle;
    }
    s->ureg = calloc(1, sizeof(*s->ureg));
    s->tasks = calloc(1, sizeof(*s->tasks));
    if (s->tasks)
        kx_tasks_setup(s->tasks);
    s->chains = calloc(1, sizeof(*s->chains));
    if (s->chains) {
        kx_chains_setup(s->chains, &s->m, &s->sink);
        s->chains->root_waking = chain_root_waking;
        s->chains->root_waking_user = s;
    }
    s->emul = malloc(sizeof(*s->emul));
    if (s->emul)
        kx_emul_init(s->emul, r, &s->m);
}

void kx_stats_init(struct kx_stats *s, const struct kev_reader *r)
{
    memset(s, 0, sizeof(*s));
    stats_setup(s, r);
}

struct kx_stats *kx_stats_new(const struct kev_reader *r)
{
    struct kx_stats *s = calloc(1, sizeof(*s));
    if (s)
        stats_setup(s, r);
    return s;
}

void kx_stats_delete(struct kx_stats *s)
{
    if (s)
        kx_stats_free(s);
    free(s);
}

void kx_stats_sink(struct kx_stats *s, const struct kx_sink *k)
{
    s->sink = *k;
    if (s->kw) {
        s->kw->on_wait = k->wait;
        s->kw->on_wait_user = k->user;
    }
}

void kx_stats_free(struct kx_stats *s)
{
    if (s->kw)
        kw_free(s->kw);
    free(s->kw);
    s->kw = NULL;
    free(s->ureg);
    s->ureg = NULL;
    kx_funcs_free(s->funcs);
    s->funcs = NULL;
    if (s->emul)
        kx_emul_free(s->emul);
    free(s->emul);
    s->emul = NULL;
    if (s->tasks)
        kx_tasks_free(s->tasks);
    free(s->tasks);
    s->tasks = NULL;
    if (s->chains)
        kx_chains_free(s->chains);
    free(s->chains);
    s->chains = NULL;
}

int kx_stats_timing(struct kx_stats *s, const char *tool, const char *opt, const char *arg)
{
    if (!s->tasks) {
        fprintf(stderr, "%s: out of memory\n", tool);
        return -1;
    }
    return kx_tasks_rule(s->tasks, tool, opt, arg);
}

double kx_irq_rate(const struct kx_stats *s, const struct kx_irq_stats *q)
{
    double secs = kx_seconds(s->r, q->last - q->first);
    return q->count >= 2 && secs > 0 ? (double)(q->count - 1) / secs : 0.0;
}

// ---- each CPU's time ------------------------------------------------------------------------------

// The model's current thread on cpu may have changed at t: the time since the last change goes
// to what ran there (a thread, its idle thread, nobody known).
static void cpu_close(struct kx_stats *s, unsigned cpu, uint64_t t)
{
    if (t > s->acc_since[cpu]) {
        uint64_t d = t - s->acc_since[cpu];
        int was = s->acc_cur[cpu];
        unsigned what = was < 0 ? 0 : kx_is_idle(&s->m, was) ? 2 : 1;
        if (what == 0)
            s->none_t[cpu] += d;
        else if (what == 2)
            s->idle_t[cpu] += d;
        else
            s->busy_t[cpu] += d, kx_load_add(&s->load, cpu, s->acc_since[cpu], t);
        if (s->sink.cpu)
            s->sink.cpu(s->sink.user, cpu, s->acc_since[cpu], t, was, what);
    }
    s->acc_since[cpu] = t;
}

static void cpu_account(struct kx_stats *s, unsigned cpu, uint64_t t)
{
    if (s->m.cur[cpu] == s->acc_cur[cpu])
        return;
    cpu_close(s, cpu, t);
    s->acc_cur[cpu] = s->m.cur[cpu];
}

// The START snapshot has ended at t. Its THRUNNING events all come from the CPU that took it and
// only its "CPU c runs who" entries, after them, place each thread: the model's CPUs were not
// who ran there while it lasted, so the CPU sums skipped it. Each CPU's thread is counted there
// from its own THRUNNING (when its run began, as its per-thread time counts it), the time before
// as nobody known: a CPU's busy time is then the sum of its threads' runs there.
static void snapshot_cpus(struct kx_stats *s, uint64_t t)
{
    for (unsigned c = 0; c < s->ncpu; c++) {
        int idx = s->m.cur[c];
        if (idx == s->acc_cur[c])
            continue;
        uint64_t from = t;
        if (idx >= 0 && s->th[idx].state == KEV_TH_RUNNING && s->th[idx].since < t)
            from = s->th[idx].since > s->acc_since[c] ? s->th[idx].since : s->acc_since[c];
        cpu_close(s, c, from);
        s->acc_cur[c] = idx;
    }
}

// ---- flows between slices -------------------------------------------------------------------------

// The slice open on thread th now: its kernel call in progress (its entry seen).
static struct kx_slice_ref open_kcall(const struct kx_stats *s, int th)
{
    if (th >= 0 && s->th[th].kc_call)
        return (struct kx_slice_ref){ KX_SLICE_KCALL, s->th[th].kc_id };
    return (struct kx_slice_ref){ KX_SLICE_NONE, 0 };
}

// The interrupt in progress on cpu, its record (a slice).
static struct kx_slice_ref open_irq(const struct kx_stats *s, unsigned cpu)
{
    if (cpu < KEV_MAX_CPUS && s->cpu_open[cpu] >= 0)
        return (struct kx_slice_ref){ KX_SLICE_IRQ, s->irq_open[s->cpu_open[cpu]].row.id };
    return (struct kx_slice_ref){ KX_SLICE_NONE, 0 };
}

static void flow(struct kx_stats *s, enum kx_flow_kind kind, struct kx_slice_ref out,
                 struct kx_slice_ref in, uint64_t t, uint64_t msg)
{
    if (!s->sink.flow || out.kind == KX_SLICE_NONE || in.kind == KX_SLICE_NONE)
        return;
    struct kx_flow_row r = { ++s->next_flow, t, kind, out, in, msg };
    s->sink.flow(s->sink.user, &r);
}

// ---- threads -------------------------------------------------------------------------------------

// Running thread idx's time since prio_since goes to the priority it runs at (prio_now): at the
// end of its run, or when its priority changes while it runs (prio_change), so that a run is
// split at each change and the per-priority sums follow the trace's PRIO_CHANGE events.
static void prio_charge(struct kx_stats *s, int idx, uint64_t t)
{
    struct kx_th_stats *ts = &s->th[idx];
    if (ts->prio_now >= 0 && ts->prio_now < (int)KX_NPRIO && t >= ts->prio_since)
        s->prio_t[ts->prio_now] += t - ts->prio_since;
    ts->prio_since = t;
}

// PRIO_CHANGE (written before the change): a running thread's time so far is charged at its
// old priority, the rest of its run at the new one. One that does not run takes its new
// priority when it next runs (thread_event), from the model.
static void prio_change(struct kx_stats *s, const struct kev_event *e)
{
    const struct kx_fields *f = kx_fields();
    uint32_t who = kev_field(e, f->prio_who);
    int idx = kx_thread(&s->m, kev_who_pid(who), kev_who_tid(who));
    if (idx < 0 || s->th[idx].state != KEV_TH_RUNNING)
        return;
    prio_charge(s, idx, e->t64);
    s->th[idx].prio_now = (int)kev_field(e, f->prio_new);
}

int kx_exec_in_turns(const struct kx_stats *s)
{
    (void)s;
    return 0;       // no estimate (kx_stats.h)
}

uint64_t kx_exec_time(const struct kx_stats *s, int idx)
{
    return s->th[idx].state_t[KEV_TH_RUNNING];
}

// Thread idx leaves its state at t for st: the interval it ends is summed and given to the sink.
static void set_state(struct kx_stats *s, int idx, unsigned st, uint64_t t)
{
    struct kx_th_stats *ts = &s->th[idx];
    uint64_t run = t > ts->since ? t - ts->since : 0;
    if (ts->state < KEV_TH_NSTATES && t >= ts->since) {
        uint64_t d = t - ts->since;
        ts->state_t[ts->state] += d;
        int prio = ts->state == KEV_TH_RUNNING ? ts->prio_run : s->m.th[idx].prio;
        if (ts->state == KEV_TH_RUNNING)
            prio_charge(s, idx, t);
        if (s->sink.state) {
            struct kx_state_row r = { ts->iv_id, ts->since, t, idx, ts->state, st,
                                      ts->state == KEV_TH_RUNNING && ts->run_cpu
                                          ? (int)ts->run_cpu - 1 : -1,
                                      prio, ts->woken, ts->waker, ts->waker_id, ts->waker_irq,
                                      ts->block_call, 0, -1, -1,
                                      ts->state == KEV_TH_RUNNING ? run : 0 };
            const struct kw_wait *w = s->kw && !(s->skip & KX_SKIP_WAIT) && s->kw->th[idx].wait >= 0
                                          ? &s->kw->wait[s->kw->th[idx].wait] : NULL;
            if (w && w->th == idx && w->t0 == ts->since)
                r.wait = w->serial, r.obj = w->obj, r.owner = w->owner;
            s->sink.state(s->sink.user, &r);
        }
    }
    if (st == KEV_TH_RECEIVE && !(s->skip & KX_SKIP_MSG)) { // its channel is empty (kx_msg.h)
        unsigned lost = kx_msgs_purge(&s->q, idx, t, 0);
        if (lost && s->tasks)
            kx_tasks_lost(s->tasks, idx, lost);
    }
    if (s->tasks && st != KX_STATE_UNKNOWN)
        kx_tasks_state(s->tasks, idx, st, t);
    ts->state = st;
    ts->since = t;
    ts->iv_id = ++s->next_iv;
    ts->woken = 0;
    ts->waker = -1;
    ts->waker_id = 0;
    ts->waker_irq = 0;
    ts->block_call = 0;
}

// ---- interrupts and the threads that handle them ---------------------------------------------------
// An interrupt's record (irq_open slot) is made at its entry and given out once it has exited
// and its thread has handled it (or it woke nobody; or at the end of the trace). Meanwhile it
// is its CPU's cpu_open until its exit, and on its thread's irq_wait list once that thread is
// known (the first one it made ready, or the receiver of its pulse) until the thread runs.

static int irq_in_progress(const struct kx_stats *s, int slot)
{
    unsigned c = s->irq_open[slot].row.cpu;
    return c < KEV_MAX_CPUS && s->cpu_open[c] == slot;
}

static void irq_emit(struct kx_stats *s, int slot)
{
    struct kx_irq_open *o = &s->irq_open[slot];
    struct kx_irq_stats *q = &s->irq[o->row.irq < KX_MAX_IRQ ? o->row.irq : KX_MAX_IRQ - 1];
    if (o->row.th < 0)
        q->no_thread++;
    else if (!o->row.t_th)
        q->unhandled++;
    else
        kx_dist_add(&q->latency, o->row.t_th - o->row.t0);
    if (s->sink.irq)
        s->sink.irq(s->sink.user, &o->row);
    o->used = 0;
}

// Takes slot off its thread's list.
static void irq_unlink(struct kx_stats *s, int slot)
{
    int th = s->irq_open[slot].row.th;
    if (th < 0 || s->irq_open[slot].row.t_th)
        return;
    int *p = &s->th[th].irq_wait;
    while (*p >= 0 && *p != slot)
        p = &s->irq_open[*p].next;
    if (*p == slot)
        *p = s->irq_open[slot].next;
    s->irq_open[slot].next = -1;
}

// Interrupt slot is handled by thread th when th next runs.
static void irq_wait_for(struct kx_stats *s, int slot, int th)
{
    struct kx_irq_open *o = &s->irq_open[slot];
    o->row.th = th;
    o->next = -1;
    int *p = &s->th[th].irq_wait; // appended: the list stays in the interrupts' order
    while (*p >= 0)
        p = &s->irq_open[*p].next;
    *p = slot;
}

// Slot was handled at t: given out now, or at its exit when it is still in progress.
static void irq_handled_at(struct kx_stats *s, int slot, uint64_t t)
{
    s->irq_open[slot].row.t_th = t;
    if (!irq_in_progress(s, slot))
        irq_emit(s, slot);
}

// Every interrupt waiting for thread th is handled at t (th runs).
static void irq_handled(struct kx_stats *s, int th, uint64_t t)
{
    int slot = s->th[th].irq_wait;
    s->th[th].irq_wait = -1;
    while (slot >= 0) {
        int next = s->irq_open[slot].next;
        s->irq_open[slot].next = -1;
        irq_handled_at(s, slot, t);
        slot = next;
    }
}

static int irq_slot(struct kx_stats *s)
{
    static const unsigned n = KX_MAX_IRQ_OPEN;
    for (unsigned i = 0; i < n; i++)
        if (!s->irq_open[i].used)
            return (int)i;
    // Full: the oldest ends unhandled (its thread never got to it while it was kept).
    int old = 0;
    for (unsigned i = 1; i < n; i++)
        if (s->irq_open[i].row.id < s->irq_open[old].row.id)
            old = (int)i;
    irq_unlink(s, old);
    if (irq_in_progress(s, old))
        s->cpu_open[s->irq_open[old].row.cpu] = -1;
    s->irq_open_dropped++;
    irq_emit(s, old);
    return old;
}

static void thread_event(struct kx_stats *s, const struct kev_event *e, int idx)
{
    if (idx < 0)
        return;
    struct kx_th_stats *ts = &s->th[idx];
    uint64_t t = e->t64;
    unsigned cpu = e->cpu;
    if (s->chains) // `by`: the thread in whose kernel call the state came (it woke idx ...)
        kx_chains_state(s->chains, idx, e->ev == KEV_TH_DESTROY ? KEV_TH_DEAD : e->ev,
                        s->m.in_snapshot || s->m.irq[cpu] ? -1 : s->m.cur[cpu],
                        s->m.in_snapshot ? 0 : s->m.irq[cpu]);
    if (e->ev == KEV_TH_RUNNING) {
        int prev = s->m.cur[cpu];
        if (prev >= 0 && prev != idx && s->th[prev].state == KEV_TH_RUNNING && !s->m.in_snapshot)
            set_state(s, prev, KEV_TH_READY, t); // switched out without its own event
        ts->prio_run = kev_field_has(e, kx_fields()->th_prio) ? (int)kev_field(e, kx_fields()->th_prio)
                                                               : s->m.th[idx].prio;
        ts->runs++;
        if (ts->irq_wait >= 0)
            irq_handled(s, idx, t);
        set_state(s, idx, KEV_TH_RUNNING, t);
        ts->prio_now = ts->prio_run, ts->prio_since = t;
        // The START snapshot's events all come from the CPU that took it, whichever CPU each
        // thread runs on: its entries say where (snapshot_entry), never a migration.
        if (s->m.in_snapshot) {
            ts->run_cpu = 0;
            return;
        }
        if (ts->run_cpu && ts->run_cpu != cpu + 1u)
            ts->migrations++, s->migrations++;
        ts->run_cpu = cpu + 1u;         // after set_state: a run on the old CPU ends there
        return;
    }
    unsigned was = ts->state;
    unsigned st = e->ev == KEV_TH_DESTROY ? KEV_TH_DEAD
                  : e->ev == KEV_TH_CREATE ? KX_STATE_UNKNOWN : e->ev;
    unsigned call = ts->kc_call ? (unsigned)ts->kc_call : 0;
    set_state(s, idx, st, t);
    if (st == KEV_TH_READY && was != KEV_TH_RUNNING && was != KEV_TH_READY) {
        // woken: by the thread running where the READY was written, in an interrupt or not
        int w = s->m.cur[cpu];
        ts->woken = 1;
        ts->waker = w != idx ? w : -1;
        ts->waker_id = ts->waker >= 0 ? s->th[ts->waker].iv_id : 0;
        ts->waker_irq = s->cpu_irq[cpu];
        flow(s, KX_FLOW_WAKE, s->m.irq[cpu] ? open_irq(s, cpu) : open_kcall(s, ts->waker),
             open_kcall(s, idx), t, 0);
        int slot = s->cpu_open[cpu];
        if (s->cpu_irq[cpu] && slot >= 0 && s->irq_open[slot].row.how == KX_IRQ_NONE) {
            s->irq_open[slot].row.how = KX_IRQ_WAKE; // the first thread an interrupt made ready
            irq_wait_for(s, slot, idx);
        }
    } else if (st < KEV_TH_NSTATES && st != KEV_TH_READY && st != KEV_TH_DEAD) {
        ts->block_call = call;
    }
}

// SYSTEM SNAPSHOT's entry "CPU c runs who": that thread's run is on c.
static void snapshot_entry(struct kx_stats *s, const struct kev_event *e)
{
    int c = kx_snapshot_cpu(e);
    uint32_t who = kev_field(e, kx_fields()->snap_who);
    if (c < 0 || !who)
        return;
    int idx = kx_thread(&s->m, kev_who_pid(who), kev_who_tid(who));
    if (idx >= 0 && s->th[idx].state == KEV_TH_RUNNING)
        s->th[idx].run_cpu = (unsigned)c + 1u;
}

// ---- kernel calls ------------------------------------------------------------------------------------

unsigned kx_kc_slot(const struct kx_model *m, int idx, unsigned call, const uint32_t *arg,
                    unsigned nargs)
{
    if (kx_is_logger(m, idx))
        return KX_KC_LOGGER + call;
    return arg && kev_kcall_api_name(call, arg, nargs) ? KX_KC_BROADCAST : call;
}

const char *kx_kc_slot_name(unsigned slot, char *buf, size_t n)
{
    char nb[16];
    if (slot == KX_KC_BROADCAST)
        return "CondBroadcast";
    if (slot < KEV_KC_MAX)
        return kx_kcall_name(slot, buf, n);
    snprintf(buf, n, "%s [logger]", kx_kcall_name(slot - KX_KC_LOGGER, nb, sizeof(nb)));
    return buf;
}

unsigned kx_kc_slot_call(unsigned slot)
{
    return slot == KX_KC_BROADCAST ? 83u : slot < KEV_KC_MAX ? slot : slot - KX_KC_LOGGER;
}

static void kcall_row(struct kx_stats *s, int idx, const struct kev_event *exit_e, int interrupted,
                      int32_t ret, uint32_t err)
{
    struct kx_th_stats *ts = &s->th[idx];
    if (!s->sink.kcall)
        return;
    struct kx_kcall_row r = { ts->kc_id, ts->kc_t, exit_e ? exit_e->t64 : 0, idx, ts->kc_cpu,
                              (unsigned)ts->kc_call - 1u, { 0 }, ts->kc_nargs, exit_e != NULL,
                              interrupted, ret, err };
    memcpy(r.arg, ts->kc_arg, sizeof(r.arg));
    s->sink.kcall(s->sink.user, &r);
}

// QNX's __KER_TIMER_SETTIME; its entry's words are the timer, the first expiry and, in the wide
// mode, the interval, in us (trace/kev_kercall.c).
#define KX_KC_TIMER_SETTIME 72u

static void kcall_event(struct kx_stats *s, const struct kev_event *e)
{
    int idx = s->m.cur[e->cpu];
    enum kev_kcall_part part = kev_kcall_part(e);
    if (part == KEV_KCALL_NONE)
        return;
    unsigned call = kev_kcall_no(e);
    int32_t ret = 0;
    uint32_t en = 0;
    if (part == KEV_KCALL_ENTRY) {
        unsigned slot = kx_kc_slot(&s->m, idx, call, e->w, e->nw);
        s->kc[slot].entries++;
        if (idx >= 0) {
            struct kx_th_stats *ts = &s->th[idx];
            if (ts->kc_call)
                kcall_row(s, idx, NULL, 0, 0, 0); // its exit was lost
            ts->kc_call = call + 1, ts->kc_t = e->t64, ts->kc_id = ++s->next_kc;
            ts->kc_slot = slot;
            ts->kc_cpu = e->cpu;
            ts->kc_nargs = e->nw < 4 ? e->nw : 4;
            memset(ts->kc_arg, 0, sizeof(ts->kc_arg));
            memcpy(ts->kc_arg, e->w, ts->kc_nargs * sizeof(uint32_t));
            if (s->tasks) {         // where a job that leaves its loop ends; a timer armed
                kx_tasks_kcall(s->tasks, idx, call, e->t64);
                if (call == KX_KC_TIMER_SETTIME && e->nw >= 1)
                    kx_tasks_armed(s->tasks, s->m.th[idx].pid, kev_kcall_arg(e, 0),
                                   kev_kcall_arg(e, 2));
            }
        }
        return;
    }
    // the exit's row is its entry's (the arguments that name it are the entry's)
    int open = idx >= 0 && s->th[idx].kc_call == call + 1;
    struct kx_kc_stats *k = &s->kc[open ? s->th[idx].kc_slot : kx_kc_slot(&s->m, idx, call, NULL, 0)];
    int interrupted = part == KEV_KCALL_INTR;
    if (interrupted) {
        k->interrupted++;
    } else if (kev_kcall_exit(e, &ret, &en) && en) { // [-1, errno] (trace/kev_decode.h)
        k->errors++;
        k->err[en < KX_MAX_ERRNO ? en : KX_MAX_ERRNO - 1]++;
    }
    if (open) {
        kx_dist_add(&k->lat, e->t64 - s->th[idx].kc_t);
        kcall_row(s, idx, e, interrupted, ret, en);
        s->th[idx].kc_call = 0;
    } else if (s->sink.kcall) { // an exit without its entry (before the capture, or lost)
        struct kx_kcall_row r = { ++s->next_kc, 0, e->t64, idx, e->cpu, call, { 0 }, 0, 1,
                                  interrupted, ret, en };
        s->sink.kcall(s->sink.user, &r);
    }
}

static void int_event(struct kx_stats *s, const struct kev_event *e)
{
    uint32_t n = kx_int_irq(e);
    unsigned irq = n < KX_MAX_IRQ ? n : KX_MAX_IRQ - 1;
    unsigned cpu = e->cpu;
    struct kx_irq_stats *q = &s->irq[irq];
    int slot = s->cpu_open[cpu];
    switch (e->ev) {
    case KEV_INT_ENTER:
        if (!q->count)
            q->first = e->t64;
        q->count++;
        q->last = e->t64;
        s->cpu_irq[cpu] = irq + 1;
        s->cpu_irq_t[cpu] = s->cpu_hnd_t[cpu] = e->t64;
        if (slot >= 0) { // the one before never exited: no longer in progress
            s->cpu_open[cpu] = -1;
            if (s->irq_open[slot].row.how == KX_IRQ_NONE || s->irq_open[slot].row.t_th)
                irq_emit(s, slot);
        }
        slot = irq_slot(s);
        s->irq_open[slot] = (struct kx_irq_open){ { ++s->next_irq, n, cpu, e->t64, 0, 0, 0,
                                                    -1, 0, KX_IRQ_NONE, 0 }, 1, -1 };
        s->cpu_open[cpu] = slot;
        break;
    case KEV_INT_HANDLER_ENTER:
        s->cpu_hnd_t[cpu] = e->t64;
        if (slot >= 0)
            s->irq_open[slot].row.h0 = e->t64;
        break;
    case KEV_INT_HANDLER_EXIT:
        if (s->cpu_irq[cpu] == irq + 1)
            kx_dist_add(&q->handler, e->t64 - s->cpu_hnd_t[cpu]);
        if (slot >= 0)
            s->irq_open[slot].row.h1 = e->t64;
        break;
    case KEV_INT_EXIT:
        if (s->cpu_irq[cpu] == irq + 1)
            kx_dist_add(&q->total, e->t64 - s->cpu_irq_t[cpu]);
        s->cpu_irq[cpu] = 0;
        if (slot >= 0) {
            struct kx_irq_open *o = &s->irq_open[slot];
            o->row.t1 = e->t64;
            s->cpu_open[cpu] = -1;
            if (o->row.how == KX_IRQ_NONE || o->row.t_th)
                irq_emit(s, slot); // it woke nobody, or its thread has handled it already
        }
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

// An interrupt's pulse: sent while it runs (the interrupt now waits for its receiver), then
// received by a thread, which handles the interrupt then if it is running, else when it runs.
static void irq_pulse(struct kx_stats *s, const struct kev_event *e, enum kx_msg_step step,
                      const struct kx_msg *g)
{
    if (step == KX_MSG_SEND) {
        int slot = s->cpu_open[e->cpu];
        if (slot >= 0 && s->irq_open[slot].row.how != KX_IRQ_PULSE) {
            irq_unlink(s, slot); // a thread it woke before: its pulse's receiver decides
            s->irq_open[slot].row.how = KX_IRQ_PULSE;
            s->irq_open[slot].row.th = -1;
            s->irq_open[slot].row.msg = g->id;
        }
        return;
    }
    int slot = -1;
    for (unsigned i = 0; i < KX_MAX_IRQ_OPEN && slot < 0; i++)
        if (s->irq_open[i].used && s->irq_open[i].row.msg == g->id &&
            s->irq_open[i].row.how == KX_IRQ_PULSE && s->irq_open[i].row.th < 0)
            slot = (int)i;
    if (slot < 0 || g->server < 0)
        return;
    if (s->m.cur[e->cpu] == g->server && !s->m.irq[e->cpu]) {
        s->irq_open[slot].row.th = g->server; // received running: handled now
        irq_handled_at(s, slot, e->t64);
    } else {
        irq_wait_for(s, slot, g->server);     // received while blocked: when it runs
    }
}

static void chain_msg(struct kx_chains *c, enum kx_msg_step step, const struct kx_msg *g)
{
    if (step == KX_MSG_SEND)
        kx_chains_send(c, g->client, g->srv_pid);
    else if (step == KX_MSG_RECV)
        kx_chains_recv(c, g->client, g->server);
    else if (step == KX_MSG_REPLY)
        kx_chains_reply(c, g->client);
}

static void comm_event(struct kx_stats *s, const struct kev_event *e)
{
    const struct kx_msg *g;
    enum kx_msg_step step = kx_msgs_event(&s->q, &s->m, e, &g);
    if (g && g->pulse && g->irq && (step == KX_MSG_SEND || step == KX_MSG_RECV))
        irq_pulse(s, e, step, g);
    if (g && !g->pulse && g->client >= 0 && s->chains)        // who its client waits on
        chain_msg(s->chains, step, g);
    if (g && step == KX_MSG_SEND && g->timer && s->tasks) // a timer's expiry (kx_timer.h)
        s->msg_timer[g - s->q.m] = kx_tasks_timer(s->tasks, g->charge, g->timer, g->chid, e->t64);
    if (g && step == KX_MSG_RECV && g->server >= 0 && s->tasks) // a task's release (kx_task.h)
        kx_tasks_recv(s->tasks, g->server, s->m.cur[e->cpu] == g->server && !s->m.irq[e->cpu],
                      e->t64, g->t_send, g->pulse ? KX_REL_PULSE : KX_REL_MSG, g->client,
                      g->irq, g->pulse && g->timer ? s->msg_timer[g - s->q.m] : 0);
    if (g && s->sink.flow) {
        unsigned i = (unsigned)(g - s->q.m);
        static const struct kx_slice_ref none = { KX_SLICE_NONE, 0 };
        if (step == KX_MSG_SEND) {
            s->msg_out[i] = g->irq ? open_irq(s, e->cpu) : open_kcall(s, g->client);
            s->msg_in[i] = none;
        } else if (step == KX_MSG_RECV) {
            s->msg_in[i] = open_kcall(s, g->server);
            flow(s, KX_FLOW_SEND, s->msg_out[i], s->msg_in[i], e->t64, g->id);
        } else if (step == KX_MSG_REPLY) {
            flow(s, KX_FLOW_REPLY, s->msg_in[i], open_kcall(s, g->client), e->t64, g->id);
        }
        if (step == KX_MSG_REPLY || (step == KX_MSG_RECV && g->pulse))
            s->msg_out[i] = s->msg_in[i] = none;   // the record's flows are given
    }
    if (step == KX_MSG_RECV && g->pulse) {
        int ch = chan_of(s, g);
        if (ch >= 0)
            s->chan[ch].count++, kx_dist_add(&s->chan[ch].queue, g->t_recv - g->t_send);
        if (s->sink.msg)
            s->sink.msg(s->sink.user, g);
        return;
    }
    if (step != KX_MSG_REPLY)
        return;
    if (s->sink.msg)
        s->sink.msg(s->sink.user, g);
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
    if (s->emul)                    // (a tick gap in it is the trace's, not the target's)
        kx_emul_lost(s->emul, t0, t1);
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

// The wait analysis's open waits as the chains see them: each waiter's object and its holder now
// (a mutex's owner as it changes hands; else the one its SYNC_WAIT named).
static void chain_sync(struct kx_stats *s)
{
    const struct kw *k = s->kw;
    for (unsigned i = 0; i < k->nopen; i++) {
        const struct kw_wait *w = &k->wait[k->open[i]];
        int holder = w->obj >= 0 && k->obj[w->obj].owner_known ? k->obj[w->obj].owner : w->owner;
        unsigned kind = w->state == KEV_TH_MUTEX ? KX_LINK_MUTEX
                        : w->state == KEV_TH_SEM ? KX_LINK_SEM : KX_LINK_COND;
        kx_chains_sync(s->chains, w->th, kind, w->obj, holder);
    }
}

int kx_stats_damaged(const struct kx_stats *s)
{
    return s->r->kr_err != 0;
}

// A SYSTEM event: a function's entry or return (fbt, pid), a priority change, a timer's
// pulse sent or dropped, a program's image, a snapshot's entry.
static void system_event(struct kx_stats *s, const struct kev_event *e)
{
    unsigned cpu = e->cpu;
    if (e->ev == KEV_SYS_FUNC_ENTER || e->ev == KEV_SYS_FUNC_EXIT) {
        if (!s->funcs)
            s->funcs = kx_funcs_new();
        int fth = kx_cpu_thread(&s->m, cpu); // mid-switch (fbt in the choice): ONCPU's
        if (s->funcs)
            kx_funcs_event(s->funcs, e, fth, fth >= 0 ? s->m.th[fth].pid : 0, &s->sink);
        return;
    }
    if (e->ev == KEV_SYS_PRIO_CHANGE && e->nw >= 2)
        prio_change(s, e);
    if (e->ev == KEV_SYS_TIMER)     // its pulse follows (kx_msg.h)
        kx_msgs_timer(&s->q, cpu, kev_field(e, kx_fields()->timer_id),
                      kev_field(e, kx_fields()->timer_pid));
    if (e->ev == KEV_SYS_TIMER_LOST) // the kernel dropped the pulse just sent
        kx_msgs_pulse_lost(&s->q, cpu);
    if (e->ev == KEV_SYS_IMAGE) {   // where programs lie, for their functions' calls
        if (!s->funcs)
            s->funcs = kx_funcs_new();
        kx_funcs_image(s->funcs, s->r, e);
    }
    if (e->ev == KEV_SYS_DPROG || e->ev == KEV_SYS_DCOST)
        kx_dprog_event(s, e);
    snapshot_entry(s, e);
}

void kx_stats_event(struct kx_stats *s, const struct kev_event *e)
{
    unsigned cpu = e->cpu;
    if (e->cls == KEV_C_CONTROL) {
        uint32_t lost = e->ev == KEV_CTL_DROPPED ? kev_field(e, kx_fields()->dropped_lost) : 0;
        if (lost)
            new_gap(s, cpu, s->last_t[cpu] ? s->last_t[cpu] : e->t64, e->t64, lost, 0);
        kx_model_update(&s->m, e);
        return;
    }
    if (!s->events) {
        s->t_first = e->t64;
        for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
            s->acc_since[c] = e->t64;
        kx_load_init(&s->load, e->t64, 1);
    }
    if (cpu >= s->ncpu)
        s->ncpu = cpu + 1;
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
            thread_event(s, e, th = kx_thread(&s->m, kx_th_pid(e), kx_th_tid(e)));
        break;
    case KEV_C_KER_CALL: kcall_event(s, e); break;
    case KEV_C_INT: int_event(s, e); break;
    case KEV_C_COMM:
        if (!(s->skip & KX_SKIP_MSG))
            comm_event(s, e);
        break;
    case KEV_C_USER: user_event(s, e); break;
    case KEV_C_SYSTEM: system_event(s, e); break;
    default: break;
    }
    if (s->kw && !(s->skip & KX_SKIP_WAIT)) {
        kw_event(s->kw, e, th);
        if (s->chains && (e->cls == KEV_C_PR_TH || e->cls == KEV_C_SYSTEM ||
                          e->cls == KEV_C_KER_CALL))
            chain_sync(s);
    }
    int was_snapshot = s->m.in_snapshot;
    kx_model_update(&s->m, e);
    if (s->m.in_snapshot && e->cls == KEV_C_PR_TH && e->ev == KEV_TH_RUNNING && th >= 0 &&
        s->m.th[th].cpu >= 0)
        s->th[th].run_cpu = (unsigned)s->m.th[th].cpu + 1u; // where the model placed it
    if (s->emul)
        kx_emul_event(s->emul, e);
    if (was_snapshot && !s->m.in_snapshot)
        snapshot_cpus(s, e->t64);
    else if (!s->m.in_snapshot &&
             (e->cls == KEV_C_PR_TH || (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_SNAPSHOT)))
        for (unsigned c = 0; c < s->ncpu; c++) // who runs where may have changed
            cpu_account(s, c, e->t64);
    if (s->chains)
        kx_chains_step(s->chains, e->t64);
}

// Every task's instances judged, given to the sink in the order they were released.
static void tasks_finish(struct kx_stats *s)
{
    if (!s->tasks)
        return;
    for (unsigned th = 0; th < KX_MAX_THREADS; th++) { // pulses the kernel dropped, never purged
        unsigned lost = kx_msgs_purge(&s->q, (int)th, s->t_last + 1, 1);
        if (lost)
            kx_tasks_lost(s->tasks, (int)th, lost);
    }
    kx_tasks_finish(s->tasks, &s->m, s->t_last, s->r->kr_cycles_per_sec, s->emul);
    for (size_t i = 0; s->sink.inst && i < s->tasks->ninst; i++)
        s->sink.inst(s->sink.user, &s->tasks->inst[i]);
}

static void stats_feed(void *s, const struct kev_event *e)
{
    kx_stats_event(s, e);
}

void kx_stats_model(struct kx_pass *p, struct kx_stats *s)
{
    p->m = &s->m;
    p->feed = stats_feed;
    p->model = s;
}

void kx_stats_finish(struct kx_stats *s)
{
    const struct kev_reader *r = s->r;
    for (unsigned cpu = 0; r->kr_have_trailer && cpu < r->kr_trl_ncpu && cpu < KEV_MAX_CPUS; cpu++)
        if (r->kr_trl_lost[cpu] > r->kr_cpu[cpu].cs_lost_stream) // lost after the last buffer
            new_gap(s, cpu, s->last_t[cpu], s->t_last,
                    r->kr_trl_lost[cpu] - r->kr_cpu[cpu].cs_lost_stream, 1);
    if (s->emul)
        kx_emul_finish(s->emul); // the emulator's gaps and stalls, for the instances
    tasks_finish(s); // before the states below end: an instance still open stays open
    kx_dprog_finish(s, s->t_last);  // before the states below end, as the tasks
    // What is still open at the last event ends there: states (their end state unknown),
    // kernel calls (no exit), interrupts (not handled, or without an exit), waits.
    for (unsigned i = 0; i < s->m.nth; i++) {
        set_state(s, (int)i, KX_STATE_UNKNOWN, s->t_last);
        if (s->th[i].kc_call)
            kcall_row(s, (int)i, NULL, 0, 0, 0), s->th[i].kc_call = 0;
    }
    unsigned ncpu = s->ncpu > s->r->kr_trl_ncpu ? s->ncpu : s->r->kr_trl_ncpu;
    for (unsigned c = 0; c < ncpu && c < KEV_MAX_CPUS && s->events; c++)
        cpu_close(s, c, s->t_last);
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        s->cpu_open[c] = -1;
    kx_funcs_finish(s->funcs, &s->sink);
    for (uint64_t id = 1; id <= s->next_irq; ) { // in the interrupts' order
        int slot = -1;
        for (unsigned i = 0; i < KX_MAX_IRQ_OPEN; i++)
            if (s->irq_open[i].used && (slot < 0 || s->irq_open[i].row.id < s->irq_open[slot].row.id))
                slot = (int)i;
        if (slot < 0)
            break;
        id = s->irq_open[slot].row.id + 1;
        irq_emit(s, slot);
    }
    if (s->kw && !(s->skip & KX_SKIP_WAIT))
        kw_finish(s->kw);
    if (s->chains)
        kx_chains_finish(s->chains, s->t_last);
}
