// SPDX-License-Identifier: MIT
// dtrace -i: replays a .kev capture through the D engine. Each decoded event fires the probes
// its row's D column in the event table names (kevreplay_table.c), the ones the kernel's site
// fired (docs/d-probes.md), with the same arguments, at the board's time (cycles since boot
// converted to ns as the kernel does; walltimestamp from the header's boot date), on the
// event's CPU, in the context (pid, tid, execname) of the thread whose context that CPU is in.
// Events with no probe are skipped. The capture's threads, processes and what each CPU runs
// are the analysis model every reader shares (kevhost/kx.h), which each event reaches through
// the model pass (kx_pass.h) after the probes it fires have read the state before it (a new
// process's and thread's, after: the kernel creates them before their probes fire); what only
// D needs beside it is kevreplay_ctx.h's. The column's derived probes: the sched and proc
// probes are the kernel's rules themselves (trace/kev_derived.h, which kev_emit.h fires live),
// fed with each thread's state and priority as the model holds them;
// lockstat's follow the kernel's table (d/lockstat.h, kernel/ktrace_sync.c) from each SYNC_*
// call; the probes a capture holds no event for are named once on stderr (no_capture_note).
#include "kevreplay.h"
#include "kevreplay_stacks.h"
#include <kevhost/kev_input.h>
#include <sys/stat.h>
#include <kevhost/kev_live.h>
#include "kevreplay_args.h"
#include "kevreplay_table.h"
#include "kevuname.h"
#include "kevdevinfo.h"
#include <d/dprinfo.h>
#include <d/dprobes.h>
#include <d/dfbt.h>
#include <d/dutext.h>
#include <d/dtimers.h>
#include <d/lockstat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev.h>
#include <trace/period_due.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>
#include <trace/kev_derived.h>
#include <kevhost/kx_fields.h>
#include <kevhost/kx_pass.h>
#include <kevhost/tool_file.h>
#include <uapi/kcall.h>
#include <uapi/kdtrace.h>
#include "kevreplay_ctx.h"

struct replay {
    struct dvm_state *st;
    struct dcons *cons;
    volatile sig_atomic_t *stop;
    uint64_t switchrate, next_switch, cps, wall0;
    int started;
    unsigned ncpus, cpu_only;
    unsigned ntimers;                 /* the program's tick-N and profile-N probes, all of them: */
    uint32_t *timer;                  /* each one's probe index */
    uint64_t *next;                   /* and its next time (ns since boot) */
    struct dvm_ctx ctx;
    uint64_t now_cycles;              /* the event's time, in cycles since boot */
    int firing;                       /* this event's CPU fires probes (-x cpu) */
    struct rstack_census stacks;      /* the capture's STACK samples, FAULTs, ONCPU events */
    uint64_t t0;                      /* ns of the first event */
    const struct dfbt *fbt;           /* the kernel's fbt table (--kernel), or NULL */
    uint16_t *fbt_pidx;               /* fbt id - DPROBE_FBT_BASE -> the program's probe + 1 */
    int32_t pid_target;               /* the process pid$target probes fire in (0: not yet) */
    int window;                       /* the capture holds a D program's span (DPROG events):
                                       * the replay fires from its go to its stop alone */
    int goless;                       /* it holds that program's stop but not its go: the
                                       * replay fires from its first event to the stop */
    int stopped;                      /* that stop was reached: END's context is p->end */
    uint32_t consumer;                /* the board's dtrace's thread (the span's go) */
    int board_reads;                  /* the capture holds its kernel calls: the records are
                                       * consumed where it read them, not at the switch rate */
    int timer_events;                 /* its timers fire at the capture's DTIMER events (the
                                       * board's program had the same timers), not by time */
    struct dvm_ctx end;
    char end_exec[64];                /* END's execname, kept past the reader */
    int spawn_nameless;               /* a failed spawn's proc:::exec was said to have no name */
    struct kev_reader *r;
    struct kx_model *m;               /* the capture's threads, processes, CPUs (kevhost/kx.h) */
    struct rctx *c;                   /* what only D needs beside them (kevreplay_ctx.h) */
    struct kx_pass pass;              /* each event: replay_before, the model, replay_after */
    int after;                        /* replay_before left the event's creations to after */
};

/* the replay under way, for dvm_lwpinfo (the engine's hooks are globals) */
static struct replay *replay_now;
/* the model and D's context of the replay under way (one at a time; kept past it for END:
 * kev_replay_pid_max) */
static struct kx_model replay_model;
static struct rctx replay_ctx;

/* th_of: the model's index of thread who (added when new; KX_NO_THREAD: none, a full model). */
static int th_of(struct replay *p, uint32_t who)
{
    return who ? kx_thread(p->m, kev_who_pid(who), kev_who_tid(who)) : KX_NO_THREAD;
}

/* who_of: thread idx's who (0: none). */
static uint32_t who_of(const struct replay *p, int idx)
{
    return idx >= 0 ? kev_who_of(p->m->th[idx].pid, p->m->th[idx].tid) : 0u;
}

/* th_state: thread idx's state (KX_STATE_UNKNOWN: not seen), the one it enters while its
 * change fires. */
static unsigned th_state(const struct replay *p, int idx)
{
    if (idx < 0)
        return KX_STATE_UNKNOWN;
    const struct rctx_thread *c = rctx_thread(p->c, idx);
    return c->changing ? c->entering : p->m->th[idx].state;
}

/* th_prio: thread idx's priority, 0 when the capture has not said it. */
static uint32_t th_prio(const struct replay *p, int idx)
{
    return idx >= 0 && p->m->th[idx].prio > 0 ? (uint32_t)p->m->th[idx].prio : 0u;
}

/* cpu_thread: the thread whose context cpu is in, as the kernel's k_current: the one running
 * there; between its leaving and the next one's RUNNING, still the one that left (the kernel
 * ends the call or takes the interrupt in its context); else the one the CPU's last ONCPU
 * named; KX_NO_THREAD when the capture has not said. */
static int cpu_thread(const struct replay *p, unsigned cpu)
{
    const struct kx_model *m = p->m;
    return m->cur[cpu] >= 0 ? m->cur[cpu] : m->prev[cpu] >= 0 ? m->prev[cpu] : m->oncpu[cpu];
}

/* dvm_lwpinfo (d/dprinfo.h) for the host's dtrace: over a capture, from the model, as the
 * kernel's reads its own; when the host runs a program itself (BEGIN, tick-N, END, no
 * capture), every firing is the consumer's: one thread, running. */
int dvm_lwpinfo(uint32_t who, struct dvm_lwpinfo *out)
{
    struct replay *p = replay_now;
    uint32_t pid = kev_who_pid(who);
    if (!p) {
        out->state = out->left = KEV_TH_RUNNING;
        out->nlwp = 1;
        out->fname = "dtrace";
        return 0;
    }
    if (pid) {
        const struct kx_proc *q = kx_proc(p->m, pid);
        const char *name = kev_proc_name(p->r, pid);
        if (!q && !name)
            return -1;
        out->ppid = q ? (int32_t)q->parent : 0;
        out->nlwp = q ? q->nlwp : 0;
        out->fname = name;
    } else {
        out->ppid = 0;
        out->nlwp = 1;
        out->fname = "kernel";
    }
    if (!kev_who_tid(who))
        return 0;
    int idx = kx_thread_find(p->m, pid, kev_who_tid(who));
    if (th_state(p, idx) == KX_STATE_UNKNOWN)
        return -1;
    out->state = (uint8_t)th_state(p, idx);
    const struct rctx_thread *c = rctx_thread(p->c, idx);
    out->left = c->changing ? c->left : (uint8_t)th_state(p, idx);
    out->cpu = (uint8_t)(p->m->th[idx].last_cpu > 0 ? p->m->th[idx].last_cpu : 0);
    out->idle = pid == 0;
    return 0;
}

/* dvm_ppid (d/dprinfo.h) for the host's dtrace: over a capture the model's processes (a process
 * the capture never named is unknown); running a program itself, the host's processes, whose
 * parent /proc/PID/stat gives (its fourth field, after the name in parentheses). */
int dvm_ppid(int32_t pid, int32_t *ppid)
{
    if (replay_now) {
        const struct kx_proc *q = pid > 0 ? kx_proc(replay_now->m, (uint32_t)pid) : NULL;
        if (!q && (pid <= 0 || pid > 0xffff || !kev_proc_name(replay_now->r, (uint32_t)pid)))
            return -1;
        *ppid = q ? (int32_t)q->parent : 0;
        return 0;
    }
    char path[32], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    const char *e = strrchr(buf, ')');
    int v;
    if (!e || sscanf(e + 1, " %*c %d", &v) != 1)
        return -1;
    *ppid = v;
    return 0;
}

static void consume(struct replay *p, int final)
{
    for (unsigned cpu = 0; cpu < p->st->opts.ncpu; cpu++)
        dvm_buf_read(p->st, cpu, final, dcons_record, p->cons);
    dcons_drops(p->cons);
}

static int done(struct replay *p)
{
    return dvm_stats_total(p->st).filled || p->st->exiting || *p->stop;
}

/* in_span: the replay is within a D program's span, before its stop. When nothing fires any
 * more (exit( ), a full buffer) the span still goes on to its stop, where the board fired END:
 * the replay reads on to it for END's time and context. */
static int in_span(const struct replay *p)
{
    return p->window && p->started && !p->stopped && !*p->stop;
}

/* timer_period: probe k's period when it fires by capture time; 0 when it does not (not a
 * timer, or a profile-N probe of a capture with stack samples: it fires at the samples). */
static uint64_t timer_period(const struct replay *p, uint32_t k)
{
    const struct dif_probe *pr = &p->st->obj.probes[k];
    if (p->timer_events)
        return 0;
    if (p->stacks.samples && (pr->dp_flags & DIF_PRF_PROFILE))
        return 0;
    return pr->dp_flags ? pr->dp_period : 0;   /* (a USDT site's is its address) */
}

static void set_ctx(struct replay *p, struct kev_reader *r, unsigned cpu);

