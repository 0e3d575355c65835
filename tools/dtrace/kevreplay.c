// SPDX-License-Identifier: MIT
// dtrace -i: replays a .kev capture through the D engine. Each decoded event fires the probe
// the kernel hook would have fired (docs/d-probes.md) with the same arguments, at the
// board's time (cycles since boot converted to ns as the kernel does; walltimestamp from the
// header's boot date), on the event's CPU, in the context (pid, tid,
// execname) of the thread last seen running on that CPU. Events with no probe are skipped.
#define _GNU_SOURCE     /* strptime, timegm */
#include "kevreplay.h"
#include <d/dprobes.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev.h>
#include <trace/kev_decode.h>

struct replay {
    struct dvm_state *st;
    struct dcons *cons;
    volatile sig_atomic_t *stop;
    uint64_t switchrate, next_switch, cps, wall0;
    int started;
    unsigned ncpus, cpu_only;
    int32_t pid[DVM_MAXCPU], tid[DVM_MAXCPU];
    uint64_t next[64];
    struct dvm_ctx ctx;
};

static void consume(struct replay *p, int final)
{
    for (unsigned cpu = 0; cpu < p->st->opts.ncpu; cpu++)
        dvm_buf_read(p->st, cpu, final, dcons_record, p->cons);
    dcons_drops(p->cons);
}

static int done(struct replay *p)
{
    for (unsigned cpu = 0; cpu < p->st->opts.ncpu; cpu++)
        if (p->st->stats[cpu].filled)
            return 1;
    return p->st->exiting || *p->stop;
}

/* advance: capture time reaches t (ns since boot): timers and switches up to t. */
static void advance(struct replay *p, uint64_t t)
{
    const struct dif_obj *o = &p->st->obj;
    for (;;) {
        uint64_t when = p->next_switch;
        for (uint32_t k = 0; k < o->hdr->dh_nprobes && k < 64; k++)
            if (o->probes[k].dp_period && p->next[k] < when)
                when = p->next[k];
        if (when > t || done(p))
            return;
        p->ctx.timestamp = p->ctx.vtimestamp = when;
        p->ctx.walltimestamp = p->wall0 + when;
        if (when == p->next_switch) {
            consume(p, 0);
            p->next_switch += p->switchrate;
            continue;
        }
        for (uint32_t k = 0; k < o->hdr->dh_nprobes && k < 64; k++) {
            const struct dif_probe *pr = &o->probes[k];
            if (!pr->dp_period || p->next[k] != when)
                continue;
            uint64_t args[DVM_NARGS] = { 0 };
            unsigned n = pr->dp_flags & DIF_PRF_PROFILE ? p->ncpus : 1;
            for (p->ctx.cpu = 0; p->ctx.cpu < n; p->ctx.cpu++)
                if (!(pr->dp_flags & DIF_PRF_PROFILE) || !p->cpu_only ||
                    p->ctx.cpu == p->cpu_only - 1u)
                    dvm_fire(p->st, &p->ctx, pr->dp_id, args);
            p->next[k] += pr->dp_period;
        }
    }
}

