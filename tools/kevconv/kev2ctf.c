// SPDX-License-Identifier: MIT
// kev2ctf's encoder (kev2ctf.h): .kev events into CTF 1.8 packets, one stream per CPU, that
// babeltrace2 and Trace Compass read; kev2ctf_dir.c writes them into a trace directory, kevlive
// serves them live. Every non-CONTROL .kev event becomes exactly one CTF event (layout and
// names: ctf_meta.h / ctf_meta.c); the CONTROL events become packet structure: BUFFER /
// BUFFER_END frame a packet, DROPPED raises the packet context's events_discarded counter (a
// new packet starts there), losses after the last buffer (the trailer's count) become a final
// empty packet, so babeltrace2 reports every lost event as discarded. Decoding is the shared
// trace/kev_decode.c.
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kev2ctf.h"
#include "ctf_exec.h"
#include <trace/kev_bytes.h>
#include <trace/kev_events.h>
#include <trace/kev_image.h>
#include <trace/kev_kercall.h>
#include <trace/kev_stack.h>
#include <trace/kev_text.h>
#include <trace/kev_userreg.h>
#include <kevhost/kx_fields.h>
#include <kevhost/kx_ids.h>
#include <kevhost/tool_syms.h>
#include <kevhost/syms_usdt.h>
#include <kevhost/kx_digits.h>
#include <kevhost/tool_grow.h>

// ---- stream packets ----------------------------------------------------------------------------

struct stream {
    int used;             // a packet was made: the CPU has a stream
    uint8_t *buf;
    size_t len, cap;
    int open;             // a packet is being filled
    uint64_t begin, last; // packet begin time, last time written in it
    uint64_t end;         // end time of the last packet written (the next may not begin earlier)
    uint64_t seq;         // packets written
    uint64_t discarded;   // events lost on this CPU so far (the CTF counter)
    uint64_t nev;         // events in the open packet
    uint64_t host_lost;   // events the host lost in transit, counted from the next buffer
    const struct kev_reader *r; // the capture's reader (strings' byte order), set per event
};

struct conv {
    ctf_packet_fn out;    // where closed packets go
    void *out_user;
    struct kx_model *m;
    const struct ctf_exec *exec; // each run's executed share (NULL: none known, 0 written)
    struct stream s[KEV_MAX_CPUS];
    int16_t last_cpu[KX_MAX_THREADS]; // CPU each thread last ran on + 1 (0: not yet seen)
    uint8_t uuid[16];
    uint64_t events, packets;
    uint64_t derived;  // events written beside the one per .kev event (sched_process_free)
    int werr;
    unsigned snap_idle; // idle threads seen in the START snapshot so far
    struct kev_userreg ureg; // user event names and formats the trace declares
    int sync_for[KEV_MAX_CPUS]; // the thread a SYNC_WAIT on this CPU is about: the last to
                                // block on a mutex, semaphore or condvar here (+1; 0: current)
    uint8_t known[KX_MAX_THREADS]; // LTTng's readers know the thread (life_*, below)
    uint8_t broadcast[KX_MAX_THREADS + 1]; // its open call is a CondBroadcast (last: unknown)
};

static void reserve(struct stream *s, size_t n)
{
    if (tool_grow(&s->buf, &s->cap, s->len + n, 1, 1u << 16)) {
        fprintf(stderr, "kev2ctf: out of memory\n");
        exit(1);
    }
}

// A value appended to the packet (CTF's byte order here is little-endian, declared in the
// metadata).
static inline void pkt_u8(struct stream *s, uint8_t v) { s->buf[s->len++] = v; }
static inline void pkt_u16(struct stream *s, uint16_t v) { kev_put_le16(s->buf + s->len, v); s->len += 2; }
static inline void pkt_u32(struct stream *s, uint32_t v) { kev_put_le32(s->buf + s->len, v); s->len += 4; }
static inline void pkt_u64(struct stream *s, uint64_t v) { kev_put_le64(s->buf + s->len, v); s->len += 8; }

// A fixed char[16] (LTTng's comm), NUL padded; "<unknown>" for a thread whose name the trace
// lost (babeltrace2 2.0 reads a char array of NULs only as the one it read before it: another
// thread's name).
static void put_comm(struct stream *s, const char *name)
{
    if (!name[0])
        name = "<unknown>";
    size_t n = strnlen(name, CTF_COMM_LEN - 1);
    memcpy(s->buf + s->len, name, n);
    memset(s->buf + s->len + n, 0, CTF_COMM_LEN - n);
    s->len += CTF_COMM_LEN;
}

// A NUL-terminated string; the caller reserved strlen + 1 bytes (names are < KEV_NAME_MAX).
static void put_str(struct stream *s, const char *str)
{
    size_t n = strlen(str) + 1;
    memcpy(s->buf + s->len, str, n);
    s->len += n;
}

static void packet_header(struct conv *c, struct stream *s, unsigned cpu, uint64_t t)
{
    reserve(s, CTF_PACKET_HDR);
    s->len = 0;
    pkt_u32(s, CTF_MAGIC);
    memcpy(s->buf + s->len, c->uuid, 16);
    s->len += 16;
    pkt_u32(s, 0);   // stream_id
    pkt_u64(s, cpu); // stream_instance_id
    pkt_u64(s, t);   // timestamp_begin
    pkt_u64(s, t);   // timestamp_end (patched)
    pkt_u64(s, 0);   // content_size (patched)
    pkt_u64(s, 0);   // packet_size (patched)
    pkt_u64(s, 0);   // packet_seq_num (patched)
    pkt_u64(s, 0);   // events_discarded (patched)
    pkt_u32(s, cpu);
}

static void open_packet(struct conv *c, unsigned cpu, uint64_t t)
{
    struct stream *s = &c->s[cpu];
    s->used = 1;
    packet_header(c, s, cpu, t);
    s->open = 1;
    s->begin = s->last = t;
    s->nev = 0;
}

