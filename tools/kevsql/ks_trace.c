// SPDX-License-Identifier: MIT
// One trace opened by kev_open (ks.h): the file mapped (its pages are the file's, not the
// process's memory), the header's facts, and the first pass's small tables (threads,
// processes, CPUs' time, deadlock cycles), computed once, the first time a query needs them,
// by the same analysis model every other table and tool uses.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "ks.h"
#include <kevhost/kx_fields.h>
#include <kevhost/kx_pass.h>
#include <kevhost/kx_ids.h>
#include <kevhost/kx_chain_text.h>
#include <kevhost/tool_map.h>

SQLITE_EXTENSION_INIT3

// With rows kept (ks_keep_rows): the traces opened, each with a reference of this list's, so
// that a path opened again (a fresh connection of a fuzzer) is the same trace. Guarded by
// SQLite's third application mutex.
struct ks_open_trace {
    struct ks_trace *t;
    struct ks_open_trace *next;
};
static struct ks_open_trace *opened;

static struct ks_trace *opened_find(const char *path)
{
    for (struct ks_open_trace *o = opened; o; o = o->next)
        if (!strcmp(o->t->path, path)) {
            ks_trace_ref(o->t);
            return o->t;
        }
    return NULL;
}

static void opened_add(struct ks_trace *t)
{
    struct ks_open_trace *o = sqlite3_malloc(sizeof(*o));
    if (!o)
        return; // not kept: opened again next time
    o->t = t;
    o->next = opened;
    opened = o;
    ks_trace_ref(t);
}

static struct ks_trace *trace_open(const char *path, char **err);

struct ks_trace *ks_trace_open(const char *path, char **err)
{
    if (!ks_keep_max)
        return trace_open(path, err);
    sqlite3_mutex *mx = sqlite3_mutex_alloc(SQLITE_MUTEX_STATIC_APP3);
    sqlite3_mutex_enter(mx);
    struct ks_trace *t = opened_find(path);
    if (!t) {
        t = trace_open(path, err);
        if (t)
            opened_add(t);
    }
    sqlite3_mutex_leave(mx);
    if (t)
        t->strict = 1;
    return t;
}

static struct ks_trace *trace_open(const char *path, char **err)
{
    struct ks_trace *t = sqlite3_malloc(sizeof(*t));
    if (!t) {
        *err = sqlite3_mprintf("kev_open: out of memory");
        return NULL;
    }
    memset(t, 0, sizeof(*t));
    t->refs = 1;
    t->strict = 1;
    t->sym_gen = ks_syms_gen();
    t->path = sqlite3_mprintf("%s", path);
    t->data = tool_map_file(path, &t->len, &t->mapped);
    if (!t->data) {
        *err = sqlite3_mprintf("kev_open: %s: %s", path, strerror(errno));
        ks_trace_unref(t);
        return NULL;
    }
    t->r = sqlite3_malloc(sizeof(*t->r));
    if (!t->r || !t->path) {
        *err = sqlite3_mprintf("kev_open: out of memory");
        ks_trace_unref(t);
        return NULL;
    }
    if (kev_open(t->r, t->data, t->len)) {
        *err = sqlite3_mprintf("kev_open: %s: %s", path, kev_error(t->r));
        ks_trace_unref(t);
        return NULL;
    }
    t->hz = t->r->kr_cycles_per_sec ? t->r->kr_cycles_per_sec : 1;
    t->ns_per_cycle = 1000000000u % t->hz ? 0 : 1000000000u / t->hz;
    return t;
}

void ks_trace_ref(struct ks_trace *t)
{
    t->refs++;
}

void ks_trace_unref(struct ks_trace *t)
{
    if (!t || --t->refs > 0)
        return;
    ks_syms_forget(t);
    ks_kept_free(t);
    if (t->data)
        tool_unmap_file(t->data, t->len, t->mapped);
    sqlite3_free(t->r);
    sqlite3_free(t->path);
    sqlite3_free(t->th);
    sqlite3_free(t->row_th);
    sqlite3_free(t->proc);
    sqlite3_free(t->dl);
    sqlite3_free(t->inv);
    sqlite3_free(t->user);
    sqlite3_free(t->gap);
    sqlite3_free(t->inst);
    sqlite3_free(t->task);
    sqlite3_free(t);
}