/* timer_due: a timer that fires by capture time is due at when. */
static int timer_due(const struct replay *p, uint64_t when)
{
    for (unsigned i = 0; i < p->ntimers; i++)
        if (timer_period(p, p->timer[i]) && p->next[i] == when)
            return 1;
    return 0;
}

/* advance: capture time reaches t (ns since boot): timers and switches up to t. A timer due at
 * a switch's time fires before it, so that the switch consumes what it did (tick-1s at the
 * default 1 s switch rate: each printa( ) shows one second, the first one too). A profile-N
 * probe without samples fires on every CPU in the context of the thread the capture says ran
 * there; its arg0/arg1 (the interrupted pc) are 0, which rstacks_begin says: the capture holds
 * no pc for those moments. */
static void advance(struct replay *p, struct kev_reader *r, uint64_t t)
{
    const struct dif_obj *o = &p->st->obj;
    for (;;) {
        uint64_t when = UINT64_MAX;
        for (unsigned i = 0; i < p->ntimers; i++)
            if (timer_period(p, p->timer[i]) && p->next[i] < when)
                when = p->next[i];
        if (p->next_switch < when)
            when = p->next_switch;
        if (when > t || done(p))
            return;
        p->ctx.timestamp = p->ctx.vtimestamp = when;
        p->ctx.walltimestamp = p->wall0 + when;
        if (when == p->next_switch && !timer_due(p, when)) {
            consume(p, 0);
            p->next_switch += p->switchrate;
            continue;
        }
        for (unsigned i = 0; i < p->ntimers; i++) {
            uint32_t k = p->timer[i];
            const struct dif_probe *pr = &o->probes[k];
            if (!timer_period(p, k) || p->next[i] != when)
                continue;
            uint64_t args[DVM_NARGS] = { 0 };
            if (!(pr->dp_flags & DIF_PRF_PROFILE)) {
                p->ctx.cpu = 0;     /* tick-N: one CPU, the board's CPU 0 */
                dvm_fire(p->st, &p->ctx, pr->dp_id, args);
            } else {
                struct dvm_ctx keep = p->ctx;
                for (unsigned cpu = 0; cpu < p->ncpus; cpu++)
                    if (!p->cpu_only || cpu == p->cpu_only - 1u) {
                        set_ctx(p, r, cpu);
                        dvm_fire(p->st, &p->ctx, pr->dp_id, args);
                    }
                p->ctx = keep;
            }
            p->next[i] += pr->dp_period;
        }
    }
}

/* msg_seen: a message's connection and size, which the board's msg probes give as arg0 and
 * arg2 (kernel/ktrace.c kdt_msg) and no COMM event carries: the client's MsgSend's first and
 * third arguments, remembered by receive id (which names the client thread) from its entry
 * event when its SND_MESSAGE comes, in the client's context. */
static void msg_seen(struct replay *p, const struct kev_event *e, unsigned cpu)
{
    if (e->cls != KEV_C_COMM || e->ev != KEV_COMM_SND_MESSAGE || e->nw < 2)
        return;
    struct rctx_msg *m = rctx_msg(p->c, kx_comm_rcvid(e));
    int cur = cpu_thread(p, cpu);
    const struct rctx_thread *c = cur >= 0 ? rctx_thread(p->c, cur) : NULL;
    int sent = c && c->kc_open && c->kc == KC_MsgSend;
    m->coid = sent ? c->kc_a[0] : 0;
    m->bytes = sent && c->kc_nw > 2 ? c->kc_a[2] : 0;
    m->coid_known = (uint8_t)sent;
    m->bytes_known = (uint8_t)(sent && c->kc_nw > 2);
}

/* site_value: the values the table's D column names ?NAME (rtable_site_fn): a message's
 * connection and size, by the event's receive id (msg_seen); the priority of the event's
 * thread (ONCPU's on-cpu), as the replay keeps it; an exit status is in no event. */
static int site_value(void *user, const char *name, const struct kev_fields *fs, uint64_t *v)
{
    struct replay *p = user;
    const struct kev_field *who = kev_field_get(fs, "who");
    if (!strcmp(name, "prio") && who) {
        *v = (uint8_t)th_prio(p, th_of(p, (uint32_t)who->v));
        return 1;
    }
    const struct kev_field *id = kev_field_get(fs, "rcvid");
    int coid = !strcmp(name, "coid"), bytes = !strcmp(name, "bytes");
    if (!id || (!coid && !bytes))
        return 0;
    const struct rctx_msg *m = rctx_msg(p->c, (uint32_t)id->v);
    *v = coid ? m->coid : m->bytes;
    return coid ? m->coid_known : m->bytes_known;
}

/* rargs_why_of: the note a missing argument of the D column's takes (kevreplay_args.h). */
static int rargs_why_of(const char *name)
{
    return !strcmp(name, "$words") ? RARGS_KCALL_FAST : !strcmp(name, "coid") ? RARGS_MSG_COID
           : !strcmp(name, "bytes") ? RARGS_MSG_BYTES : !strcmp(name, "status")
           ? RARGS_EXIT_STATUS : -1;
}

/* The payload of the user event being replayed, where copyin( )/copyinstr( ) at DUTEXT_ADDR
 * read it (d/dutext.h), as the kernel serves the bytes it stored. A capture holds no other
 * memory: any other address is a fault. A payload with no NUL faults at its end. */
static struct dutext replay_text;
static uint8_t replay_bytes[8u * KEV_MAX_COMBINE_SLOTS];

static int replay_uread(void *dst, uint64_t addr, unsigned n)
{
    return dutext_read(&replay_text, dst, addr, n) > 0 ? 0 : -1;
}

/* replay_nrunnable: dvm_nrunnable over the capture: its threads READY now, the idle ones (pid
 * 0) aside, as the board's one ready queue held them. With several CPUs the capture does not
 * say whose queue a ready thread is on (a READY event is the waking CPU's, and another CPU
 * may take it): 0, said once. */
static int32_t replay_nrunnable(unsigned cpu)
{
    static int said;
    const struct replay *p = replay_now;
    int32_t n = 0;
    (void)cpu;
    if (p && p->ncpus > 1) {
        if (!said++)
            fprintf(stderr, "dtrace: curthread->t_cpu->cpu_disp->disp_nrunnable: a capture of "
                    "%u CPUs does not say which CPU's ready queue holds a thread: it reads 0 "
                    "over the capture (live, the board counts its queues)\n", p->ncpus);
        return 0;
    }
    for (unsigned k = 0; p && k < p->m->nth; k++)
        n += th_state(p, (int)k) == KEV_TH_READY && p->m->th[k].pid;
    return n;
}

/* cycles_ns: a cycle count in nanoseconds, in the kernel's own integer arithmetic
 * (ktimer_cycles_to_ns), so that the host's value is the board's. */
static uint64_t cycles_ns(const struct replay *p, uint64_t c)
{
    uint64_t hz = p->cps ? p->cps : 1000000000u;
    return (c / hz) * 1000000000ull + (c % hz) * 1000000000ull / hz;
}

/* vtime_switch: thread idx is RUNNING on cpu from the event's time: vtimestamp's clocks switch
 * as the board's do at that event (kernel/kdtrace.c vtime_switch_locked): the clock of the
 * thread that ran there stops, idx's starts; a thread still counted on the CPU it left
 * (another CPU ran it first) is closed there. */
static void vtime_switch(struct replay *p, unsigned cpu, int idx)
{
    uint64_t now = p->now_cycles ? p->now_cycles : 1u;     /* (vt_since 0: not running) */
    struct rctx_cpu *c = &p->c->cpu[cpu];
    if (idx == c->vt_running)
        return;
    if (c->vt_running >= 0) {
        struct rctx_thread *o = rctx_thread(p->c, c->vt_running);
        if (o->vt_since) {
            o->vt += now - o->vt_since;
            o->vt_since = 0;
        }
    }
    struct rctx_thread *t = rctx_thread(p->c, idx);
    if (t->vt_since) {
        for (unsigned k = 0; k < DVM_MAXCPU; k++)
            if (k != cpu && p->c->cpu[k].vt_running == idx)
                p->c->cpu[k].vt_running = KX_NO_THREAD;
        t->vt += now - t->vt_since;
    }
    c->vt_running = idx;
    t->vt_since = now;
}

/* set_ctx_of: the context of thread idx on cpu (the board's fill_ctx; KX_NO_THREAD: none the
 * capture has said): its vtimestamp is its clock at the event's time, converted once. */
static void set_ctx_of(struct replay *p, unsigned cpu, int idx)
{
    uint32_t who = who_of(p, idx);
    p->ctx.cpu = cpu;
    uint32_t pid = kev_who_pid(who);
    p->ctx.pid = (int32_t)pid;
    p->ctx.tid = (int32_t)kev_who_tid(who);
    p->ctx.prio = (uint8_t)th_prio(p, idx);
    if (who) {  /* vtimestamp: its time on a CPU, as the kernel counts it from the switches */
        const struct rctx_thread *t = rctx_thread(p->c, idx);
        p->ctx.vtimestamp = cycles_ns(p, t->vt + (t->vt_since ? p->now_cycles - t->vt_since : 0));
    }
    const char *name = pid ? kev_proc_name(p->r, pid) : "kernel";
    p->ctx.execname = name ? name : "";
    const struct kx_proc *q = pid ? kx_proc(p->m, pid) : NULL;
    p->ctx.ppid = q ? (int32_t)q->parent : 0;
    p->ctx.nlwp = pid ? (q ? q->nlwp : 0) : 1;
}

/* set_ctx: the context of the thread whose context cpu is in (cpu_thread). */
static void set_ctx(struct replay *p, struct kev_reader *r, unsigned cpu)
{
    (void)r;
    set_ctx_of(p, cpu, cpu_thread(p, cpu));
}

static void fire4(struct replay *p, uint32_t id, uint64_t a0, uint64_t a1, uint64_t a2,
                  uint64_t a3)
{
    uint64_t a[DVM_NARGS] = { a0, a1, a2, a3 };
    if (p->firing)
        dvm_fire(p->st, &p->ctx, id, a);
}