static void flush_packet(struct conv *c, struct stream *s, uint64_t end, uint64_t discarded)
{
    struct ctf_packet pk = { (unsigned)(s - c->s), s->buf, s->len, s->begin, end, discarded,
                             s->seq, s->len > CTF_PACKET_HDR ? s->nev : 0 };
    kev_put_le64(s->buf + CTF_OFF_TS_END, end);
    kev_put_le64(s->buf + CTF_OFF_CONTENT, (uint64_t)s->len * 8);
    kev_put_le64(s->buf + CTF_OFF_PACKET, (uint64_t)s->len * 8);
    kev_put_le64(s->buf + CTF_OFF_SEQ, s->seq++);
    kev_put_le64(s->buf + CTF_OFF_DISCARDED, discarded);
    if (c->out(c->out_user, &pk))
        c->werr = 1;
    c->packets++;
}

static void close_packet(struct conv *c, unsigned cpu, uint64_t end)
{
    struct stream *s = &c->s[cpu];
    if (!s->open)
        return;
    if (end < s->last)
        end = s->last;
    if (s->seq == 0 && c->m->have_t && c->m->first_t < s->begin) { // (span_streams)
        s->begin = c->m->first_t;
        kev_put_le64(s->buf + CTF_OFF_TS_BEGIN, s->begin);
    }
    if (s->seq == 0 && s->discarded) {
        // babeltrace2 reports the counter's increase from one packet to the next: an empty
        // first packet at 0 makes losses before the first event visible too.
        size_t len = s->len;
        uint8_t save[CTF_PACKET_HDR];
        memcpy(save, s->buf, CTF_PACKET_HDR);
        s->len = CTF_PACKET_HDR;
        flush_packet(c, s, s->begin, 0);
        memcpy(s->buf, save, CTF_PACKET_HDR);
        s->len = len;
    }
    flush_packet(c, s, end, s->discarded);
    s->end = end;
    s->open = 0;
}

// Every stream spans the capture, from its first event to its last, as an LTTng session's
// streams do: babeltrace's stream intersection, on by default in LTTng's analyses, keeps only
// the time every stream covers, and a CPU that starts writing late would cut the state dump
// away. A stream's first packet begins at the capture's first event (close_packet); this
// closes each stream's last packet at the capture's last event, or adds an empty one up to it.
static void span_streams(struct conv *c)
{
    uint64_t end = c->m->have_t ? c->m->last_t : 0;
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++) {
        struct stream *s = &c->s[cpu];
        if (!s->open && s->used && s->end < end)
            open_packet(c, cpu, s->end);
        close_packet(c, cpu, end);
    }
}

// ---- events ------------------------------------------------------------------------------------

static void ev_header(struct stream *s, uint32_t id, uint64_t t, size_t payload)
{
    reserve(s, 12 + payload);
    pkt_u32(s, id);
    pkt_u64(s, t);
    s->last = t;
    s->nev++;
}

// LTTng's prev_state: 0 runnable (preempted), 1 interruptible sleep, 64 dead.
static int64_t lttng_state(unsigned st)
{
    if (st == KEV_TH_RUNNING || st == KEV_TH_READY || st == KX_STATE_UNKNOWN)
        return 0;
    return st == KEV_TH_DEAD ? 64 : 1;
}

// LTTng statedump status: 2 waiting for CPU, 5 waiting, 6 running, 7 dead, 0 unknown.
static int32_t statedump_status(unsigned st)
{
    switch (st) {
    case KEV_TH_RUNNING: return 6;
    case KEV_TH_READY: return 2;
    case KEV_TH_DEAD: case KEV_TH_DESTROY: return 7;
    case KX_STATE_UNKNOWN: case KEV_TH_CREATE: return 0;
    default: return 5;
    }
}

static void words_seq(struct stream *s, const uint32_t *w, unsigned n)
{
    pkt_u32(s, n);
    for (unsigned i = 0; i < n; i++)
        pkt_u32(s, w[i]);
}

// The run queue LTTng's statedump gives a thread (task_cpu): where it runs or last ran, else
// the CPU writing the dump.
static uint32_t statedump_cpu(const struct conv *c, int idx, unsigned cpu)
{
    if (idx >= 0 && c->m->th[idx].cpu >= 0)
        return (uint32_t)c->m->th[idx].cpu;
    if (idx >= 0 && c->last_cpu[idx])
        return (uint32_t)(c->last_cpu[idx] - 1);
    return cpu;
}

// A thread's CPU in the START snapshot. The snapshot is written by one CPU, whichever CPU
// each thread runs on; the kernel makes one idle thread per CPU in CPU order (kernel/main.c)
// and the snapshot lists them in that order, so the k-th idle thread is CPU k's.
static uint32_t snapshot_cpu(struct conv *c, int idx, const struct kev_event *e)
{
    if (idx >= 0 && kx_is_idle(c->m, idx) && c->snap_idle < c->m->r->kr_board_ncpu &&
        c->snap_idle < KEV_MAX_CPUS)
        return c->snap_idle++;
    return e->ev == KEV_TH_RUNNING ? e->cpu : statedump_cpu(c, idx, e->cpu);
}

// ---- the threads' life as LTTng's readers follow it -----------------------------------------
// LTTng's readers (lttng-analyses, Trace Compass) learn of a thread from the state dump at the
// start (lttng_statedump_process_state), its sched_process_fork, or a sched_switch or
// sched_waking naming it; lttng-analyses stops ("Cannot run analysis: <tid>") at a
// sched_pi_setprio about any other. The kernel writes a thread's first priority (PRIO_CHANGE,
// cause initial) just before its THCREATE, in the START snapshot too, and a loss can hide a
// creation: a PRIO_CHANGE about a thread they do not know yet is the table's kev_prio_change,
// which they do not read (its priority reaches them with its next sched_waking or
// sched_switch, as a new Linux thread's does). lttng-analyses learns which thread a CPU runs
// only from sched_switch: each snapshot entry "CPU c runs who" adds one from swapper to who on
// c (derived), so that who's time and calls count from the snapshot on, as kevstat's do, not
// from the first event of the trace. A process's main thread is forked and then runs its
// program: sched_process_fork, then sched_process_exec (derived) naming the program.