void ks_trace_damaged(struct ks_trace *t, const struct kev_reader *r, int err)
{
    if (t->walk_err || err <= 0)
        return;
    t->walk_err = err;
    snprintf(t->walk_msg, sizeof(t->walk_msg), "%s", kev_error(r));
}

int64_t ks_ns(const struct ks_trace *t, uint64_t cycles)
{
    if (t->ns_per_cycle)            // a clock whose period is a whole number of ns
        return (int64_t)(cycles * t->ns_per_cycle);
    if (cycles <= UINT64_MAX / 1000000000u)
        return (int64_t)(cycles * 1000000000u / t->hz);
    return (int64_t)((unsigned __int128)cycles * 1000000000u / t->hz);
}

const char *ks_attr(const struct ks_trace *t, const char *key, char *buf, size_t n)
{
    unsigned len;
    const char *v = kev_attr(t->r, key, &len);
    if (!v)
        len = 0;
    if (len >= n)
        len = (unsigned)n - 1;
    if (len)
        memcpy(buf, v, len);
    buf[len] = 0;
    return buf;
}

// ---- the first pass ------------------------------------------------------------------------------

// The periods and deadlines kevsql was given (kx_timing_take, the tools' one parser), for every
// trace's task instances. Set before any trace is opened, read only after.
static struct kx_timing_set timing;

int ks_timing_take(int id, const char *val)
{
    return kx_timing_take(&timing, "kevsql", id, val);
}

struct pass {
    struct ks_trace *t;
    struct kx_stats *s;
    int64_t start[KX_MAX_THREADS], end[KX_MAX_THREADS];
    int64_t pstart[KX_MAX_PID], pend[KX_MAX_PID];
};

// An event before the analyses take it (kx_pass.h): the threads' and processes' spans.
static int pass_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                      struct kx_model *m)
{
    struct pass *p = user;
    (void)r, (void)m;
    if (e->cls != KEV_C_PR_TH || e->nw < 2 || p->s->m.in_snapshot)
        return 0;
    if (e->ev == KEV_TH_CREATE || e->ev == KEV_TH_DESTROY) {
        int th = kx_thread(&p->s->m, kx_th_pid(e), kx_th_tid(e));
        if (th >= 0)
            (e->ev == KEV_TH_CREATE ? p->start : p->end)[th] = (int64_t)e->t64;
    } else if (e->ev == KEV_PR_CREATE || e->ev == KEV_PR_CREATE_NAME) {
        if (kx_pr_pid(e) < KX_MAX_PID)
            p->pstart[kx_pr_pid(e)] = (int64_t)e->t64;
    } else if (e->ev == KEV_PR_DESTROY || e->ev == KEV_PR_DESTROY_NAME) {
        if (kx_pr_pid(e) < KX_MAX_PID)
            p->pend[kx_pr_pid(e)] = (int64_t)e->t64;
    }
    return 0;
}

static int add_proc(struct ks_trace *t, uint32_t pid, const struct pass *p, const char *name)
{
    for (unsigned i = 0; i < t->nproc; i++)
        if (t->proc[i].pid == pid) {
            if (!t->proc[i].name[0] && name)
                snprintf(t->proc[i].name, sizeof(t->proc[i].name), "%s", name);
            return 0;
        }
    struct ks_proc *q = sqlite3_realloc64(t->proc, (t->nproc + 1) * sizeof(*q));
    if (!q)
        return -1;
    t->proc = q;
    q = &t->proc[t->nproc++];
    memset(q, 0, sizeof(*q));
    q->pid = pid;
    q->ppid = kx_ppid(&p->s->m, pid);
    snprintf(q->name, sizeof(q->name), "%s", name ? name : "");
    q->start = pid < KX_MAX_PID && p->pstart[pid] ? p->pstart[pid] : -1;
    q->end = pid < KX_MAX_PID && p->pend[pid] ? p->pend[pid] : -1;
    return 0;
}