/* A rule's firings (trace/kev_derived.h) as the replay takes them (kev_derived_take), about
 * thread t on cpu: each in p->ctx, the context the caller set (the site's, or the thread the
 * rule is about, or the one going off: the caller's to set); under t's parent's name where the
 * rule says so (KEV_DAS_PARENT: its CREATE's parent, "kernel" without one); exec's args[0] the
 * program's name (kev_dfire_program): `program`, else t's process's as the capture names it. The
 * switch step is switch_to's. */
struct rule_site {
    struct replay *p;
    int t;
    unsigned cpu;
    const char *program;
};

static void switch_to(struct replay *p, int t, unsigned cpu);

static void rule_fire(void *user, const struct kev_dfire *f)
{
    const struct rule_site *s = user;
    struct replay *p = s->p;
    const char *own = p->ctx.execname;
    uint32_t pid = kev_who_pid(who_of(p, s->t));
    if (f->as == KEV_DAS_PARENT) {
        const struct kx_proc *q = kx_proc(p->m, pid);
        const char *parent = q && q->parent ? kev_proc_name(p->r, q->parent) : "kernel";
        p->ctx.execname = parent ? parent : "";
    }
    if (kev_dfire_program(f)) {
        const char *name = s->program ? s->program : kev_proc_name(p->r, pid);
        replay_text.p = (const uint8_t *)(name ? name : "");
        replay_text.len = (uint32_t)strlen((const char *)replay_text.p) + 1u;
    }
    uint64_t a[DVM_NARGS] = { 0 };
    for (unsigned k = 0; k < f->n && k < KEV_DFIRE_ARGS; k++)
        a[k] = f->a[k];
    if (p->firing)
        dvm_fire(p->st, &p->ctx, f->id, a);
    replay_text.p = NULL;
    replay_text.len = 0;
    p->ctx.execname = own;
}

static void rule_step(void *user, uint32_t id)
{
    const struct rule_site *s = user;
    (void)id;   /* (KEV_DSTEP_SWITCH, the one step) */
    switch_to(s->p, s->t, s->cpu);
}

/* take: rule firings f (n of them) about model thread t on cpu (KX_NO_THREAD, 0: a rule that
 * names no thread's parent, program or step), exec's program `program` (NULL: t's process's). */
static void take(struct replay *p, int t, unsigned cpu, const char *program,
                 const struct kev_dfire *f, unsigned n)
{
    struct rule_site s = { p, t, cpu, program };
    const struct kev_dtake k = { rule_fire, rule_step, &s };
    kev_derived_take(f, n, &k);
}

/* fbt_fire: fbt::F:entry or :return for a FUNC_ENTER or FUNC_EXIT event, as the kernel's trap
 * fired it (kernel/kfbt_fire.c): the function by its address (this_fn), return with arg0
 * the returning instruction's offset and arg1 the value, typed as the table types it. An
 * entry's arguments are not in the event: 0 (said once, no_capture_note). */
static void fbt_fire(struct replay *p, const struct kev_event *e)
{
    if (!p->fbt_pidx || e->nw < 2 || !p->firing)
        return;
    int ret = e->ev == KEV_SYS_FUNC_EXIT;
    uint64_t thumb = p->fbt->hdr->dh_arch == DFBT_ARCH_THUMB2 ? 1u : 0u;
    int f = dfbt_lookup(p->fbt, kev_field(e, kx_fields()->func_fn[ret]) & ~thumb);
    if (f < 0)
        return;
    uint16_t k = p->fbt_pidx[2u * (unsigned)f + (unsigned)ret];
    if (!k)
        return;
    uint64_t a[DVM_NARGS] = { 0 };
    if (ret && e->nw >= 4) {
        unsigned type = p->fbt->funcs[f].df_ret_type, size = DFBT_T_SIZE(type);
        uint64_t v = 0;
        kev_field_read(e, kx_fields()->fexit_value, &v);
        if (type & DFBT_T_PTR)
            size = p->fbt->hdr->dh_arch == DFBT_ARCH_A64 ? 8 : 4;
        if (size && size < 8) {
            unsigned sh = 64u - 8u * size;
            v = (type & DFBT_T_SIGNED) ? (uint64_t)((int64_t)(v << sh) >> sh) : v << sh >> sh;
        }
        a[0] = kev_field(e, kx_fields()->fexit_offset);
        a[1] = v;
    }
    dvm_fire_probe(p->st, &p->ctx, k - 1u, a);
}

/* pid_on: whether the object has a pid probe (a return's when ret) on the function at fn. */
static int pid_on(const struct dif_obj *o, uint32_t fn, int ret)
{
    for (uint32_t k = 0; k < o->hdr->dh_nprobes; k++) {
        const struct dif_probe *pr = &o->probes[k];
        if (DPROBE_IS_PID(pr->dp_id) && (int)((pr->dp_id - DPROBE_PID_BASE) & 1u) == ret &&
            (ret ? pr->dp_pad : (uint32_t)pr->dp_period) == fn)
            return 1;
    }
    return 0;
}

/* pid_fire: the pid probes of a FUNC event's program function (docs/pid.md): an entry's by
 * the function's address, a return's by the returning instruction's (the function plus the
 * offset), in the process the probe names; pid$target's is the first process a pid
 * event of a $target probe comes from, as the kernel binds it. An entry's arguments are not
 * in the event: 0, as fbt's. The event names a Thumb function with bit 0 set and any other
 * by its address (x86's may be odd): the address itself when a probe is on it, else without
 * bit 0. Returns 1 when the object has a pid probe on that function. */
static int pid_fire(struct replay *p, const struct kev_event *e)
{
    const struct dif_obj *o = &p->st->obj;
    int ret = e->ev == KEV_SYS_FUNC_EXIT, known = 0;
    if (e->nw < 2 || (ret && e->nw < 4))
        return 0;
    uint32_t this_fn = kev_field(e, kx_fields()->func_fn[ret]);
    uint32_t fn = pid_on(o, this_fn, ret) ? this_fn : this_fn & ~1u;
    uint32_t at = ret ? fn + kev_field(e, kx_fields()->fexit_offset) : fn;
    for (uint32_t k = 0; k < o->hdr->dh_nprobes; k++) {
        const struct dif_probe *pr = &o->probes[k];
        if (!DPROBE_IS_PID(pr->dp_id) || (int)((pr->dp_id - DPROBE_PID_BASE) & 1u) != ret ||
            (uint32_t)pr->dp_period != at || (ret && pr->dp_pad != fn))
            continue;
        known = 1;
        uint32_t want = (uint32_t)(pr->dp_period >> 32);
        if (want == DPROBE_PID_TARGET) {
            if (!p->pid_target)
                p->pid_target = p->ctx.pid;
            want = (uint32_t)p->pid_target;
        }
        if (!p->firing || (uint32_t)p->ctx.pid != want)
            continue;
        uint64_t a[DVM_NARGS] = { 0 };
        if (ret) {
            a[0] = kev_field(e, kx_fields()->fexit_offset);
            kev_field_read(e, kx_fields()->fexit_value, &a[1]);
        }
        dvm_fire_probe(p->st, &p->ctx, k, a);
    }
    return known;
}

/* usdt_fire: the USDT probes of the site a USDT event names (docs/usdt.md), with the
 * arguments the event holds (its fields, as the event table lays them out). */
static void usdt_fire(struct replay *p, const struct kev_reader *r, const struct kev_event *e)
{
    static struct kev_fields fs;
    uint64_t site;
    if (e->nw < 2 || !p->firing)
        return;
    kev_fields_decode(r, e, &fs);
    const struct kev_field *args = kev_field_get(&fs, "args");
    if (!kev_field_num(kev_field_get(&fs, "site"), &site) || !args)
        return;
    uint64_t a[DVM_NARGS] = { 0 };
    for (unsigned i = 0; i < args->n && i < DVM_NARGS; i++)
        a[i] = args->arr[i];
    const struct dif_obj *o = &p->st->obj;
    for (uint32_t k = 0; k < o->hdr->dh_nprobes; k++)
        if (DPROBE_IS_USDT(o->probes[k].dp_id) && (uint32_t)o->probes[k].dp_period == site)
            dvm_fire_probe(p->st, &p->ctx, k, a);
}

/* fbt_begin: the program's fbt probes by function, for fbt_fire; none without a table. */
static void fbt_begin(struct replay *p)
{
    const struct dif_obj *o = &p->st->obj;
    p->fbt = dprobe_fbt_table();
    for (uint32_t k = 0; p->fbt && k < o->hdr->dh_nprobes; k++) {
        uint32_t id = o->probes[k].dp_id;
        if (!DPROBE_IS_FBT(id) || DPROBE_FBT_FUNC(id) >= p->fbt->nfuncs)
            continue;
        if (!p->fbt_pidx)
            p->fbt_pidx = calloc(2u * p->fbt->nfuncs, sizeof(uint16_t));
        if (p->fbt_pidx)
            p->fbt_pidx[id - DPROBE_FBT_BASE] = (uint16_t)(k + 1u);
    }
}
static void state_fire(struct replay *p, int t, unsigned prev, unsigned next, unsigned cpu);
static void oncpu_start(struct replay *p, int t);
static void table_fire(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                       int fire);

/* on_kcall: a kernel call's entry or exit by the running thread t: the call it is in (for
 * msg_args and block-*'s object), and lockstat's probes as kernel/ktrace_sync.c fires them
 * (d/lockstat.h) */