static void life_know(struct conv *c, int idx)
{
    if (idx >= 0)
        c->known[idx] = 1;
}

static int life_known(const struct conv *c, int idx)
{
    return idx >= 0 && (c->known[idx] || kx_is_idle(c->m, idx));
}

// PRIO_CHANGE e is about a thread LTTng's readers know (else it is the table's kev_prio_change).
static int life_prio_known(struct conv *c, const struct kev_event *e)
{
    uint32_t who = kev_field(e, kx_fields()->prio_who);
    return life_known(c, kx_thread(c->m, kev_who_pid(who), kev_who_tid(who)));
}

// After the fork of thread idx (outside the snapshot): a main thread's exec of its program.
static void life_fork(struct conv *c, struct stream *s, const struct kev_event *e, int idx)
{
    life_know(c, idx);
    if (idx < 0 || c->m->th[idx].tid != 1 || !c->m->th[idx].comm[0])
        return;
    const char *prog = c->m->th[idx].comm;
    int32_t tid = kx_ltid(c->m, idx);
    ev_header(s, CTF_ID_SCHED_PROCESS_EXEC, e->t64, strlen(prog) + 1 + 8);
    put_str(s, prog);
    pkt_u32(s, (uint32_t)tid), pkt_u32(s, (uint32_t)tid);
    c->derived++;
}

// SNAPSHOT entry e, "CPU cpu runs who": the switch from swapper to who there (none for idle).
static void life_snapshot_run(struct conv *c, const struct kev_event *e, unsigned cpu)
{
    uint32_t who = kev_field(e, kx_fields()->snap_who);
    int idx = who ? kx_thread(c->m, kev_who_pid(who), kev_who_tid(who)) : KX_NO_THREAD;
    if (idx < 0 || kx_is_idle(c->m, idx) || cpu >= KEV_MAX_CPUS)
        return;
    struct stream *o = &c->s[cpu];
    if (!o->open)
        open_packet(c, cpu, e->t64);
    if (!o->open)
        return;
    life_know(c, idx);
    ev_header(o, CTF_ID_SCHED_SWITCH, e->t64, 80);
    pkt_u64(o, 0); // (the context: swapper executes nothing)
    put_comm(o, "swapper");
    pkt_u32(o, 0), pkt_u32(o, (uint32_t)kx_lttng_prio(0)), pkt_u64(o, 0);
    put_comm(o, kx_lcomm(c->m, idx));
    pkt_u32(o, (uint32_t)kx_ltid(c->m, idx));
    pkt_u32(o, (uint32_t)kx_lttng_prio(kx_qprio(c->m, idx)));
    c->last_cpu[idx] = (int16_t)(cpu + 1);
    c->derived++;
}

// Thread idx switched in on another CPU than it last ran on (kevstat's migration): LTTng's
// sched_migrate_task, which lttng-cputop counts, just before the sched_switch.
static void migrate_task(struct conv *c, struct stream *s, const struct kev_event *e, int idx,
                         int32_t prio)
{
    ev_header(s, CTF_ID_SCHED_MIGRATE_TASK, e->t64, 32);
    put_comm(s, kx_lcomm(c->m, idx));
    pkt_u32(s, (uint32_t)kx_ltid(c->m, idx)), pkt_u32(s, (uint32_t)prio);
    pkt_u32(s, (uint32_t)(c->last_cpu[idx] - 1)), pkt_u32(s, e->cpu);
    c->derived++;
}

// sched_switch's context: of the run of p (the thread the switch leaves) that ended by t, what
// its CPU executed (ctf_exec.h); idle (swapper) executes nothing.
static uint64_t prev_exec(const struct conv *c, int p, uint64_t t)
{
    if (!c->exec || p < 0 || kx_is_idle(c->m, p))
        return 0;
    return ctf_exec_run(c->exec, c->m->th[p].pid, c->m->th[p].tid, t);
}