// copy_threads: the model's threads (their names, first and last times, idle or not) and the
// processes, those named with no thread seen too; the rows of the thread table. 0, or -1 out
// of memory.
static int copy_threads(struct ks_trace *t, const struct kx_stats *s, const struct kev_reader *r,
                        const struct pass *p)
{
    t->th = sqlite3_malloc64((s->m.nth + 1) * sizeof(*t->th));
    if (!t->th) {
        return -1;
    }
    for (unsigned i = 0; i < s->m.nth; i++) {
        struct ks_thread *x = &t->th[i];
        const struct kx_thread *m = &s->m.th[i];
        x->pid = m->pid, x->tid = m->tid;
        memcpy(x->name, m->name, sizeof(x->name));
        memcpy(x->comm, m->comm, sizeof(x->comm));
        snprintf(x->lname, sizeof(x->lname), "%s", kx_lcomm(&s->m, (int)i));
        x->start = p->start[i] ? p->start[i] : -1;
        x->end = p->end[i] ? p->end[i] : -1;
        x->idle = kx_is_idle(&s->m, (int)i);
        x->prio = m->prio;
        if (add_proc(t, m->pid, p, m->comm[0] ? m->comm : NULL)) {
            return -1;
        }
    }
    t->nth = s->m.nth;
    t->row_th = sqlite3_malloc64((s->m.nth + 1) * sizeof(*t->row_th));
    if (!t->row_th) {
        return -1;
    }
    t->row_th[t->nrow_th++] = -1;
    for (unsigned i = 0; i < s->m.nth; i++)
        if (!t->th[i].idle)
            t->row_th[t->nrow_th++] = (int)i;
    for (unsigned i = 0; i < r->kr_nprocs; i++) // processes named but without a thread seen
        if (add_proc(t, r->kr_procs[i].kn_pid, p, r->kr_procs[i].kn_name)) {
            return -1;
        }
    return 0;
}

// copy_deadlocks: the wait chains' deadlock cycles, one row per link. 0, or -1 out of memory.
static int copy_deadlocks(struct ks_trace *t, const struct kx_stats *s)
{
    const struct kx_chains *ch = s->chains;
    unsigned nl = 0;
    for (unsigned i = 0; ch && i < ch->ndl; i++)
        nl += ch->dl[i].n;
    t->dl = sqlite3_malloc64((nl + 1) * sizeof(*t->dl));
    if (!t->dl) {
        return -1;
    }
    for (unsigned i = 0; ch && i < ch->ndl; i++)
        for (unsigned j = 0; j < ch->dl[i].n; j++) {
            const struct kx_deadlock *c = &ch->dl[i];
            struct ks_dl *d = &t->dl[t->ndl++];
            d->cycle = i + 1, d->pos = j;
            d->th = c->th[j];
            d->owner = c->th[(j + 1) % c->n];
            kx_link_obj(s, &c->link[j], d->obj, sizeof(d->obj));
            d->t = (int64_t)c->t;
            d->broken = c->broken_t ? (int64_t)c->broken_t : -1;
        }
    return 0;
}

// copy_inversions: the priority inversions as kevstat lists them, one row per middle thread
// (at least one). 0, or -1 out of memory.
static int copy_inversions(struct ks_trace *t, const struct kx_stats *s)
{
    const struct kw *kw = s->kw;
    unsigned ni = 0;
    for (unsigned i = 0; kw && i < kw->ninv; i++)
        ni += kw->inv[i].nmid + (kw->inv[i].others != 0) + !kw->inv[i].nmid;
    t->inv = sqlite3_malloc64((ni + 1) * sizeof(*t->inv));
    if (!t->inv) {
        return -1;
    }
    for (unsigned i = 0; kw && i < kw->ninv; i++) {
        const struct kw_inv *v = &kw->inv[i];
        unsigned n = v->nmid + (v->others != 0);
        for (unsigned j = 0; j < n || (j == 0 && n == 0); j++) {
            struct ks_inv *x = &t->inv[t->ninv++];
            x->inv = i + 1;
            x->waiter = v->waiter, x->owner = v->owner;
            x->middle = j < v->nmid ? v->mid[j].th : -1;
            kx_wait_obj(s, v->obj, x->obj, sizeof(x->obj));
            x->count = v->count, x->lost = v->lost, x->max = v->max, x->first = v->first_t;
            x->mid_lost = j < v->nmid ? v->mid[j].lost : v->others;
        }
    }
    return 0;
}