/* probe_of: the probe an event fires and its arguments; 0 for none. */
static uint32_t probe_of(const struct kev_event *e, uint64_t *a)
{
    const uint32_t *w = e->w;
    unsigned nw = e->nw;
    for (unsigned k = 0; k < nw && k < DVM_NARGS; k++)
        a[k] = w[k];
    switch (e->cls) {
    case KEV_C_KER_CALL:
        if (e->ev < KEV_KC_MAX)
            return e->ev < DPROBE_KCALL_MAX ? DPROBE_KCALL_ENTRY(e->ev) : 0;
        if (e->ev < 2 * KEV_KC_MAX && e->ev - KEV_KC_MAX < DPROBE_KCALL_MAX) {
            int32_t ret;
            uint32_t err;
            /* arg0 as the board's D sees it: the result, or -errno on failure */
            if (kev_kcall_exit(e, &ret, &err))
                a[0] = err ? (uint64_t)-(int64_t)err : (uint64_t)(int64_t)ret;
            a[1] = e->ev - KEV_KC_MAX;
            return DPROBE_KCALL_RETURN(e->ev - KEV_KC_MAX);
        }
        return 0;
    case KEV_C_INT:
        if (nw < 1 || w[0] >= DPROBE_IRQ_MAX)
            return 0;
        if (e->ev == KEV_INT_ENTER)
            return DPROBE_IRQ_ENTRY(w[0]);
        if (e->ev == KEV_INT_EXIT)
            return DPROBE_IRQ_EXIT(w[0]);
        return 0;
    case KEV_C_PR_TH:
        if (e->ev == KEV_PR_CREATE || e->ev == KEV_PR_CREATE_NAME ||
            e->ev == KEV_PR_DESTROY || e->ev == KEV_PR_DESTROY_NAME) {
            if (nw < 2)
                return 0;
            a[0] = w[1];
            a[1] = w[0];
            return e->ev == KEV_PR_CREATE || e->ev == KEV_PR_CREATE_NAME ? DPROBE_PROC_CREATE
                                                                         : DPROBE_PROC_EXIT;
        }
        if (e->ev >= 64 || nw < 2)
            return 0;
        a[0] = w[1]; /* tid */
        a[1] = w[0]; /* pid */
        switch (e->ev) {
        case KEV_TH_RUNNING: return DPROBE_SCHED_ONCPU;
        case KEV_TH_READY: return DPROBE_SCHED_WAKEUP;
        case KEV_TH_SEND: return DPROBE_SCHED_BLOCK_SEND;
        case KEV_TH_RECEIVE: return DPROBE_SCHED_BLOCK_RECEIVE;
        case KEV_TH_REPLY: return DPROBE_SCHED_BLOCK_REPLY;
        case KEV_TH_MUTEX: return DPROBE_SCHED_BLOCK_MUTEX;
        case KEV_TH_CONDVAR: return DPROBE_SCHED_BLOCK_COND;
        case KEV_TH_SEM: return DPROBE_SCHED_BLOCK_SEM;
        case KEV_TH_NANOSLEEP: return DPROBE_SCHED_BLOCK_SLEEP;
        case KEV_TH_JOIN: return DPROBE_SCHED_BLOCK_JOIN;
        case KEV_TH_CREATE: return DPROBE_SCHED_CREATE;
        case KEV_TH_DESTROY: case KEV_TH_DEAD: return DPROBE_SCHED_EXIT;
        default: return 0;
        }
    case KEV_C_COMM:
        switch (e->ev) {
        case KEV_COMM_SND_MESSAGE: return DPROBE_MSG_SEND;
        case KEV_COMM_SND_PULSE: return DPROBE_MSG_PULSE;
        case KEV_COMM_REC_MESSAGE: return DPROBE_MSG_RECEIVE;
        case KEV_COMM_REPLY_MESSAGE: return DPROBE_MSG_REPLY;
        case KEV_COMM_MSG_ERROR: return DPROBE_MSG_ERROR;
        default: return 0;
        }
    case KEV_C_USER:
        a[0] = e->ev;
        for (unsigned k = 0; k < nw && k + 1 < DVM_NARGS; k++)
            a[k + 1] = w[k];
        return DPROBE_USER_EVENT;
    default:
        return 0;
    }
}

/* boot_date_ns: the header's TRACE_BOOT_DATE ("Sun Nov 22 10:50:32 UTC 2026", the board's
 * boot) in nanoseconds since 1970, the base of walltimestamp; 0 when absent or unreadable. */
static uint64_t boot_date_ns(const struct kev_reader *r)
{
    unsigned len;
    const char *v = kev_attr(r, "BOOT_DATE", &len);
    char buf[64];
    struct tm tm;
    if (!v || len >= sizeof(buf))
        return 0;
    memcpy(buf, v, len);
    buf[len] = '\0';
    memset(&tm, 0, sizeof(tm));
    const char *end = strptime(buf, "%a %b %d %H:%M:%S UTC %Y", &tm);
    if (!end)
        return 0;
    time_t secs = timegm(&tm);
    return secs > 0 ? (uint64_t)secs * 1000000000ull : 0;
}