// Ids, names and priorities: kx_ids.h (the same in every converter). Returns the thread's
// index in the model (or KX_NO_THREAD), as kx_thread gives it.
static int thread_event(struct conv *c, struct stream *s, const struct kev_event *e)
{
    struct kx_model *m = c->m;
    const struct kev_field_desc *wide = kx_fields()->th_prio; // (wide mode's)
    uint32_t qpid = kx_th_pid(e), qtid = kx_th_tid(e);     // the kernel's own ids
    int idx = kx_thread(m, qpid, qtid);
    int32_t tid = idx >= 0 ? kx_ltid(m, idx) : kx_tid_of(qpid, qtid);
    int32_t pid = idx >= 0 ? kx_lpid(m, idx) : kx_pid_of(qpid);
    int32_t prio = kx_lttng_prio(kev_field_has(e, wide) ? (int)kev_field(e, wide) : kx_qprio(m, idx));
    const char *comm = idx >= 0 ? kx_lcomm(m, idx) : "";
    if (m->in_snapshot && e->ev < KEV_TH_NSTATES) {
        life_know(c, idx);
        ev_header(s, CTF_ID_STATEDUMP_PROCESS_STATE, e->t64, 64);
        pkt_u32(s, (uint32_t)tid), pkt_u32(s, qtid), pkt_u32(s, (uint32_t)pid), pkt_u32(s, qpid);
        pkt_u32(s, (uint32_t)kx_lppid(m, qpid)), pkt_u32(s, kx_ppid(m, qpid));
        put_comm(s, comm);
        pkt_u32(s, qpid == 0); // type: 0 user thread, 1 kernel thread (process 0's)
        pkt_u32(s, 0), pkt_u32(s, 0); // mode, submode
        pkt_u32(s, (uint32_t)statedump_status(e->ev));
        pkt_u32(s, snapshot_cpu(c, idx, e));
        pkt_u32(s, e->ev);
        return idx;
    }
    if (e->ev == KEV_TH_RUNNING) {
        int p = m->cur[e->cpu] >= 0 ? m->cur[e->cpu] : m->prev[e->cpu];
        life_know(c, p), life_know(c, idx);
        if (idx >= 0 && c->last_cpu[idx] && c->last_cpu[idx] != (int16_t)(e->cpu + 1))
            migrate_task(c, s, e, idx, prio);
        ev_header(s, CTF_ID_SCHED_SWITCH, e->t64, 80);
        pkt_u64(s, prev_exec(c, p, e->t64));
        put_comm(s, kx_lcomm(m, p));
        pkt_u32(s, (uint32_t)kx_ltid(m, p));
        pkt_u32(s, (uint32_t)kx_lttng_prio(kx_qprio(m, p)));
        pkt_u64(s, (uint64_t)(p >= 0 && !kx_is_idle(m, p) ? lttng_state(m->th[p].state) : 0));
        put_comm(s, comm);
        pkt_u32(s, (uint32_t)tid);
        pkt_u32(s, (uint32_t)prio);
        if (idx >= 0)
            c->last_cpu[idx] = (int16_t)(e->cpu + 1);
    } else if (e->ev == KEV_TH_READY && idx >= 0 && m->th[idx].cpu < 0 &&
               m->th[idx].state != KEV_TH_READY &&
               !kx_is_idle(m, idx)) {   // (idle is Linux's swapper, tid 0: never woken)
        life_know(c, idx);
        ev_header(s, CTF_ID_SCHED_WAKING, e->t64, 32);
        put_comm(s, comm);
        pkt_u32(s, (uint32_t)tid), pkt_u32(s, (uint32_t)prio);
        pkt_u32(s, idx >= 0 && c->last_cpu[idx] ? (uint32_t)(c->last_cpu[idx] - 1) : e->cpu);
    } else if (e->ev == KEV_TH_CREATE && !m->in_snapshot) {
        int p = kx_cpu_thread(m, e->cpu);
        ev_header(s, CTF_ID_SCHED_PROCESS_FORK, e->t64, 64);
        put_comm(s, p >= 0 ? kx_lcomm(m, p) : "");
        pkt_u32(s, (uint32_t)(p >= 0 ? kx_ltid(m, p) : 0));
        pkt_u32(s, (uint32_t)(p >= 0 ? kx_lpid(m, p) : 0));
        put_comm(s, comm);
        pkt_u32(s, (uint32_t)tid), pkt_u32(s, (uint32_t)pid);
        life_fork(c, s, e, idx);
    } else if (e->ev == KEV_TH_DESTROY) {
        // Trace Compass removes a thread at sched_process_free (exit changes nothing): the
        // kernel frees a thread's slot when it destroys it, so both are written here.
        ev_header(s, CTF_ID_SCHED_PROCESS_EXIT, e->t64, 32);
        put_comm(s, comm);
        pkt_u32(s, (uint32_t)tid), pkt_u32(s, (uint32_t)prio);
        ev_header(s, CTF_ID_SCHED_PROCESS_FREE, e->t64, 32);
        put_comm(s, comm);
        pkt_u32(s, (uint32_t)tid), pkt_u32(s, (uint32_t)prio);
        c->derived++;
    } else {
        ev_header(s, CTF_ID_KEV_THREAD_STATE, e->t64, 32);
        pkt_u32(s, (uint32_t)tid), pkt_u32(s, (uint32_t)pid), pkt_u32(s, qtid), pkt_u32(s, e->ev);
        pkt_u32(s, (uint32_t)prio);
    }
    return idx;
}

// One decoded field, as ctf_meta.c declared it (a field the event lacks: 0, "", none).
static void put_field(struct stream *s, const struct kev_field *fl, unsigned kind)
{
    switch (ctf_field_type(kind)) {
    case CTF_T_STR: {
        const char *t = fl && fl->kind == KEV_K_STRING && fl->str ? fl->str : "";
        reserve(s, strlen(t) + 1);
        put_str(s, t);
        break;
    }
    case CTF_T_SEQ: {
        unsigned n = fl && fl->arr ? fl->n : 0;
        reserve(s, 4 + 8u * n);
        pkt_u32(s, n);
        for (unsigned i = 0; i < n; i++)
            pkt_u64(s, fl->arr[i]);
        break;
    }
    default:
        reserve(s, 8);
        pkt_u64(s, fl && !KEV_K_IS_ARRAY(fl->kind) && fl->kind != KEV_K_STRING ? fl->v : 0);
        break;
    }
}

// An event the classes above do not name: its table row's class (kev_<name>) with the fields
// the table gives it; kev_unknown only for an event no row describes.
static void unknown_event(struct stream *s, const struct kev_event *e)
{
    static struct kev_fields fs;
    const struct kev_event_desc *d = kev_event_describe(e->cls, e->ev);
    for (unsigned i = 0; d && !d->kcall && i < kev_event_rows(); i++) {
        if (kev_event_row(i) != d)
            continue;
        kev_fields_decode(s->r, e, &fs);
        ev_header(s, CTF_ID_TABLE + i, e->t64, 2);
        pkt_u16(s, (uint16_t)e->ev);
        for (unsigned k = 0; k < d->nfields; k++) {
            const struct kev_field_desc *fd = &d->fields[k];
            if (fd->layout == KEV_L_USER)
                put_field(s, kev_field_get(&fs, "text"), KEV_K_STRING);
            put_field(s, kev_field_get(&fs, fd->name), fd->kind);
        }
        if (ctf_table_function(d)) {    // the function its first field holds, named
            char fn[128];
            syms_function(fs.n ? fs.f[0].v : 0, fn, sizeof(fn));
            reserve(s, strlen(fn) + 1);
            put_str(s, fn);
        }
        return;
    }
    ev_header(s, CTF_ID_KEV_UNKNOWN, e->t64, 8 + 4u * e->nw);
    pkt_u8(s, (uint8_t)e->cls);
    pkt_u16(s, (uint16_t)e->ev);
    words_seq(s, e->w, e->nw);
}