static void on_kcall(struct replay *p, const struct kev_event *e, struct rctx_thread *t)
{
    enum kev_kcall_part part = kev_kcall_part(e);
    unsigned n = kev_kcall_no(e);
    if (part == KEV_KCALL_ENTRY) {  /* the call it is in, for msg_args and block-*'s object */
        t->kc_open = 1;
        t->kc = (uint16_t)n;
        t->kc_nw = (uint8_t)(e->nw < 6 ? e->nw : 6);
        for (unsigned k = 0; k < 6; k++)
            t->kc_a[k] = kev_kcall_arg(e, k);
    } else if (part == KEV_KCALL_EXIT || part == KEV_KCALL_INTR) {
        t->kc_open = 0;         /* (QNX's interrupted call ends it too) */
    }
    const struct dprobe_lockcall *lc = part != KEV_KCALL_NONE ? dprobe_lockcall(n) : NULL;
    if (!lc)
        return;
    if (part == KEV_KCALL_ENTRY) {
        t->obj = kev_kcall_arg(e, 0);   /* the object: every SYNC_* call's first */
        t->owner = 0;
        t->blocked_at = 0;
        return;
    }
    int32_t ret;
    uint32_t err;       /* (an interrupted call acquires nothing) */
    if (part != KEV_KCALL_EXIT || !kev_kcall_exit(e, &ret, &err) || err)
        return;
    if (t->blocked_at && lc->blocked)
        fire4(p, lc->blocked, t->obj, cycles_ns(p, p->now_cycles - t->blocked_at),
              t->owner, 0);     /* (the cycles converted once, as the board does) */
    if (lc->done)
        fire4(p, lc->done, t->obj, 0, 0, 0);
    t->blocked_at = 0;
}

/* on_system: a SYSTEM event's part of on_thread: the fbt, pid and USDT probes its FUNC_* and
 * USDT events fire, and what the snapshot, ONCPU, STEAL and SYNC_WAIT events tell D beside the
 * model (their own probes fire from the table, table_fire). */
static void on_system(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                      unsigned cpu)
{
    if (e->ev == KEV_SYS_FUNC_ENTER || e->ev == KEV_SYS_FUNC_EXIT) {
        if (!pid_fire(p, e))
            fbt_fire(p, e);
        return;
    }
    if (e->ev == KEV_SYS_USDT) {
        usdt_fire(p, r, e);
        return;
    }
    const struct kx_fields *f = kx_fields();
    int c = kx_snapshot_cpu(e);
    if (c >= 0 && c < (int)DVM_MAXCPU) {    /* CPU c runs snap_who: its clock runs */
        vtime_switch(p, (unsigned)c, th_of(p, kev_field(e, f->snap_who)));
        return;
    }
    if (e->ev == KEV_SYS_ONCPU && e->nw >= 1) {
        /* the kernel returned into its who on this CPU: the switch ends (its THRUNNING began
         * it; on-cpu fired from the table, oncpu_before) */
        oncpu_start(p, th_of(p, kev_field(e, f->oncpu_who)));
        return;
    }
    if (e->ev == KEV_SYS_STEAL && e->nw >= 2) {
        /* this CPU's choice took the thread from another CPU's queue: its RUNNING, next on
         * this CPU, fires dequeue with that queue's CPU (runq_cpu) */
        if (cpu < DVM_MAXCPU) {
            p->c->cpu[cpu].steal.on = 1;
            p->c->cpu[cpu].steal.who = kev_field(e, f->steal_who);
            p->c->cpu[cpu].steal.from = kev_field(e, f->steal_from);
        }
        return;
    }
    if (e->ev == KEV_SYS_SYNC_WAIT && e->nw >= 2) {
        struct rctx_thread *t = rctx_thread(p->c, p->c->cpu[cpu].last_state);
        t->owner = kev_field(e, f->sync_owner);
        t->blocked_at = p->now_cycles ? p->now_cycles : 1u;    /* (0: not blocked) */
    }
}

/* thread_create: a thread's CREATE, once the model counted it in its process (replay_after):
 * outside the snapshot, sched:::thread-create and lwp-create, and its first run to come. */
static void thread_create(struct replay *p, const struct kev_event *e)
{
    uint32_t pid = kx_th_pid(e);
    int t = kx_thread(p->m, pid, kx_th_tid(e));
    if (p->m->in_snapshot)
        return;
    struct kev_dfire f[KEV_DFIRE_MAX];
    take(p, t, 0, NULL, f, kev_derived_thcreate(f, kev_who_of(pid, kx_th_tid(e)), pid,
                                                (uint8_t)th_prio(p, t)));
    rctx_thread(p->c, t)->unstarted = 1;
}

/* thread_destroy: a thread's DESTROY, outside the snapshot: sched:::thread-exit. */
static void thread_destroy(struct replay *p, const struct kev_event *e)
{
    if (p->m->in_snapshot)
        return;
    struct kev_dfire f[KEV_DFIRE_MAX];
    take(p, KX_NO_THREAD, 0, NULL, f,   /* status: not in the capture */
         kev_derived_thdestroy(f, kev_who_of(kx_th_pid(e), kx_th_tid(e)), 0));
    if (p->firing)
        rargs_missing(DPROBE_SCHED_EXIT, 1u << 1, RARGS_EXIT_STATUS);
}

/* thread_state: thread t's new state st on cpu, before the model takes it: the probes the
 * change fires (outside the snapshot), in the state it enters. */
static void thread_state(struct replay *p, int t, unsigned st, unsigned cpu)
{
    unsigned prev = th_state(p, t);
    p->c->cpu[cpu].last_state = t;
    if (!p->m->in_snapshot && t >= 0) {
        struct rctx_thread *c = rctx_thread(p->c, t);
        c->changing = 1;
        c->entering = (uint8_t)st;
        c->left = (uint8_t)(prev == KX_STATE_UNKNOWN ? st : prev);
        state_fire(p, t, prev, st, cpu);
        c->changing = 0;
    }
    if (st == KEV_TH_RUNNING && cpu < DVM_MAXCPU)
        p->c->cpu[cpu].steal.on = 0;  /* (a STEAL is its choice's: the next RUNNING here takes it) */
}

/* on_thread: the sched, proc and lockstat probes a thread, SYNC_* or SYSTEM event fires, as
 * kev_emit_thread_state, ktrace_kdt_switch and ktrace_sync.c fire them on the board: args[0]
 * (a who), arg1 its pid, arg2 its priority; with the model's state before the event. */
static void on_thread(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                      unsigned cpu)
{
    if (e->cls == KEV_C_SYSTEM) {
        on_system(p, r, e, cpu);
        return;
    }
    int cur = cpu_thread(p, cpu);
    if (e->cls == KEV_C_INT && e->ev == KEV_INT_ENTER && e->nw >= 1 && cur >= 0) {
        struct kev_dfire f[KEV_DFIRE_MAX];      /* the tick's, in the thread it interrupts */
        uint32_t who = who_of(p, cur);
        take(p, KX_NO_THREAD, cpu, NULL, f, kev_derived_tick(f, kx_int_irq(e), who,
                                                              kev_who_pid(who), p->ctx.prio));
        return;
    }
    if (e->cls == KEV_C_KER_CALL && cur >= 0) {
        on_kcall(p, e, rctx_thread(p->c, cur));
        return;
    }
    if (e->cls != KEV_C_PR_TH || e->nw < 2 || e->ev >= 64 || e->ev == KEV_TH_CREATE)
        return;
    if (e->ev == KEV_TH_DESTROY)
        thread_destroy(p, e);
    else
        thread_state(p, kx_thread(p->m, kx_th_pid(e), kx_th_tid(e)), e->ev, cpu);
}

/* runq_cpu: enqueue's and dequeue's arg3 for t's change into state st on cpu, the CPU whose
 * run queue: with one CPU its own. With several, enqueue's is not in the capture (a READY
 * event is the waker CPU's, and the queue is the kernel's placement): -1, Solaris's "no CPU's
 * queue". Dequeue's, into RUNNING, is the rule's (kev_derived_dequeue_cpu): the STEAL just
 * before it on cpu, else cpu's own queue; -1 over a capture that shows no SYSTEM event (ONCPU,
 * a decision, a STEAL), where a steal would not have been recorded. */
static uint64_t runq_cpu(const struct replay *p, int t, unsigned st, unsigned cpu)
{
    if (p->ncpus <= 1)
        return 0;
    const struct rstack_census *c = &p->stacks;
    if (st != KEV_TH_RUNNING || cpu >= DVM_MAXCPU ||
        !(c->oncpu || c->steal || c->remain || c->surrender || c->sigsend))
        return (uint64_t)-1;
    const int stolen = p->c->cpu[cpu].steal.on && p->c->cpu[cpu].steal.who == who_of(p, t);
    return kev_derived_dequeue_cpu(cpu, stolen ? p->c->cpu[cpu].steal.from : KEV_DSTEAL_NONE);
}

/* oncpu_start: at a thread's first run, after its on-cpu, the rule the board's kev_emit_oncpu
 * fires (kev_derived_first_run): a spawned process's start and exec probes and the thread's
 * lwp-start, in the context of t, the thread coming on (set_ctx_of). */
static void oncpu_start(struct replay *p, int t)
{
    struct rctx_thread *d = rctx_thread(p->c, t);
    if (!d->unstarted)
        return;
    d->unstarted = 0;
    uint32_t who = who_of(p, t);
    struct kev_dfire f[KEV_DFIRE_MAX];
    take(p, t, 0, NULL, f, kev_derived_first_run(f, who, kev_who_pid(who), (uint8_t)th_prio(p, t)));
}

/* block_obj: sched:::block-*'s arg3 for t, which entered the blocked state of rule b: the
 * first argument of the call it blocked in (the board's t->coid, its channel's chid,
 * t->join_tid), from that call's entry event; *known 0 when the capture does not hold it (0
 * then, and noted by the caller). */
static uint64_t block_obj(const struct rctx_thread *t, const struct kev_dblock *b, int *known)
{
    *known = !b || !b->call || (t->kc_open && (t->kc == b->call || (b->call2 &&
                                                                   t->kc == b->call2)));
    return b && b->call && *known ? t->kc_a[0] : 0;
}

/* switch_to: the board's ktrace_kdt_switch at t's RUNNING on cpu (the rule's
 * KEV_DSTEP_SWITCH): vtimestamp's clocks, off-cpu in the context of the thread going off (the
 * one whose context cpu was in), then t's context; over a capture without ONCPU events the
 * switch's end too, on-cpu from the ONCPU row as if the event were here and t's first run
 * (oncpu_start). */