static int on_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct replay *p = user;
    if (e->cls == KEV_C_CONTROL)
        return 0;
    /* timestamp: nanoseconds since boot from the event's cycle count, in the kernel's own
     * integer arithmetic (ktimer_cycles_to_ns), so that the host's value is the board's. */
    uint64_t hz = p->cps ? p->cps : 1000000000u;
    uint64_t t = (e->t64 / hz) * 1000000000ull + (e->t64 % hz) * 1000000000ull / hz;
    if (!p->started) {
        /* tick-N and profile-N count from the first event, as they would from a start there */
        p->started = 1;
        p->next_switch += t;
        for (uint32_t j = 0; j < p->st->obj.hdr->dh_nprobes && j < 64; j++)
            p->next[j] += t;
    }
    advance(p, t);
    if (done(p))
        return 1;
    unsigned cpu = e->cpu < p->ncpus ? e->cpu : 0;
    int fire = !p->cpu_only || cpu == p->cpu_only - 1u;   /* -x cpu: the CPU's state is kept */
    uint64_t a[DVM_NARGS] = { 0 };
    uint32_t id = probe_of(e, a);
    p->ctx.cpu = cpu;
    p->ctx.timestamp = p->ctx.vtimestamp = t;
    p->ctx.walltimestamp = p->wall0 + t;
    int thread_ev = e->cls == KEV_C_PR_TH && e->ev < 64 && e->nw >= 2;
    int same = thread_ev && p->tid[cpu] == (int32_t)e->w[1] && p->pid[cpu] == (int32_t)e->w[0];
    p->ctx.pid = p->pid[cpu];
    p->ctx.tid = p->tid[cpu];
    /* the running thread leaves the CPU: it changed state, or another one runs now */
    if (thread_ev && p->tid[cpu] &&
        (e->ev == KEV_TH_RUNNING ? !same : same)) {
        uint64_t off[DVM_NARGS] = { (uint64_t)p->tid[cpu],
                                    e->ev == KEV_TH_RUNNING ? KEV_TH_READY : e->ev };
        if (fire)
            dvm_fire(p->st, &p->ctx, DPROBE_SCHED_OFFCPU, off);
        p->tid[cpu] = p->pid[cpu] = 0;
    }
    if (id == DPROBE_SCHED_ONCPU && !same) {
        p->tid[cpu] = (int32_t)a[0];
        p->pid[cpu] = (int32_t)a[1];
    } else if (id == DPROBE_SCHED_ONCPU) {
        id = 0; /* still running: no new on-cpu */
    }
    p->ctx.pid = p->pid[cpu];
    p->ctx.tid = p->tid[cpu];
    const char *name = kev_proc_name(r, (uint32_t)p->pid[cpu]);
    p->ctx.execname = name ? name : "";
    if (id && fire)
        dvm_fire(p->st, &p->ctx, id, a);
    return done(p);
}

static uint8_t *read_file(const char *path, size_t *lenp)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, k;
    uint8_t *data = malloc(cap);
    while (data && (k = fread(data + len, 1, cap - len, f)) > 0)
        if ((len += k) == cap)
            data = realloc(data, cap *= 2);
    fclose(f);
    *lenp = len;
    return data;
}

unsigned kev_capture_ncpus(const char *path)
{
    size_t len;
    uint8_t *data = read_file(path, &len);
    static struct kev_reader r;
    unsigned n = 1;
    if (data && kev_open(&r, data, len) == 0) {
        n = r.kr_have_trailer ? r.kr_trl_ncpu : r.kr_board_ncpu;
        if (!n) {               /* neither says: the CPUs the events come from */
            kev_decode(&r);
            n = r.kr_ncpu_seen;
        }
    }
    free(data);
    return n < 1 ? 1 : n > DVM_MAXCPU ? DVM_MAXCPU : n;
}

int kev_replay(const char *path, struct dvm_state *st, struct dcons *cons,
               uint64_t switchrate_ns, unsigned ncpus, unsigned cpu_only,
               volatile sig_atomic_t *stop)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "dtrace: failed to open %s\n", path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0, k;
    uint8_t *data = malloc(cap);
    while ((k = fread(data + len, 1, cap - len, f)) > 0)
        if ((len += k) == cap)
            data = realloc(data, cap *= 2);
    fclose(f);
    static struct kev_reader r;
    static struct replay p;
    memset(&p, 0, sizeof(p));
    if (kev_open(&r, data, len) != 0) {
        fprintf(stderr, "dtrace: cannot read %s: %s\n", path, kev_error(&r));
        free(data);
        return -1;
    }
    p.st = st;
    p.cons = cons;
    p.stop = stop;
    p.switchrate = switchrate_ns;
    p.next_switch = switchrate_ns;
    p.cps = r.kr_cycles_per_sec;
    p.wall0 = boot_date_ns(&r);
    p.ncpus = ncpus;
    p.cpu_only = cpu_only;
    p.ctx.execname = "";
    for (uint32_t j = 0; j < st->obj.hdr->dh_nprobes && j < 64; j++)
        p.next[j] = st->obj.probes[j].dp_period;
    dvm_fire_begin(st, &p.ctx);
    consume(&p, 0);
    kev_set_user(&r, &p);
    kev_on_any(&r, on_event);
    int rc = kev_decode(&r);
    int damaged = rc != KEV_OK && rc != KEV_ERR_STOPPED;
    if (damaged)
        fprintf(stderr, "dtrace: %s: %s (replayed up to there)\n", path, kev_error(&r));
    consume(&p, 0);
    free(data);
    return damaged ? 1 : 0;
}