// The Linux ids of QNX pid/tid (kx_ids.h), from the model when it knows the thread.
static void linux_ids(const struct conv *c, uint32_t pid, uint32_t tid, int32_t *ltid,
                      int32_t *lpid)
{
    int idx = kx_thread(c->m, pid, tid);
    *ltid = idx >= 0 ? kx_ltid(c->m, idx) : kx_tid_of(pid, tid);
    *lpid = idx >= 0 ? kx_lpid(c->m, idx) : kx_pid_of(pid);
}

static void put_thread(const struct conv *c, struct stream *s, uint32_t pid, uint32_t tid)
{
    int32_t ltid, lpid;
    linux_ids(c, pid, tid, &ltid, &lpid);
    pkt_u32(s, (uint32_t)ltid), pkt_u32(s, (uint32_t)lpid), pkt_u32(s, tid);
}

// Our SYSTEM events with named fields (ctf_meta.c); 0 when e is not one of them (or malformed).
static int system_event(struct conv *c, struct stream *s, const struct kev_event *e)
{
    struct kev_fault f;
    struct kev_stack st;
    struct kev_image im;
    char fn[512];
    if (e->ev == KEV_SYS_FAULT && kev_fault_decode(e->w, e->nw, &f) == 0) {
        syms_pc(f.pc, 0, fn, sizeof(fn), NULL, 0);
        ev_header(s, CTF_ID_KEV_FAULT, e->t64, 12 + 3 + 16 + strlen(fn) + 1);
        put_thread(c, s, f.pid, f.tid);
        pkt_u8(s, (uint8_t)f.sig);
        pkt_u8(s, (uint8_t)f.kind);
        pkt_u8(s, (uint8_t)f.addr_valid);
        pkt_u64(s, f.pc);
        pkt_u64(s, f.addr);
        put_str(s, fn);
        return 1;
    }
    if (e->ev == KEV_SYS_STACK && kev_stack_decode(e->w, e->nw, &st) == 0) {
        char names[KEV_STACK_MAXDEPTH][512];
        size_t len = 0;
        for (unsigned i = 0; i < st.depth; i++) {
            syms_pc(st.pcs[i], i > 0, names[i], sizeof(names[i]), NULL, 0);
            len += strlen(names[i]) + 1;
        }
        ev_header(s, CTF_ID_KEV_STACK, e->t64, 12 + 3 + 4 + 8u * st.depth + len);
        put_thread(c, s, st.pid, st.tid);
        pkt_u8(s, (uint8_t)st.kind);
        pkt_u8(s, (uint8_t)st.ended);
        pkt_u8(s, (uint8_t)st.at_max);
        pkt_u32(s, st.depth);
        for (unsigned i = 0; i < st.depth; i++)
            pkt_u64(s, st.pcs[i]);
        for (unsigned i = 0; i < st.depth; i++)
            put_str(s, names[i]);
        return 1;
    }
    if (e->ev == KEV_SYS_PRIO_CHANGE && e->nw >= 2 && life_prio_known(c, e)) {
        const struct kx_fields *f = kx_fields();
        uint32_t who = kev_field(e, f->prio_who), pid = kev_who_pid(who), tid = kev_who_tid(who);
        unsigned prio = kev_field(e, f->prio_new), old = kev_field(e, f->prio_old);
        int idx = kx_thread(c->m, pid, tid);
        int32_t ltid, lpid;
        linux_ids(c, pid, tid, &ltid, &lpid);
        ev_header(s, CTF_ID_SCHED_PI_SETPRIO, e->t64, CTF_COMM_LEN + 33);
        put_comm(s, idx >= 0 ? kx_lcomm(c->m, idx) : "");
        pkt_u32(s, (uint32_t)ltid);
        pkt_u32(s, (uint32_t)kx_lttng_prio((int)old)), pkt_u32(s, (uint32_t)kx_lttng_prio((int)prio));
        pkt_u32(s, pid), pkt_u32(s, tid), pkt_u32(s, old), pkt_u32(s, prio);
        pkt_u8(s, (uint8_t)kev_field(e, f->prio_cause));
        return 1;
    }
    if (e->ev == KEV_SYS_SYNC_WAIT && e->nw >= 2) {
        int th = c->sync_for[e->cpu] ? c->sync_for[e->cpu] - 1 : kx_cpu_thread(c->m, e->cpu);
        uint32_t owner = kev_field(e, kx_fields()->sync_owner);
        ev_header(s, CTF_ID_KEV_SYNC_WAIT, e->t64, 12 + 1 + 16);
        if (th >= 0)
            put_thread(c, s, c->m->th[th].pid, c->m->th[th].tid);
        else
            pkt_u32(s, (uint32_t)-1), pkt_u32(s, (uint32_t)-1), pkt_u32(s, 0);
        pkt_u8(s, th >= 0 ? (uint8_t)c->m->th[th].state : 0);
        pkt_u32(s, kev_field(e, kx_fields()->sync_object));
        pkt_u32(s, owner ? (uint32_t)kx_tid_of(kev_who_pid(owner), kev_who_tid(owner)) : (uint32_t)-1);
        pkt_u32(s, kev_who_pid(owner)), pkt_u32(s, kev_who_tid(owner));
        c->sync_for[e->cpu] = 0;
        return 1;
    }
    if (e->ev == KEV_SYS_IMAGE && kev_image_decode(c->m->r, e, &im) == 0) {
        char hex[2 * KEV_IMAGE_ID_MAX + 1], name[2 * KEV_IMAGE_NAME_MAX];
        kev_image_id_hex(im.id, im.id_len, hex, sizeof(hex));
        kev_text_safe(name, sizeof(name), (const uint8_t *)im.name, strlen(im.name));
        ev_header(s, CTF_ID_KEV_IMAGE, e->t64, 12 + strlen(hex) + strlen(name) + 2);
        pkt_u32(s, (uint32_t)kx_pid_of(im.pid)), pkt_u32(s, im.pid), pkt_u32(s, im.base);
        put_str(s, hex);
        put_str(s, name);
        return 1;
    }
    return 0;
}