// copy_rest: the user events' names, the loss gaps, the task instances and the tasks. 0, or
// -1 out of memory.
static int copy_rest(struct ks_trace *t, const struct kx_stats *s)
{
    t->user = sqlite3_malloc64((s->nuser + 1) * sizeof(*t->user));
    t->gap = sqlite3_malloc64((s->ngaps + 1) * sizeof(*t->gap));
    if (!t->user || !t->gap) {
        return -1;
    }
    for (unsigned i = 0; i < s->nuser; i++) {
        const char *nm = kx_user_name(s, s->user[i].pid, s->user[i].id);
        t->user[i] = (struct ks_user){ s->user[i].pid, s->user[i].id, "" };
        snprintf(t->user[i].name, sizeof(t->user[i].name), "%s", nm ? nm : "");
    }
    t->nuser = s->nuser;
    memcpy(t->gap, s->gap, s->ngaps * sizeof(*t->gap));
    t->ngap = s->ngaps;
    size_t nin = s->tasks ? s->tasks->ninst : 0;  // the task instances, judged at the end
    t->inst = sqlite3_malloc64((nin + 1) * sizeof(*t->inst));
    if (!t->inst) {
        return -1;
    }
    if (nin)
        memcpy(t->inst, s->tasks->inst, nin * sizeof(*t->inst));
    t->ninst = (unsigned)nin;
    unsigned ntk = s->tasks ? s->tasks->ntask : 0;
    t->task = sqlite3_malloc64((ntk + 1) * sizeof(*t->task));
    if (!t->task) {
        return -1;
    }
    if (ntk)
        memcpy(t->task, s->tasks->task, ntk * sizeof(*t->task));
    t->ntask = ntk;
    return 0;
}

int ks_trace_summary(struct ks_trace *t, char **err)
{
    if (t->have_summary) {
        if (t->summary_err && t->strict) {
            *err = sqlite3_mprintf("%s", t->summary_msg);
            return -1;
        }
        return 0;
    }
    struct pass *p = sqlite3_malloc(sizeof(*p));
    struct kev_reader *r = sqlite3_malloc(sizeof(*r));
    struct kx_stats *s = NULL;
    struct kx_src *src = NULL;
    int rc = -1;
    if (!p || !r || kev_open(r, t->data, t->len) || !(s = kx_stats_new(r)) ||
        !(src = kx_src_new(r))) {
        *err = sqlite3_mprintf("kev: out of memory");
        goto out;
    }
    memset(p, 0, sizeof(*p));
    p->t = t;
    p->s = s;
    if (s->tasks)
        kx_tasks_rules(s->tasks, &timing), kx_tasks_rules(s->tasks, &t->timing);
    struct kev_event e;
    int k;
    struct kx_pass walk = { .on_event = pass_event, .user = p };
    kx_stats_model(&walk, s);
    while ((k = kx_src_next(src, &e)) == 1)
        kx_pass_step(&walk, r, &e);
    kx_stats_finish(s);
    if (k == -1) {
        *err = sqlite3_mprintf("kev: out of memory");
        goto out;
    }
    if (k) {
        ks_trace_damaged(t, r, k);
        t->summary_err = k;
        t->summary_off = r->kr_err_off;
        snprintf(t->summary_msg, sizeof(t->summary_msg), "%s", kev_error(r));
    }
    if (copy_threads(t, s, r, p)) {
        *err = sqlite3_mprintf("kev: out of memory");
        goto out;
    }
    t->ncpu = r->kr_ncpu_seen > r->kr_trl_ncpu ? r->kr_ncpu_seen : r->kr_trl_ncpu;
    if (t->ncpu > KEV_MAX_CPUS)
        t->ncpu = KEV_MAX_CPUS;
    for (unsigned c = 0; c < t->ncpu; c++)
        t->cpu[c] = (struct ks_cpu_sum){ s->busy_t[c], s->idle_t[c], s->none_t[c] };
    t->t_first = s->t_first, t->t_last = s->t_last;
    t->events = s->events;
    t->lost = kev_lost_total(r);
    if (copy_deadlocks(t, s) || copy_inversions(t, s) || copy_rest(t, s)) {
        *err = sqlite3_mprintf("kev: out of memory");
        goto out;
    }
    t->have_summary = 1;
    rc = 0;
    if (t->summary_err && t->strict) {
        *err = sqlite3_mprintf("%s", t->summary_msg);
        rc = -1;
    }
out:
    kx_stats_delete(s);
    kx_src_free(src);
    sqlite3_free(r);
    sqlite3_free(p);
    return rc;
}