static void switch_to(struct replay *p, int t, unsigned cpu)
{
    int old = cpu_thread(p, cpu);
    uint32_t who = who_of(p, t);
    if (old == t)
        return;
    vtime_switch(p, cpu, t);
    if (old >= 0 && !p->c->cpu[cpu].fresh) {
        struct kev_dfire f;
        set_ctx_of(p, cpu, old);    /* the one going off: its clock stopped now */
        take(p, t, cpu, NULL, &f, kev_derived_offcpu(&f, who, kev_who_pid(who),
                                                      (uint8_t)th_prio(p, t), th_state(p, old)));
    }
    p->c->cpu[cpu].fresh = 0;
    set_ctx_of(p, cpu, t);
    if (!p->stacks.oncpu) {     /* (the event's who where its row puts it, a whole word) */
        const struct kev_field_desc *fw = kx_fields()->oncpu_who;
        uint32_t words[2] = { 0, 0 };
        words[fw->word < 2 ? fw->word : 0] = who;
        const struct kev_event e = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_ONCPU, .cpu = cpu,
                                     .w = words, .nw = 2, .nslots = 1 };
        table_fire(p, p->r, &e, p->firing);
        oncpu_start(p, t);
    }
}

/* state_fire: the probes of thread t's state change from prev to next (on_thread), as the
 * board's kev_emit_thread_state fires them: the rule's (kev_derived_change), the switch its
 * step. */
static void state_fire(struct replay *p, int t, unsigned prev, unsigned next, unsigned cpu)
{
    const struct kev_dblock *b = kev_derived_block(next);
    int known;
    uint32_t who = who_of(p, t);
    const struct kev_dchange c = { prev, next, who, kev_who_pid(who), (uint8_t)th_prio(p, t),
                                   block_obj(rctx_thread(p->c, t), b, &known),
                                   runq_cpu(p, t, next, cpu) };
    struct kev_dfire f[KEV_DFIRE_MAX];
    unsigned n = kev_derived_change(f, &c);
    take(p, t, cpu, NULL, f, n);
    if (n && b && b->probe && !known && p->firing)
        rargs_missing(b->probe, 1u << 3, RARGS_BLOCK_OBJ);
}

/* no_capture_note: the probes of the program a capture cannot fire, once each, and why. */
static void no_capture_note(const struct dvm_state *st, const struct rstack_census *c)
{
    static const struct { uint32_t id; const char *name, *why; } none[] = {
        { DPROBE_SCHED_REMAIN_CPU, "sched:::remain-cpu", "the capture has no REMAIN_CPU "
          "event (a tick that keeps the running thread; SYSTEM not traced)" },
        { DPROBE_SCHED_SURRENDER, "sched:::surrender", "the capture has no SURRENDER event "
          "(one CPU interrupting another)" },
        { DPROBE_PROC_SIGNAL_SEND, "proc:::signal-send", "the capture has no SIGNAL_SEND "
          "event (a kill)" },
        { DPROBE_PROC_SIGNAL_HANDLE, "proc:::signal-handle", "this kernel has no signal "
          "handlers" },
        { DPROBE_PROC_FAULT, "proc:::fault", "the capture has no fault event" },
        { DPROBE_LOCK_SPIN_ACQUIRE, "lockstat:::spin-acquire", "the capture has no event for "
          "the kernel's spin locks" },
        { DPROBE_LOCK_SPIN_SPIN, "lockstat:::spin-spin", "the capture has no event for the "
          "kernel's spin locks" },
        { DPROBE_LOCK_SPIN_RELEASE, "lockstat:::spin-release", "the capture has no event for "
          "the kernel's spin locks" },
    };
    /* one decision event: the kernel wrote them while SYSTEM was traced, so a probe of another
     * with no event had nothing to fire at (no kill, one CPU) */
    const int decided = c->remain || c->surrender || c->sigsend;
    for (unsigned k = 0; k < sizeof(none) / sizeof(none[0]); k++)
        if (dvm_enabled(st, none[k].id) && !(none[k].id == DPROBE_PROC_FAULT && c->faults) &&
            !(decided && (none[k].id == DPROBE_SCHED_REMAIN_CPU ||
                          none[k].id == DPROBE_SCHED_SURRENDER ||
                          none[k].id == DPROBE_PROC_SIGNAL_SEND)))
            fprintf(stderr, "dtrace: %s does not fire over a capture: %s\n", none[k].name,
                    none[k].why);
    /* fbt, pid and USDT probes fire only at the events their sites wrote while enabled */
    int func = 0, usdt = 0;
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++) {
        uint32_t id = st->obj.probes[k].dp_id;
        func |= DPROBE_IS_FBT(id) || DPROBE_IS_PID(id);
        usdt |= DPROBE_IS_USDT(id);
    }
    if (func && !c->func)
        fprintf(stderr, "dtrace: fbt and pid probes do not fire over this capture: it holds no "
                "FUNC_ENTER or FUNC_EXIT event (a site writes one only while a D program on "
                "the board enables its probe)\n");
    if (usdt && !c->usdt)
        fprintf(stderr, "dtrace: USDT probes do not fire over this capture: it holds no USDT "
                "event (a site writes one only while a D program on the board enables its "
                "probe)\n");
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes && c->func; k++) {
        uint32_t id = st->obj.probes[k].dp_id;
        if ((DPROBE_IS_FBT(id) || DPROBE_IS_PID(id)) && !(id & 1u)) {
            fprintf(stderr, "dtrace: fbt and pid entry probes fire over a capture without "
                    "their arguments (FUNC_ENTER holds the function and its caller): args[] "
                    "and arg0-arg9 are 0 there\n");
            break;
        }
    }
    /* caller and ucaller: the pcs a capture holds are its stack samples' and faults' */
    for (uint32_t i = 0; i < st->obj.hdr->dh_ninsns; i++)
        if (st->obj.insns[i] >> 24 == DIF_CALL && DIF_IDX(st->obj.insns[i]) == DIF_S_CALLER) {
            fprintf(stderr, "dtrace: caller and ucaller over a capture: its pcs are its stack "
                    "samples' (at profile-N: arg0, arg1), 0 at the other probes\n");
            break;
        }
}

/* fault_fire: proc:::fault for the FAULT pending on cpu, in the faulting thread's context,
 * with its STACK's pcs as ustack( ) when s is that stack (NULL: it did not follow). */
static void fault_fire(struct replay *p, struct kev_reader *r, unsigned cpu,
                       const struct kev_stack *s)
{
    p->c->cpu[cpu].fault.on = 0;
    set_ctx_of(p, cpu, th_of(p, p->c->cpu[cpu].fault.who));
    if (s)
        rstacks_set(s);
    struct kev_dfire f[KEV_DFIRE_MAX];
    take(p, KX_NO_THREAD, cpu, NULL, f, kev_derived_fault(f, p->c->cpu[cpu].fault.sig));
    rstacks_clear();
    set_ctx(p, r, cpu);
}

/* on_stack: a STACK or FAULT event (docs/trace-events.md "Stacks and faults"). A sample fires
 * the profile-N probes due on its CPU (arg0 the kernel pc, arg1 the user pc, as on the board)
 * in the sampled thread's context, its pcs the firing's stack; a FAULT waits for the STACK
 * that follows it to fire proc:::fault (arg0 the signal). */
static void on_stack(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                     unsigned cpu, uint64_t t)
{
    struct kev_stack s;
    struct kev_fault f;
    if (e->ev == KEV_SYS_FAULT) {
        if (kev_fault_decode(e->w, e->nw, &f) != 0)
            return;
        if (p->c->cpu[cpu].fault.on)
            fault_fire(p, r, cpu, NULL);
        p->c->cpu[cpu].fault.on = 1;
        p->c->cpu[cpu].fault.who = f.who;
        p->c->cpu[cpu].fault.sig = f.sig;
        return;
    }
    if (kev_stack_decode(e->w, e->nw, &s) != 0)
        return;
    if (s.kind == KEV_STACK_FAULT) {
        if (p->c->cpu[cpu].fault.on && p->c->cpu[cpu].fault.who == s.who)
            fault_fire(p, r, cpu, &s);
        return;
    }
    if (p->timer_events) {      /* its interrupt's DTIMER fires profile-N, with these pcs */
        rstacks_keep(cpu, &s, (uint32_t)e->t64);
        return;
    }
    const struct dif_obj *o = &p->st->obj;
    set_ctx_of(p, cpu, th_of(p, s.who));
    rstacks_set(&s);
    uint64_t pc = s.depth ? s.pcs[0] : 0;
    for (unsigned i = 0; i < p->ntimers; i++) {
        const struct dif_probe *pr = &o->probes[p->timer[i]];
        unsigned n = pr->dp_flags & DIF_PRF_PROFILE
                         ? rstacks_profile_due(i, cpu, pr->dp_period, p->t0, t)
                         : 0;
        while (n--)
            fire4(p, pr->dp_id, s.kind == KEV_STACK_KERNEL ? pc : 0,
                  s.kind == KEV_STACK_USER ? pc : 0, 0, 0);
    }
    rstacks_clear();
    set_ctx(p, r, cpu);
}

/* dtimer_fire: a DTIMER event, the board's program's timers running on cpu at t, decided by
 * the cycles whose low word the event holds: this program's timers due by then fire (the
 * same timers: span_go), as kernel/kdt_fire.c kdt_timers_run fires them: profile-N on each CPU
 * (-x cpu: that one's), with the periods a late interrupt passed over, and the pcs and stack of
 * the sample the same interrupt took (none: 0, empty); tick-N on CPU 0, once, whatever -x cpu
 * says; in the interrupted thread's context, at the event's time. */