// A USDT firing: its probe's class (ctf_usdt_class), its name from the program's note, the
// thread that fired it, the arguments as the program passed them; a site no file names (or a
// class past the last): its table row's class, kev_usdt.
static void usdt_event(struct conv *c, struct stream *s, const struct kev_event *e)
{
    static struct kev_fields fs;
    struct syms_usdt_firing f;
    kev_fields_decode(s->r, e, &fs);
    int k = syms_usdt_firing(&fs, &f) == 0 && f.p ? ctf_usdt_class(f.p) : -1;
    if (k < 0) {
        unknown_event(s, e);
        return;
    }
    int th = kx_cpu_thread(c->m, e->cpu);
    ev_header(s, CTF_ID_USDT + (uint32_t)k, e->t64,
              20 + strlen(f.p->module) + strlen(f.p->function) + 2 + 8u * f.p->nargs);
    if (th >= 0)
        put_thread(c, s, c->m->th[th].pid, c->m->th[th].tid);
    else
        pkt_u32(s, (uint32_t)-1), pkt_u32(s, (uint32_t)-1), pkt_u32(s, 0);
    pkt_u64(s, f.site);
    put_str(s, f.p->module);
    put_str(s, f.p->function);
    for (unsigned i = 0; i < f.p->nargs && i < SYMS_USDT_ARGS; i++)
        pkt_u64(s, i < f.nargs ? f.arg[i] : 0);
}

static void process_event(struct conv *c, struct stream *s, const struct kev_event *e)
{
    char name[KEV_NAME_MAX] = "";
    switch (e->ev) {
    case KEV_PR_CREATE: case KEV_PR_CREATE_NAME: case KEV_PR_DESTROY: case KEV_PR_DESTROY_NAME:
        if ((e->ev == KEV_PR_CREATE_NAME || e->ev == KEV_PR_DESTROY_NAME) && e->nw > 2)
            kev_event_name(c->m->r, e, 2, name, sizeof(name));
        ev_header(s, e->ev == KEV_PR_CREATE || e->ev == KEV_PR_CREATE_NAME
                         ? CTF_ID_KEV_PROCESS_CREATE : CTF_ID_KEV_PROCESS_DESTROY,
                  e->t64, 12 + sizeof(name));
        pkt_u32(s, (uint32_t)kx_pid_of(kx_pr_ppid(e))), pkt_u32(s, (uint32_t)kx_pid_of(kx_pr_pid(e)));
        pkt_u32(s, kx_pr_pid(e));
        put_str(s, name);
        return;
    case KEV_PR_THREAD_NAME: {
        const struct kx_fields *f = kx_fields();
        uint32_t pid = kx_pr_pid(e), tid = kev_field(e, f->tname_tid);
        if (e->nw > 2)
            kev_event_name(c->m->r, e, 2, name, sizeof(name));
        ev_header(s, CTF_ID_KEV_THREAD_NAME, e->t64, 12 + sizeof(name));
        pkt_u32(s, (uint32_t)kx_tid_of(pid, tid)), pkt_u32(s, (uint32_t)kx_pid_of(pid));
        pkt_u32(s, tid);
        put_str(s, name);
        return;
    }
    default:
        unknown_event(s, e);
    }
}

// Decoded fields of kernel-call events that their class has no field for (words past QNX's
// layout of the call): not written, counted and reported at the end.
static uint64_t kc_unplaced;

// The event's decoded fields in the order of its class (ctf_kcall_class), each found by name.
static void kcall_fields(struct stream *s, const struct kev_fields *fs, unsigned call, int exit)
{
    const struct ctf_kclass *cls = ctf_kcall_class(call, exit);
    unsigned placed = 0;
    for (unsigned k = 0; k < cls->n; k++) {
        const struct kev_field *fl = kev_field_get(fs, cls->f[k].name);
        put_field(s, fl, cls->f[k].kind);
        placed += fl != NULL;
    }
    if (exit && kev_field_get(fs, "ret")) // (written first, as LTTng's ret)
        placed++;
    kc_unplaced += fs->n - placed;
}

// A call the API names apart (kev_kcall_api_name: CondBroadcast) has classes of its own, its
// exit named by its entry's arguments (kept per thread until the exit).
static void kcall_event(struct conv *c, struct stream *s, const struct kev_event *e)
{
    static struct kev_fields fs;
    enum kev_kcall_part part = kev_kcall_part(e);
    unsigned call = kev_kcall_no(e);
    int th = kx_cpu_thread(c->m, e->cpu);
    uint8_t *bc = &c->broadcast[th >= 0 ? (unsigned)th : KX_MAX_THREADS];
    if (part == KEV_KCALL_ENTRY) {
        kev_fields_decode(s->r, e, &fs);
        *bc = kev_kcall_api_name(call, e->w, e->nw) != NULL;
        ev_header(s, *bc ? CTF_ID_SYSCALL_ENTRY_BROADCAST : CTF_ID_SYSCALL_ENTRY + call, e->t64, 1);
        pkt_u8(s, (uint8_t)e->nw);
        kcall_fields(s, &fs, call, 0);
    } else if (part == KEV_KCALL_EXIT || part == KEV_KCALL_INTR) {
        // (an interrupted call, QNX's, is read as its exit: kev_kcall_exit, kev_fields.c)
        kev_fields_decode(s->r, e, &fs);
        int32_t ret = 0;
        uint32_t err = 0;
        kev_kcall_exit(e, &ret, &err);
        ev_header(s, *bc && call == 83u ? CTF_ID_SYSCALL_EXIT_BROADCAST : CTF_ID_SYSCALL_EXIT + call,
                  e->t64, 9);
        *bc = 0;
        pkt_u64(s, err ? (uint64_t)-(int64_t)err : (uint64_t)(int64_t)ret); // LTTng's: -errno
        pkt_u8(s, part == KEV_KCALL_INTR);
        kcall_fields(s, &fs, call, 1);
    } else {
        unknown_event(s, e);
    }
}

// "irq<n>" at out (room for 14 bytes), NUL-terminated, as printf's "irq%u" writes it.
static void irq_name(char *out, uint32_t irq)
{
    memcpy(out, "irq", 3);
    out[3 + kx_put_dec(out + 3, irq)] = 0;
}

static void int_event(struct stream *s, const struct kev_event *e)
{
    char name[24];
    uint32_t irq = kx_int_irq(e);
    switch (e->ev) {
    case KEV_INT_ENTER:
        if (kev_int_pseudo_name(irq))   // the tick, a CPU's tick share, a reschedule IPI
            snprintf(name, sizeof(name), "%s", kev_int_pseudo_name(irq));
        else
            irq_name(name, irq);
        ev_header(s, CTF_ID_IRQ_HANDLER_ENTRY, e->t64, 4 + sizeof(name));
        pkt_u32(s, irq);
        put_str(s, name);
        break;
    case KEV_INT_EXIT:
        ev_header(s, CTF_ID_IRQ_HANDLER_EXIT, e->t64, 8);
        pkt_u32(s, irq), pkt_u32(s, 1); // IRQ_HANDLED
        break;
    case KEV_INT_HANDLER_ENTER: case KEV_INT_HANDLER_EXIT:
        ev_header(s, e->ev == KEV_INT_HANDLER_ENTER ? CTF_ID_KEV_IRQ_HANDLER_ENTRY
                                                    : CTF_ID_KEV_IRQ_HANDLER_EXIT, e->t64, 4);
        pkt_u32(s, irq);
        break;
    default:
        unknown_event(s, e);
    }
}

static void control_event(struct conv *c, const struct kev_event *e)
{
    struct stream *s = &c->s[e->cpu];
    switch (e->ev) {
    case KEV_CTL_BUFFER:
        close_packet(c, e->cpu, s->last);
        s->discarded += s->host_lost; // (lost before this buffer: counted from its packet on)
        s->host_lost = 0;
        open_packet(c, e->cpu, e->t64);
        break;
    case KEV_CTL_BUFFER_END:
        if (!s->open)
            open_packet(c, e->cpu, e->t64);
        close_packet(c, e->cpu, e->t64);
        break;
    case KEV_CTL_DROPPED:
        if (s->open && s->nev) { // losses after events: a new packet starts here
            close_packet(c, e->cpu, s->last);
            open_packet(c, e->cpu, e->t64);
        } else if (!s->open) {
            open_packet(c, e->cpu, e->t64);
        }
        s->discarded += kev_field(e, kx_fields()->dropped_lost);
        break;
    case KEV_CTL_TIME:
        // The BUFFER slot before it was stamped with the previous high word: a packet that
        // has no event yet begins at the TIME event instead.
        if (s->open && !s->nev) {
            s->begin = s->last = e->t64;
            kev_put_le64(s->buf + CTF_OFF_TS_BEGIN, e->t64);
        }
        break;
    default:
        break;
    }
}

// A timer's expiry: the table's timer_id and pid (ctf_meta.c's order).
static void timer_event(struct stream *s, const struct kev_event *e)
{
    static struct kev_fields fs;
    uint64_t id = 0, pid = 0;
    kev_fields_decode(s->r, e, &fs);
    kev_field_num(kev_field_get(&fs, "timer_id"), &id);
    kev_field_num(kev_field_get(&fs, "pid"), &pid);
    ev_header(s, CTF_ID_KEV_TIMER, e->t64, 8);
    pkt_u32(s, (uint32_t)id), pkt_u32(s, (uint32_t)pid);
}

// A COMM event of the table: the row's fields by name (ctf_meta.c declares the same), then
// the tid of the thread that ran.
static void comm_event(struct conv *c, struct stream *s, const struct kev_event *e)
{
    static struct kev_fields fs;
    const struct kev_event_desc *d = kev_event_describe(KEV_C_COMM, e->ev);
    int cur = kx_cpu_thread(c->m, e->cpu);
    kev_fields_decode(s->r, e, &fs);
    ev_header(s, CTF_ID_KEV_COMM + e->ev, e->t64, 4);
    for (unsigned k = 0; d && k < d->nfields; k++)
        put_field(s, kev_field_get(&fs, d->fields[k].name), d->fields[k].kind);
    reserve(s, 4);
    pkt_u32(s, (uint32_t)kx_ltid(c->m, cur));
}

// A user event: its code, its text ("NAME: value" for a registered code, trace/kev_userreg.h),
// its words.
static void user_event(struct conv *c, struct stream *s, const struct kev_event *e)
{
    char text[256];
    int cur = kx_cpu_thread(c->m, e->cpu);
    uint32_t pid = cur >= 0 ? c->m->th[cur].pid : 0;
    kx_user_text(c->m->r, &c->ureg, pid, e, 1, text, sizeof(text));
    if (!kev_userreg_find(&c->ureg, pid, e->ev)) { // as before: its text or nothing
        kx_user_string(c->m->r, e, text, sizeof(text));
        if (strchr(text, '?'))
            text[0] = 0;
    }
    ev_header(s, CTF_ID_KEV_USER, e->t64, 8 + strlen(text) + 1 + 4u * e->nw);
    pkt_u16(s, (uint16_t)e->ev);
    put_str(s, text);
    words_seq(s, e->w, e->nw);
}