static void dtimer_fire(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                        unsigned cpu, uint64_t t)
{
    const struct kx_fields *f = kx_fields();
    uint32_t who = kev_field(e, f->dtimer_who), at = kev_field(e, f->dtimer_at);
    uint64_t now = cycles_ns(p, e->t64 - (uint32_t)((uint32_t)e->t64 - at));
    const struct kev_stack *s = rstacks_kept(cpu, at);
    uint64_t pc = s && s->depth ? s->pcs[0] : 0;
    uint64_t kpc = s && s->kind == KEV_STACK_KERNEL ? pc : 0;
    uint64_t upc = s && s->kind == KEV_STACK_USER ? pc : 0;
    int firing = p->firing;
    set_ctx_of(p, cpu, th_of(p, who));
    p->ctx.timestamp = t;
    if (s)
        rstacks_set(s);
    for (unsigned i = 0; i < p->ntimers; i++) {
        const struct dif_probe *pr = &p->st->obj.probes[p->timer[i]];
        unsigned n;
        if (pr->dp_flags & DIF_PRF_PROFILE) {
            n = rstacks_profile_due(i, cpu, pr->dp_period, p->t0, now);
            p->firing = firing;
        } else {
            n = cpu == 0 ? (unsigned)period_fires(&p->next[i], pr->dp_period, now, 0) : 0;
            p->firing = 1;
        }
        while (n--)
            fire4(p, pr->dp_id, kpc, upc, 0, 0);
    }
    p->firing = firing;
    rstacks_clear();
    set_ctx(p, r, cpu);
}

/* spawn_failed: ProcSpawn returns err: its rule's firings (kev_derived_spawn_failed: exec and
 * exec-failure), in the spawner's context (there is no child), before the call's return probe,
 * as kernel/kcall.c fires them. The capture holds no name for a program that did not start:
 * exec's args[0] is "" (said once). */
static void spawn_failed(struct replay *p, struct kev_reader *r, uint64_t err)
{
    if (!p->spawn_nameless && dvm_enabled(p->st, DPROBE_PROC_EXEC)) {
        fprintf(stderr, "dtrace: proc:::exec over a capture: the program a spawn failed to "
                "start is not in the capture: its args[0] is \"\"\n");
        p->spawn_nameless = 1;
    }
    struct kev_dfire f[KEV_DFIRE_MAX];
    (void)r;
    take(p, KX_NO_THREAD, 0, "", f, kev_derived_spawn_failed(f, err));
}

/* oncpu_before: an ONCPU event's thread runs on its CPU before the table fires its on-cpu in
 * that thread's context (set_ctx): it was chosen before the capture began when its THRUNNING
 * did not say so. */
static void oncpu_before(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                         unsigned cpu)
{
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_ONCPU || e->nw < 1)
        return;
    (void)r;
    set_ctx_of(p, cpu, th_of(p, kev_field(e, kx_fields()->oncpu_who)));
}

/* table_fire: the probes the event table's D column says e's site fires (kevreplay_table.h),
 * with their arguments; the ones the capture does not hold fire as 0 and are noted. A failed
 * ProcSpawn's return first fires proc:::exec and exec-failure, as the kernel does. */
static void table_fire(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                       int fire)
{
    static struct kev_fields fs;
    struct rtable_fire f[4];
    unsigned n = rtable_probes(r, e, p->m->in_snapshot, site_value, p, &fs, f, 4);
    for (unsigned i = 0; i < n; i++) {
        if (f[i].id == DPROBE_KCALL_RETURN(DPROBE_KCALL_PROC_SPAWN) && (int64_t)f[i].a[0] < 0)
            spawn_failed(p, r, (uint64_t)-(int64_t)f[i].a[0]);
        if (!fire)
            continue;
        if (f[i].payload) {
            replay_text.p = replay_bytes;
            replay_text.len = (uint32_t)kev_event_bytes(r, e, 0, replay_bytes,
                                                        sizeof(replay_bytes));
        }
        dvm_fire(p->st, &p->ctx, f[i].id, f[i].a);
        replay_text.p = NULL;
        replay_text.len = 0;
        unsigned args[RARGS_NWHY] = { 0 };   /* one note a reason, all its arguments */
        for (unsigned k = 0; k < DVM_NARGS; k++) {
            int why = f[i].unknown >> k & 1u ? rargs_why_of(f[i].unknown_name[k]) : -1;
            if (why >= 0)
                args[why] |= 1u << k;
        }
        for (unsigned w = 0; w < RARGS_NWHY; w++)
            if (args[w])
                rargs_missing(f[i].id, args[w], (enum rargs_why)w);
    }
}

/* start: the replay's firings begin at capture time t (ns since boot): BEGIN's timestamp, and
 * tick-N a period after it, as after KDT_GO on the board; profile-N on the board's grid, its
 * period's multiples since boot (trace/period_due.h), so that in any span both fire at the
 * same times on each CPU. BEGIN runs in p->ctx as the caller set it (the consumer's thread at
 * a span's go), or, over a capture without one, in no thread of the capture's, its vtimestamp
 * the time. */
static void start(struct replay *p, uint64_t t, int in_thread)
{
    p->started = 1;
    p->t0 = t;
    p->next_switch += t;
    for (unsigned i = 0; i < p->ntimers; i++) {
        const struct dif_probe *pr = &p->st->obj.probes[p->timer[i]];
        p->next[i] = pr->dp_flags & DIF_PRF_PROFILE ? period_first_due(pr->dp_period, t)
                                                    : pr->dp_period + t;
    }
    p->ctx.timestamp = t;
    if (!in_thread)
        p->ctx.vtimestamp = t;
    p->ctx.walltimestamp = p->wall0 + t;
    dvm_fire_begin(p->st, &p->ctx);
    consume(p, 0);
}

/* span_go: the span's go (a DPROG event e of what KEV_DPROG_GO, on cpu at t): as KDT_GO on the
 * board, the consumer's thread runs here, vtimestamp's clocks start at 0 from here (the
 * kernel's count while D programs run: from the boot's first program's go), the other CPUs'
 * next choice fires no off-cpu (kernel/ktrace.c ktrace_kdt_go), and BEGIN fires in the
 * consumer's context. */
static void span_go(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                    unsigned cpu, uint64_t t)
{
    uint32_t who = kev_field(e, kx_fields()->dprog_who);
    int th = th_of(p, who);
    (void)r;
    for (unsigned k = 0; k < KX_MAX_THREADS; k++)
        p->c->th[k].vt = p->c->th[k].vt_since = 0;
    for (unsigned c = 0; c < DVM_MAXCPU; c++) {
        p->c->cpu[c].vt_running = KX_NO_THREAD;
        p->c->cpu[c].fresh = c != cpu;
    }
    vtime_switch(p, cpu, th);
    set_ctx_of(p, cpu, th);
    /* the timers fire at the board's timer runs when the board ran the same timers */
    uint32_t digest = kev_field(e, kx_fields()->dprog_timers);
    p->timer_events = p->stacks.dtimer &&
                      digest == dtimer_digest(p->st->obj.probes, p->st->obj.hdr->dh_nprobes);
    if (p->stacks.dtimer && !p->timer_events && p->ntimers)
        fprintf(stderr, "dtrace: the capture's timer runs are another program's (its tick-N and "
                "profile-N probes are not this one's): these fire at their own times, where "
                "the board's interrupts would have come a little after\n");
    start(p, t, 1);
    /* KDT_GO's own entry came just before: when the consumer's kernel calls are traced, its
     * reads are, and the replay consumes at them (board_read) */
    const struct rctx_thread *ct = rctx_thread(p->c, th);
    p->consumer = who;
    p->board_reads = ct->kc_open && ct->kc == KC_DTrace;
    if (p->board_reads)
        p->next_switch = UINT64_MAX;
}

/* board_read: the board's consumer reads a CPU's records here (its DTrace(KDT_READ, cpu)
 * entry), and prints what they ask for as it reads them: printa( ) shows an aggregation as it
 * is then, trunc( ) and clear( ) act then. The replay consumes that CPU's records at the same
 * place, so that firings between two reads land in the same read on both sides. */
static void board_read(struct replay *p, const struct kev_event *e, unsigned cpu)
{
    if (!p->board_reads || !in_span(p) || who_of(p, cpu_thread(p, cpu)) != p->consumer ||
        e->cls != KEV_C_KER_CALL || kev_kcall_part(e) != KEV_KCALL_ENTRY ||
        kev_kcall_no(e) != KC_DTrace || kev_kcall_arg(e, 0) != KDT_READ)
        return;
    uint32_t c = kev_kcall_arg(e, 1);
    if (c < p->st->opts.ncpu) {
        dvm_buf_read(p->st, c, 0, dcons_record, p->cons);
        dcons_drops(p->cons);
    }
}

/* span_stop: the span's stop: END fires at this event's time in the consumer's context, as
 * the board fires it at KDT_STOP (END's context, for kev_replay's caller). */
static void span_stop(struct replay *p, struct kev_reader *r, const struct kev_event *e,
                      unsigned cpu, uint64_t t)
{
    (void)r;
    set_ctx_of(p, cpu, th_of(p, kev_field(e, kx_fields()->dprog_who)));
    p->ctx.timestamp = t;
    p->ctx.walltimestamp = p->wall0 + t;
    p->end = p->ctx;
    snprintf(p->end_exec, sizeof(p->end_exec), "%s", p->ctx.execname);
    p->end.execname = p->end_exec;
    p->stopped = 1;
}

/* created: e is a process's creation or a thread's, whose probes fire once the model took it
 * (replay_after): the kernel creates the process (its parent, its first thread counted) or
 * counts the thread in it before they fire. */
static int created(const struct kev_event *e)
{
    return e->cls == KEV_C_PR_TH && e->nw >= 2 &&
           (e->ev == KEV_PR_CREATE_NAME || e->ev == KEV_PR_CREATE || e->ev == KEV_TH_CREATE);
}

/* replay_before: an event with the model's state before it (kx_pass.h's on_event): the probes
 * it fires (but a creation's, replay_after's); non-zero stops the replay. */
static int replay_before(void *user, const struct kev_reader *cr, const struct kev_event *e,
                         struct kx_model *m)
{
    struct replay *p = user;
    struct kev_reader *r = p->r;
    (void)cr, (void)m;
    p->after = 0;
    if (e->cls == KEV_C_CONTROL)
        return 0;
    /* timestamp: nanoseconds since boot from the event's cycle count, in the kernel's own
     * integer arithmetic (ktimer_cycles_to_ns), so that the host's value is the board's. */
    uint64_t t = cycles_ns(p, e->t64);
    p->now_cycles = e->t64;
    unsigned cpu = e->cpu < p->ncpus ? e->cpu : 0;
    uint32_t span = e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_DPROG && e->nw >= 2
                        ? kev_field(e, kx_fields()->dprog_what) : 0;
    if (span == KEV_DPROG_STOP && (in_span(p) || (p->goless && p->started && !p->stopped))) {
        if (!done(p))
            advance(p, r, t);
        span_stop(p, r, e, cpu, t);
        return 1;
    }
    if (p->started && done(p))
        return !in_span(p);
    if (!p->started && span == KEV_DPROG_GO && p->window) {
        span_go(p, r, e, cpu, t);
        return done(p) && !in_span(p);
    }
    if (!p->started && !p->window) {
        /* The capture starts here, as a session would have (on the board BEGIN fires just
         * before the events it sees, so `timestamp - start` is the same span live and over
         * the capture) */
        start(p, t, 0);
        if (done(p))
            return !in_span(p);
    }
    if (p->started) {
        advance(p, r, t);
        if (done(p))
            return !in_span(p);
    }
    /* before a span's go the events tell the state (threads, processes, messages), and fire
     * nothing */
    int fire = p->started && (!p->cpu_only || cpu == p->cpu_only - 1u);
    p->ctx.cpu = cpu;
    p->ctx.timestamp = t;
    p->ctx.walltimestamp = p->wall0 + t;
    set_ctx(p, r, cpu);
    /* errno: a failing call's at its kercall:::return (the exit event's), else 0, as the
     * board's kev_emit_kcall_exit (QNX's interrupted call: its exit's, EINTR) */
    int32_t kret;
    uint32_t kerr = 0;
    p->ctx.errno_ = kev_kcall_exit(e, &kret, &kerr) ? (int32_t)kerr : 0;
    p->firing = fire;
    if (e->cls == KEV_C_SYSTEM && (e->ev == KEV_SYS_STACK || e->ev == KEV_SYS_FAULT)) {
        if (p->started)
            on_stack(p, r, e, cpu, t);
        return done(p) && !in_span(p);
    }
    if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_DTIMER) {
        if (p->started && p->timer_events)
            dtimer_fire(p, r, e, cpu, t);
        return done(p) && !in_span(p);
    }
    if (p->c->cpu[cpu].fault.on)    /* a FAULT whose STACK did not follow */
        fault_fire(p, r, cpu, NULL);
    msg_seen(p, e, cpu);
    p->after = created(e);
    if (!p->after) {
        oncpu_before(p, r, e, cpu);
        table_fire(p, r, e, fire);
    }
    board_read(p, e, cpu);
    on_thread(p, r, e, cpu);
    return done(p) && !in_span(p);
}

/* replay_after: a creation once the model took it (kx_pass.h's after): proc:::create (from the
 * table) and a thread's create probes (thread_create), in the creator's context. */
static void replay_after(void *user, const struct kev_reader *cr, const struct kev_event *e,
                         struct kx_model *m)
{
    struct replay *p = user;
    (void)cr, (void)m;
    if (!p->after)
        return;
    if (e->ev == KEV_TH_CREATE)
        thread_create(p, e);
    else
        table_fire(p, p->r, e, p->firing);
}

/* replay_event: e through the pass (kev_cb). */
static int replay_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    const struct replay *p = user;
    return kx_pass_step(&p->pass, r, e);
}

/* A capture that lost events (the kernel's drops and overwrites, the trailer's count, or
 * buffers missing from the sequence) fires its probes less often than the board did: said
 * once, so that an answer over it is not taken for the board's. */
static void lost_note(const char *path, const struct kev_reader *r)
{
    uint64_t lost = kev_lost_total(r);
    if (lost || r->kr_seq_missing)
        fprintf(stderr, "dtrace: %s: the capture lost %llu events and %llu buffers: probes "
                "fire over it less often than they did on the board\n", path,
                (unsigned long long)lost, (unsigned long long)r->kr_seq_missing);
}

uint32_t kev_replay_pid_max(void)
{
    uint32_t max = 0;
    for (uint32_t pid = 0; pid < KX_MAX_PID; pid++)
        if (replay_model.proc[pid].created)
            max = pid;
    return max;
}

unsigned kev_capture_ncpus(const char *path)
{
    size_t len;
    uint8_t *data = tool_read_file(path, &len);
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

/* goless_start: a capture that holds its D program's stop but not its go (tracing began after
 * the go, or a ring wrapped over it) is replayed from its first event, BEGIN there in no
 * thread of the capture's, to the stop, END there in the consumer's context. Its timer runs
 * (DTIMER) are this program's when the stop's digest says so: its tick-N and profile-N then
 * fire at them, as after a go; profile-N on the board's grid, tick-N a period after the
 * capture's first event (the board's came a period after the go, which the capture does not
 * hold). Said once, with what was assumed. */
static void goless_start(struct replay *p, const struct rstack_census *c)
{
    int mine = c->dprog_timers == dtimer_digest(p->st->obj.probes, p->st->obj.hdr->dh_nprobes);
    p->timer_events = c->dtimer && p->ntimers && mine;
    fprintf(stderr, "dtrace: the capture holds its D program's stop but not its go (tracing "
            "began after it, or the ring lost it): the replay runs from the capture's first "
            "event, BEGIN there, to the stop, END there; what fired before the capture is not "
            "in it%s\n",
            !p->ntimers ? ""
            : p->timer_events ? "; tick-N and profile-N fire at the board's timer runs, "
                                "tick-N counting its periods from the first event (the board's "
                                "from the go: a tick may come up to one period off)"
            : !mine ? "; its timer runs are another program's: tick-N and profile-N fire at "
                      "their own times"
                    : "; it holds no timer runs: tick-N and profile-N fire at their own times");
}

/* replay_start: the replay of capture r (its header and system page read), with census c of
 * what the capture holds. */
static void replay_start(struct replay *p, struct kev_reader *r, const struct rstack_census *c,
                         struct dvm_state *st, struct dcons *cons, uint64_t switchrate_ns,
                         unsigned ncpus, unsigned cpu_only, volatile sig_atomic_t *stop)
{
    memset(p, 0, sizeof(*p));
    p->st = st;
    p->cons = cons;
    p->stop = stop;
    p->switchrate = switchrate_ns;
    p->next_switch = switchrate_ns;
    p->cps = r->kr_cycles_per_sec;
    p->wall0 = (uint64_t)kx_boot_time(r) * 1000000000ull;  /* (the board's boot, kx.h) */
    p->ncpus = ncpus;
    p->cpu_only = cpu_only;
    p->ctx.execname = "";
    p->r = r;
    p->stacks = *c;
    p->window = c->dprog_go > 0;
    p->goless = c->dprog > 0 && !c->dprog_go;
    p->m = &replay_model;
    p->c = &replay_ctx;
    kx_model_init(p->m, r);
    rctx_reset(p->c);
    p->pass = (struct kx_pass){ .m = p->m, .on_event = replay_before, .after = replay_after,
                                .user = p, .file_order = 1 };
    replay_now = p;
    kev_uname_capture(r);   /* `utsname: the capture's header */
    kev_devinfo_capture(r); /* struct dev_info: the capture's system page */
    dvm_uread = replay_uread;
    dvm_nrunnable = replay_nrunnable;
    no_capture_note(st, &p->stacks);
    rargs_begin(st);
    fbt_begin(p);
    rstacks_begin(st, &p->stacks);
    /* every timer probe, wherever it is among the program's probes (its index in the
     * object's table is any: a tick-1s after a provider's hundred probes) */
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++)
        p->ntimers += st->obj.probes[k].dp_flags != 0;
    p->timer = calloc(p->ntimers + 1u, sizeof(*p->timer));
    p->next = calloc(p->ntimers + 1u, sizeof(*p->next));
    if (!p->timer || !p->next) {
        fprintf(stderr, "dtrace: out of memory\n");
        exit(1);
    }
    for (uint32_t k = 0, i = 0; k < st->obj.hdr->dh_nprobes; k++)
        if (st->obj.probes[k].dp_flags)
            p->timer[i++] = k;
    if (p->goless)
        goless_start(p, c);
    else if (!p->window && c->dtimer && p->ntimers)
        fprintf(stderr, "dtrace: the capture holds a D program's timer runs (DTIMER) but no "
                "DPROG event (tracing began after its go and ended before its stop): it is "
                "replayed whole, tick-N a period after its first event and profile-N on the "
                "board's grid, by capture time; what fired outside the capture is not in it\n");
}

/* replay_finish: the capture (name path) ended, decoded with result rc: BEGIN if no event came,
 * the faults left open, what was lost or damaged said, the buffers read a last time, END's
 * times. 0, or 1 when the capture was damaged. */
static int replay_finish(struct replay *p, struct kev_reader *r, const char *path, int rc,
                         struct dvm_ctx *end_ctx)
{
    if (!p->started)            /* a capture without events: BEGIN still runs, at time 0 */
        start(p, 0, 0);
    for (unsigned cpu = 0; cpu < DVM_MAXCPU; cpu++)
        if (p->c->cpu[cpu].fault.on)    /* the capture ended before the FAULT's STACK */
            fault_fire(p, r, cpu, NULL);
    int damaged = rc != KEV_OK && rc != KEV_ERR_STOPPED;
    if (damaged)
        fprintf(stderr, "dtrace: %s: %s (replayed up to there)\n", path, kev_error(r));
    else
        lost_note(path, r);
    rargs_report(path);
    consume(p, 0);
    free(p->fbt_pidx);
    p->fbt_pidx = NULL;
    free(p->timer);
    free(p->next);
    p->timer = NULL;
    p->next = NULL;
    if (end_ctx && p->stopped) {    /* END fires at the span's stop, as on the board */
        *end_ctx = p->end;
    } else if (end_ctx) {       /* END fires at the last event's time, as after it on the board */
        end_ctx->timestamp = end_ctx->vtimestamp = p->ctx.timestamp;
        end_ctx->walltimestamp = p->ctx.walltimestamp;
    }
    return damaged ? 1 : 0;
}