// An event into its stream, with the model's state before it (kx_pass.h: the model takes it
// after).
static int on_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                    struct kx_model *m)
{
    struct conv *c = user;
    struct stream *s = &c->s[e->cpu];
    (void)m; // (c->m)
    s->r = r;
    if (e->cls == KEV_C_CONTROL) {
        control_event(c, e);
        return c->werr;
    }
    if (!s->open)
        open_packet(c, e->cpu, e->t64);
    if (c->werr)
        return 1;
    switch (e->cls) {
    case KEV_C_PR_TH:
        if (e->nw >= 2 && e->ev <= KEV_TH_DESTROY) {
            int th = thread_event(c, s, e);
            c->sync_for[e->cpu] = (e->ev == KEV_TH_MUTEX || e->ev == KEV_TH_SEM ||
                                   e->ev == KEV_TH_CONDVAR) && th >= 0 ? th + 1 : 0;
        }
        else if (e->nw >= 2)
            process_event(c, s, e);
        else
            unknown_event(s, e);
        break;
    case KEV_C_KER_CALL: kcall_event(c, s, e); break;
    case KEV_C_INT: int_event(s, e); break;
    case KEV_C_SYSTEM:
        if (e->ev == KEV_SYS_SNAPSHOT && kx_snapshot_cpu(e) >= 0) {
            unknown_event(s, e);
            life_snapshot_run(c, e, (unsigned)kx_snapshot_cpu(e));
        } else if (e->ev == KEV_SYS_SNAPSHOT) {
            ev_header(s, kev_field(e, kx_fields()->snap_what) == 0 ? CTF_ID_STATEDUMP_START
                                                                  : CTF_ID_STATEDUMP_END, e->t64, 0);
        } else if (e->ev == KEV_SYS_TIMER) {
            timer_event(s, e);
        } else if (e->ev == KEV_SYS_USDT) {
            usdt_event(c, s, e);
        } else if (!system_event(c, s, e)) {
            unknown_event(s, e);
        }
        break;
    case KEV_C_COMM:
        if (e->ev < KEV_COMM_NEVENTS)
            comm_event(c, s, e);
        else
            unknown_event(s, e);
        break;
    case KEV_C_USER: user_event(c, s, e); break;
    default: unknown_event(s, e); break;
    }
    c->events++;
    return 0;
}

// A last, empty packet of cpu raising its counter to lost.
static void last_packet(struct conv *c, unsigned cpu, uint64_t lost)
{
    struct stream *s = &c->s[cpu];
    uint64_t t = c->m->have_t ? c->m->last_t : 0;
    uint64_t at = s->last > t ? s->last : t;
    if (at < s->end) // after the last packet (a BUFFER_END may follow the last event)
        at = s->end;
    open_packet(c, cpu, at);
    s->discarded = lost;
    close_packet(c, cpu, at);
}

// Losses no DROPPED event reported (after the last buffer, or buffers the logger could not
// store): a last, empty packet per CPU raises the counter to the trailer's total.
static void trailing_losses(struct conv *c, const struct kev_reader *r)
{
    unsigned ncpu = r->kr_have_trailer ? r->kr_trl_ncpu : r->kr_ncpu_seen;
    for (unsigned cpu = 0; cpu < ncpu && cpu < KEV_MAX_CPUS; cpu++) {
        uint64_t lost = r->kr_have_trailer ? r->kr_trl_lost[cpu] : r->kr_cpu[cpu].cs_lost_stream;
        if (lost > c->s[cpu].discarded)
            last_packet(c, cpu, lost);
    }
}

// ---- the interface (kev2ctf.h) -----------------------------------------------------------------

struct ctf_enc {
    struct conv c;
    struct kx_pass pass; // on_event over c, model c.m
};

struct ctf_enc *ctf_enc_new(struct kx_model *m, const uint8_t uuid[16], ctf_packet_fn out,
                            void *user)
{
    struct ctf_enc *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    e->c.m = m;
    e->pass = (struct kx_pass){ .m = m, .on_event = on_event, .user = &e->c, .file_order = 1 };
    e->c.out = out;
    e->c.out_user = user;
    memcpy(e->c.uuid, uuid, 16);
    kc_unplaced = 0;
    return e;
}

void ctf_enc_free(struct ctf_enc *e)
{
    if (!e)
        return;
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        free(e->c.s[cpu].buf);
    free(e);
}

void ctf_enc_exec(struct ctf_enc *e, const struct ctf_exec *x)
{
    e->c.exec = x;
}

const struct kx_pass *ctf_enc_pass(const struct ctf_enc *e)
{
    return &e->pass;
}

void ctf_enc_host_loss(struct ctf_enc *e, unsigned cpu, uint64_t events)
{
    if (cpu < KEV_MAX_CPUS)
        e->c.s[cpu].host_lost += events;
}

void ctf_enc_flush(struct ctf_enc *e, unsigned cpu)
{
    if (cpu < KEV_MAX_CPUS && e->c.s[cpu].open && e->c.s[cpu].nev)
        close_packet(&e->c, cpu, e->c.s[cpu].last);
}

int ctf_enc_finish(struct ctf_enc *e, const struct kev_reader *r, int whole)
{
    struct conv *c = &e->c;
    span_streams(c);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++) // the host's losses no buffer came after
        if (c->s[cpu].host_lost)
            last_packet(c, cpu, c->s[cpu].discarded + c->s[cpu].host_lost);
    if (whole)
        trailing_losses(c, r);
    return c->werr;
}

void ctf_enc_counts(const struct ctf_enc *e, struct ctf_enc_counts *n)
{
    n->events = e->c.events;
    n->derived = e->c.derived;
    n->packets = e->c.packets;
    n->discarded = 0;
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        n->discarded += e->c.s[cpu].discarded;
    n->unplaced = kc_unplaced;
}

void ctf_enc_clock(const struct kev_reader *r, struct ctf_clock *clk)
{
    clk->freq = r->kr_cycles_per_sec ? r->kr_cycles_per_sec : 1000000000u;
    clk->offset_s = kx_boot_time(r);
}

static const char *attr(const struct kev_reader *r, const char *key, char *buf, size_t n)
{
    unsigned len;
    const char *v = kev_attr(r, key, &len);
    snprintf(buf, n, "%.*s", v ? (int)len : 0, v ? v : "");
    return buf;
}

void ctf_enc_metadata(FILE *f, const struct kev_reader *r, const uint8_t uuid[16],
                      const struct ctf_clock *clk)
{
    char host[64], sys[64], rel[64], ver[64], mach[64];
    struct ctf_env env = { attr(r, "NODENAME", host, sizeof(host)),
                           attr(r, "SYSNAME", sys, sizeof(sys)),
                           attr(r, "SYS_RELEASE", rel, sizeof(rel)),
                           attr(r, "SYS_VERSION", ver, sizeof(ver)),
                           attr(r, "MACHINE", mach, sizeof(mach)), r->kr_board };
    ctf_write_metadata(f, uuid, clk, &env);
}