int kev_replay(const char *path, struct dvm_state *st, struct dcons *cons,
               uint64_t switchrate_ns, unsigned ncpus, unsigned cpu_only,
               volatile sig_atomic_t *stop, struct dvm_ctx *end_ctx)
{
    size_t len;
    uint8_t *data = tool_read_file(path, &len);
    if (!data) {
        fprintf(stderr, "dtrace: failed to open %s\n", path);
        return -1;
    }
    static struct kev_reader r;
    static struct replay p;
    if (kev_open(&r, data, len) != 0) {
        fprintf(stderr, "dtrace: cannot read %s: %s\n", path, kev_error(&r));
        free(data);
        return -1;
    }
    struct rstack_census c;
    if (rstacks_census(data, len, &c) != 0)
        memset(&c, 0, sizeof(c));
    replay_start(&p, &r, &c, st, cons, switchrate_ns, ncpus, cpu_only, stop);
    kev_set_user(&r, &p);
    kev_on_any(&r, replay_event);
    int rc = kev_decode(&r);
    rc = replay_finish(&p, &r, path, rc, end_ctx);
    free(data);
    return rc;
}

/* ---- a live source ------------------------------------------------------------------------
 * The live reader (kev_live.h) gives the events as they arrive. What the replay needs to know
 * of the whole capture before its first event (kevreplay_stacks.h's census: ONCPU events,
 * stack samples) is taken from its first events: they are held until an ONCPU event or
 * LIVE_CENSUS of them have come, then replayed. Capture time passing without events (the
 * board's heartbeats) fires the timers too. One trace: a board reset ends the replay. */

#define LIVE_CENSUS 8192u

struct live_replay {
    struct replay p;
    struct dvm_state *st;
    struct dcons *cons;
    uint64_t switchrate_ns;
    unsigned ncpus, cpu_only;
    volatile sig_atomic_t *stop;
    const char *name;
    struct rstack_census c;
    int begun, deciding, ended, reset;
    int rc;
    struct kev_reader *r;
    struct kev_event *held;     /* the first events, their words in words[] */
    uint32_t *words;
    size_t nheld, nwords, cap_w;
};

static void live_replay_held(struct live_replay *lr)
{
    lr->deciding = 0;
    replay_start(&lr->p, lr->r, &lr->c, lr->st, lr->cons, lr->switchrate_ns, lr->ncpus,
                 lr->cpu_only, lr->stop);
    size_t w = 0;
    for (size_t i = 0; i < lr->nheld; i++) {
        lr->held[i].w = lr->words + w;
        w += lr->held[i].nw;
        if (!done(&lr->p))
            replay_event(&lr->p, lr->r, &lr->held[i]);
    }
    free(lr->held), free(lr->words);
    lr->held = NULL, lr->words = NULL;
}

static void live_begin(void *user, struct kev_reader *r, unsigned seg)
{
    struct live_replay *lr = user;
    if (lr->begun) {            /* a board reset: the replay ends with its trace */
        lr->reset = 1;
        return;
    }
    lr->begun = 1;
    lr->deciding = 1;
    lr->r = r;
    (void)seg;
    lr->held = malloc(LIVE_CENSUS * sizeof(*lr->held));
    lr->cap_w = LIVE_CENSUS * 4u;
    lr->words = malloc(lr->cap_w * sizeof(uint32_t));
    if (!lr->held || !lr->words) {
        fprintf(stderr, "dtrace: out of memory\n");
        *lr->stop = 1;
    }
}

static void live_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct live_replay *lr = user;
    if (lr->reset || lr->ended || !lr->begun || *lr->stop)
        return;
    if (!lr->deciding) {
        if (!done(&lr->p) || in_span(&lr->p))
            replay_event(&lr->p, r, e);
        return;
    }
    if (e->cls == KEV_C_SYSTEM)
        rstacks_count(&lr->c, e);
    if (lr->nwords + e->nw > lr->cap_w) {
        uint32_t *w = realloc(lr->words, (lr->cap_w *= 2) * sizeof(uint32_t));
        if (!w) {
            fprintf(stderr, "dtrace: out of memory\n");
            *lr->stop = 1;
            return;
        }
        lr->words = w;
    }
    lr->held[lr->nheld] = *e;
    memcpy(lr->words + lr->nwords, e->w, e->nw * sizeof(uint32_t));
    lr->nwords += e->nw;
    lr->nheld++;
    if (lr->c.oncpu || lr->nheld == LIVE_CENSUS)
        live_replay_held(lr);
}

static void live_time(void *user, struct kev_reader *r, uint64_t t)
{
    struct live_replay *lr = user;
    if (lr->begun && !lr->deciding && !lr->reset && !lr->ended && lr->p.started &&
        !done(&lr->p))
        advance(&lr->p, r, cycles_ns(&lr->p, t));
}

static void live_end(void *user, struct kev_reader *r, int complete)
{
    struct live_replay *lr = user;
    if (lr->reset || lr->ended || !lr->begun)
        return;
    if (lr->deciding)
        live_replay_held(lr);
    lr->ended = 1;
    if (!complete && !r->kr_err) { /* (a trailer that disagrees set its own error) */
        snprintf(r->kr_msg, sizeof(r->kr_msg), "the trace ended without its trailer");
        r->kr_err = KEV_ERR_TRUNCATED;
    }
    lr->rc = replay_finish(&lr->p, r, lr->name, complete ? KEV_OK : r->kr_err, NULL);
}

static void live_fault(void *user, enum kev_live_fault f, const char *what)
{
    (void)user, (void)f;
    fprintf(stderr, "dtrace: %s\n", what);
}

int kev_live_source(const char *name, int follow)
{
    struct stat sb;
    if (!strcmp(name, "-"))
        return 1;
    if (stat(name, &sb) != 0)
        return strchr(name, ':') != NULL;  /* HOST:PORT */
    if (!S_ISREG(sb.st_mode) || follow)
        return 1;
    char magic[2] = "";
    FILE *f = fopen(name, "rb");
    size_t n = f ? fread(magic, 1, 2, f) : 0;
    if (f)
        fclose(f);
    return n == 2 && magic[0] == 'K' && magic[1] == 'S';
}

static void head_begin(void *user, struct kev_reader *r, unsigned seg)
{
    unsigned len, *ncpus = user;
    const char *v = kev_attr(r, "CPU_NUM", &len);
    (void)seg;
    *ncpus = v ? (unsigned)strtoul(v, NULL, 10) : r->kr_board_ncpu;
    if (!*ncpus)
        *ncpus = 1;
    if (*ncpus > DVM_MAXCPU)
        *ncpus = DVM_MAXCPU;
}

int kev_live_open(const char *name, int follow, struct kev_input *in, uint8_t **pre,
                  size_t *npre, unsigned *ncpus)
{
    if (kev_input_open("dtrace", name, follow, in) != 0)
        return -1;
    struct kev_live *l = kev_live_new(in->name);
    unsigned found = 0;
    const struct kev_live_consumer c = { .user = &found, .begin = head_begin };
    size_t cap = 1u << 16;
    *pre = malloc(cap);
    *npre = 0;
    if (!l || !*pre) {
        fprintf(stderr, "dtrace: out of memory\n");
        return -1;
    }
    kev_live_attach(l, &c);
    long n = 0;
    while (!found && (n = kev_input_read(in, *pre + *npre, cap - *npre, -1)) >= 0) {
        kev_live_feed(l, *pre + *npre, (size_t)n);
        *npre += (size_t)n;
        if (*npre == cap && !(*pre = realloc(*pre, cap *= 2))) {
            fprintf(stderr, "dtrace: out of memory\n");
            return -1;
        }
    }
    kev_live_free(l);
    if (!found) {
        fprintf(stderr, "dtrace: %s: the input ended before a trace's header\n", in->name);
        return -1;
    }
    *ncpus = found;
    return 0;
}

int kev_replay_live(struct kev_live *l, struct kev_input *in, const uint8_t *pre, size_t npre,
                    struct dvm_state *st, struct dcons *cons, uint64_t switchrate_ns,
                    unsigned ncpus, unsigned cpu_only, volatile sig_atomic_t *stop,
                    struct dvm_ctx *end_ctx, void (*flush)(void))
{
    static struct live_replay lr;
    memset(&lr, 0, sizeof(lr));
    lr.st = st, lr.cons = cons, lr.switchrate_ns = switchrate_ns;
    lr.ncpus = ncpus, lr.cpu_only = cpu_only, lr.stop = stop, lr.name = in->name;
    const struct kev_live_consumer c = { .user = &lr, .begin = live_begin, .event = live_event,
                                         .time = live_time, .fault = live_fault,
                                         .end = live_end };
    kev_live_attach(l, &c);
    kev_live_feed(l, pre, npre);
    static uint8_t buf[1u << 16];
    while (!lr.ended && !lr.reset && !*stop && !(lr.begun && !lr.deciding && done(&lr.p))) {
        long n = kev_input_read(in, buf, sizeof(buf), 100);
        if (n < 0) {
            kev_live_finish(l);
            break;
        }
        kev_live_feed(l, buf, (size_t)n);
        if (flush)
            flush();
    }
    if (lr.reset)
        fprintf(stderr, "dtrace: %s: the board restarted: the replay ends with the trace it "
                "began\n", in->name);
    if (!lr.ended && lr.begun) { /* stopped: exit( ), a filled buffer, ^C, or a reset */
        if (lr.deciding)
            live_replay_held(&lr);
        lr.ended = 1;
        lr.rc = replay_finish(&lr.p, lr.r, lr.name, KEV_OK, NULL);
    }
    if (!lr.begun) {
        fprintf(stderr, "dtrace: %s: no trace arrived\n", in->name);
        return -1;
    }
    if (end_ctx) {
        end_ctx->timestamp = end_ctx->vtimestamp = lr.p.ctx.timestamp;
        end_ctx->walltimestamp = lr.p.ctx.walltimestamp;
    }
    return lr.rc;
}
