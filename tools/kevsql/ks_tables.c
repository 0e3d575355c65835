// SPDX-License-Identifier: MIT
// kevsql's tables (ks.h, docs/sql.md): each one's columns and how a record of the analysis
// model (tools/include/kevhost/kx_rows.h) or an event fills them, declared over the row's
// struct (ks.h struct ks_rcol), a part per kind of record where a table gives several (struct
// ks_part), or over an event's fields (struct ks_decl). Perfetto's names and columns where
// Perfetto has the concept (its trace processor's table definitions: sched_slice, thread_state,
// thread, process, cpu, slice, counter, args, metadata, track), the kernel's own ids, states
// and priorities in them; tables of our own for the rest. Times are nanoseconds since boot.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"
#include <kevhost/kx_ids.h>
#include <kevhost/kx_chain_text.h>
#include <kevhost/syms_usdt.h>
#include <trace/kev_events.h>
#include <trace/kev_stack.h>
#include <trace/kev_text.h>
#include <trace/kev_image.h>

SQLITE_EXTENSION_INIT3

#define NCOL(a) (sizeof(a) / sizeof((a)[0]))

static const char *state_name(unsigned st)
{
    return st < KEV_TH_NSTATES ? kev_thread_state_name(st) : NULL;
}

// A kernel state as Perfetto's thread_state and sched_slice.end_state write it (Linux's
// letters, the trace processor's "Running"): "R" runnable after a wakeup, "R+" runnable
// after a preemption, "S" blocked (every QNX blocking state a signal or a timeout can end),
// "D" waiting for a page or stack (uninterruptible), "T" stopped, "X" dead. The kernel's own
// name is the kernel_state / kernel_end_state column.
static const char *perfetto_state(unsigned st, int woken)
{
    switch (st) {
    case KEV_TH_RUNNING: return "Running";
    case KEV_TH_READY: return woken ? "R" : "R+";
    case KEV_TH_DEAD: return "X";
    case KEV_TH_STOPPED: return "T";
    case KEV_TH_WAITPAGE: case KEV_TH_STACK: return "D";
    default: return st < KEV_TH_NSTATES ? "S" : NULL;
    }
}

// Track ids: the kind of track in the high byte, its owner (a utid, a CPU, ...) below.
enum { TR_KCALL = 1, TR_MSG = 2, TR_IRQ = 3, TR_INSTANT = 4, TR_CPU_BUSY = 5, TR_IRQ_MSG = 6,
       TR_USER = 7, TR_FUNC = 8, TR_FUNC_THREAD = 9 };
static int64_t track_id(unsigned kind, uint64_t owner)
{
    return (int64_t)kind << 24 | (int64_t)(owner & 0xffffffu);
}
// Slice ids: the record's id and its kind in the low 3 bits (arg_set_id is the same number).
enum { SL_KCALL, SL_IRQ, SL_HANDLER, SL_MSG, SL_INSTANT, SL_FUNC, SL_EVENT }; // SL_EVENT: an
// event's own fields (event.arg_set_id), not a slice
static int64_t slice_id(uint64_t id, unsigned kind)
{
    return (int64_t)(id << 3 | kind);
}

// ============================================================================================
// Tables of the first pass
// ============================================================================================

// Row 0 is Perfetto's utid 0, the "swapper": every CPU's idle thread (their time per CPU is
// cpu.idle_ns); then each other thread the model saw, utid its number + 1.
static unsigned thread_rows(struct ks_trace *t) { return t->nrow_th; }
// Row 0's struct: every CPU's idle thread as Perfetto's one "swapper" (no process, no times)
static const struct ks_thread swapper = { .name = "swapper", .start = -1, .end = -1,
                                          .idle = 1, .prio = -1 };
static const void *thread_row(struct ks_trace *t, unsigned i, void *buf)
{
    (void)buf;
    return t->row_th[i] < 0 ? &swapper : (const void *)&t->th[t->row_th[i]];
}
#define ROW struct ks_thread
static void thread_utid(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    sqlite3_result_int(ctx, x == &swapper ? 0 : (int)(x - r->t->th) + 1);
}
static void thread_name(const struct ks_row *r, sqlite3_context *ctx)
{ // as Linux names a thread: a main thread is its program's until it renames itself
    const ROW *x = r->p;
    ks_result_text(ctx, x == &swapper ? x->name : x->lname[0] ? x->lname : NULL);
}
static void thread_label(const struct ks_row *r, sqlite3_context *ctx)
{ // "process/thread" as every other tool names it
    const ROW *x = r->p;
    char lb[80];
    if (x == &swapper)
        snprintf(lb, sizeof(lb), "idle");
    else if (x->comm[0] && x->name[0])
        snprintf(lb, sizeof(lb), "%s/%s", x->comm, x->name);
    else if (x->comm[0])
        snprintf(lb, sizeof(lb), "%s/%u", x->comm, x->tid);
    else if (x->name[0])
        snprintf(lb, sizeof(lb), "%s", x->name);
    else
        snprintf(lb, sizeof(lb), "pid%u/%u", x->pid, x->tid);
    ks_result_text(ctx, lb);
}
static const struct ks_rcol thread_cols[] = { // the swapper (the one idle row) has no process
    { RC_FN("utid", "INTEGER", thread_utid), PF }, { RC_INT("tid", tid), PF },
    { RC_FN("name", "TEXT", thread_name), PF }, { RC_INT("upid", pid), WHEN(CLEAR, idle), PF },
    { RC_NS("start_ts", start), NUL(NEG), PF }, { RC_NS("end_ts", end), NUL(NEG), PF },
    { RC_EQ("is_main_thread", tid, 1), WHEN(CLEAR, idle), PF }, { RC_INT("is_idle", idle), PF },
    { RC_NULL("machine_id", "INTEGER"), PF }, { RC_NULL("arg_set_id", "INTEGER"), PF },
    { RC_INT("pid", pid), WHEN(CLEAR, idle) }, { RC_FN("label", "TEXT", thread_label) },
    { RC_INT("priority", prio), NUL(NEG) }, { RC_FN("id", "INTEGER", thread_utid), PF },
};
#undef ROW
static const struct ks_table t_thread = {
    .name = "thread",
    .doc = "every thread seen (Perfetto's columns; tid is the kernel's, per process)",
    .src = KS_SRC_SUMMARY,
    KS_COLS(thread_cols),
    .nrows = thread_rows,
    .row = thread_row,
};

#define ROW struct ks_proc
static void process_parent(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *p = r->p;
    if (p->ppid || p->pid == 1)
        sqlite3_result_int64(ctx, p->ppid);
    else
        sqlite3_result_null(ctx);
}
static const struct ks_rcol process_cols[] = {
    { RC_INT("upid", pid), PF }, { RC_INT("pid", pid), PF },
    { RC_TEXT("name", name), NUL(EMPTY), PF },
    { RC_NS("start_ts", start), NUL(NEG), PF }, { RC_NS("end_ts", end), NUL(NEG), PF },
    { RC_FN("parent_upid", "INTEGER", process_parent), PF }, { RC_NULL("uid", "INTEGER"), PF },
    { RC_NULL("cmdline", "TEXT"), PF }, { RC_NULL("arg_set_id", "INTEGER"), PF },
    { RC_INT("id", pid), PF },
};
#undef ROW
static const struct ks_table t_process = {
    .name = "process",
    .doc = "every process seen (upid is the kernel's pid)",
    .src = KS_SRC_SUMMARY,
    KS_COLS(process_cols),
    KS_ROWS(proc, nproc),
};

static unsigned cpu_rows(struct ks_trace *t) { return t->ncpu; }
static const void *cpu_row(struct ks_trace *t, unsigned i, void *buf)
{
    (void)buf;
    return &t->cpu[i];
}
#define ROW struct ks_cpu_sum
static void cpu_number(const struct ks_row *r, sqlite3_context *ctx) // the row's index
{
    sqlite3_result_int(ctx, (int)((const ROW *)r->p - r->t->cpu));
}
static void cpu_processor(const struct ks_row *r, sqlite3_context *ctx)
{
    char buf[64];
    ks_result_text(ctx, ks_attr(r->t, "MACHINE", buf, sizeof(buf)));
}
static const struct ks_rcol cpu_cols[] = {
    { RC_FN("id", "INTEGER", cpu_number), PF }, { RC_FN("cpu", "INTEGER", cpu_number), PF },
    { RC_CONST("cluster_id", 0), PF },
    { RC_FN("processor", "TEXT", cpu_processor), PF }, { RC_NULL("machine_id", "INTEGER"), PF },
    { RC_NULL("capacity", "INTEGER"), PF }, { RC_NULL("arg_set_id", "INTEGER"), PF },
    { RC_SPAN("running_ns", busy) }, { RC_SPAN("idle_ns", idle) }, { RC_SPAN("none_ns", none) },
};
#undef ROW
static const struct ks_table t_cpu = {
    .name = "cpu",
    .doc = "each CPU, with its time running threads, its idle thread, no thread known",
    .src = KS_SRC_SUMMARY,
    KS_COLS(cpu_cols),
    .nrows = cpu_rows,
    .row = cpu_row,
};

// metadata: Perfetto's (name, key_type, int_value, str_value). Rows by index.
enum { MD_TRACE, MD_BOARD, MD_CPUS, MD_HZ, MD_BOOT_DATE, MD_BOOT_TIME, MD_DATE, MD_SYSNAME,
       MD_NODENAME, MD_RELEASE, MD_VERSION, MD_MACHINE, MD_FORMAT, MD_EVENTS, MD_LOST,
       MD_START, MD_END, MD_DAMAGED, MD_DAMAGE_ERROR, MD_DAMAGE_OFFSET, MD_BUILD, MD_N };
static const char *const md_names[MD_N] = {
    "trace", "board", "cpus", "cycles_per_sec", "boot_date", "boot_time", "capture_date",
    "sysname", "nodename", "release", "version", "machine", "format_version", "events",
    "lost_events", "trace_start_ns", "trace_end_ns", "damaged", "damage_error",
    "damage_offset", "build",
};
static unsigned metadata_rows(struct ks_trace *t) { return MD_N + t->r->kr_nattr; }
struct md_row { unsigned i; };
static const void *metadata_row(struct ks_trace *t, unsigned i, void *buf) // its value: lazily
{
    (void)t;
    ((struct md_row *)buf)->i = i;
    return buf;
}
// The rows whose values come from the pass over the events; the others are the header's and
// the trailer's, so that the board or the build of a trace costs no pass (kevsql's fleet asks
// them of every trace).
static int md_needs_pass(unsigned row)
{
    return row == MD_EVENTS || (row >= MD_START && row <= MD_DAMAGE_OFFSET);
}
// The kernel image's GNU build id in hex (readelf -n's), from the capture's first IMAGE event of
// pid 0: the kernel writes its images at the start, so the walk stops there (at most
// KS_IMAGE_SCAN events); NULL for a capture without one (recorded before IMAGE events).
#define KS_IMAGE_SCAN 4096u
static const char *kernel_build_id(struct ks_trace *t, char *buf, size_t n)
{
    struct kev_reader *r = sqlite3_malloc(sizeof(*r));
    const char *found = NULL;
    if (!r || kev_open(r, t->data, t->len)) {
        sqlite3_free(r);
        return NULL;
    }
    struct kev_event e;
    for (unsigned k = 0; !found && k < KS_IMAGE_SCAN && kev_next(r, &e) == 1; k++) {
        struct kev_image im;
        if (e.cls == KEV_C_SYSTEM && e.ev == KEV_SYS_IMAGE && !kev_image_decode(r, &e, &im) &&
            im.pid == 0 && im.id_len) {
            kev_image_id_hex(im.id, im.id_len, buf, n);
            found = buf;
        }
    }
    sqlite3_free(r);
    return found;
}

// Row `row`'s value: its integer (*have_i) or its text (*s); -1 when the pass it needs failed
static int md_value(struct ks_trace *t, unsigned row, int64_t *i, int *have_i, const char **s,
                    char *buf, size_t n, sqlite3_context *ctx)
{
    char *err = NULL;
    *have_i = 0, *s = NULL;
    if (row < MD_N && md_needs_pass(row) && ks_trace_summary(t, &err)) {
        sqlite3_result_error(ctx, err, -1);
        sqlite3_free(err);
        return -1;
    }
    if (row >= MD_N) { // the header's items, as "header.KEY"
        const struct kev_attr *a = &t->r->kr_attr[row - MD_N];
        snprintf(buf, n, "%.*s", (int)a->ka_vlen, a->ka_val);
        *s = buf;
        return 0;
    }
    switch (row) {
    case MD_TRACE: *s = t->path; break;
    case MD_BOARD: *s = t->r->kr_board[0] ? t->r->kr_board : ks_attr(t, "MACHINE", buf, n); break;
    case MD_CPUS: *i = t->r->kr_trl_ncpu ? t->r->kr_trl_ncpu : t->r->kr_board_ncpu, *have_i = 1; break;
    case MD_HZ: *i = (int64_t)t->r->kr_cycles_per_sec, *have_i = 1; break;
    case MD_BOOT_DATE: *s = ks_attr(t, "BOOT_DATE", buf, n); break;
    case MD_BOOT_TIME: *i = kx_boot_time(t->r), *have_i = *i != 0; break;
    case MD_DATE: *s = ks_attr(t, "DATE", buf, n); break;
    case MD_SYSNAME: *s = ks_attr(t, "SYSNAME", buf, n); break;
    case MD_NODENAME: *s = ks_attr(t, "NODENAME", buf, n); break;
    case MD_RELEASE: *s = ks_attr(t, "SYS_RELEASE", buf, n); break;
    case MD_VERSION: *s = ks_attr(t, "SYS_VERSION", buf, n); break;
    case MD_MACHINE: *s = ks_attr(t, "MACHINE", buf, n); break;
    case MD_FORMAT:
        snprintf(buf, n, "%u.%02u", t->r->kr_ver_major, t->r->kr_ver_minor);
        *s = buf;
        break;
    case MD_EVENTS: *i = (int64_t)t->events, *have_i = t->have_summary; break;
    case MD_LOST: *i = (int64_t)kev_lost_total(t->r), *have_i = t->r->kr_have_trailer; break;
    case MD_START: *i = ks_ns(t, t->t_first), *have_i = t->have_summary && t->events; break;
    case MD_END: *i = ks_ns(t, t->t_last), *have_i = t->have_summary && t->events; break;
    case MD_DAMAGED: *i = t->summary_err != 0, *have_i = t->have_summary; break;
    case MD_DAMAGE_ERROR: *s = t->summary_err ? t->summary_msg : NULL; break;
    case MD_DAMAGE_OFFSET: *i = (int64_t)t->summary_off, *have_i = t->summary_err != 0; break;
    case MD_BUILD: // the build the capture ran: its kernel image's GNU build id (its IMAGE event)
        *s = kernel_build_id(t, buf, n);
        break;
    default: break;
    }
    return 0;
}
#define ROW struct md_row
static void md_name(const struct ks_row *r, sqlite3_context *ctx)
{
    const struct kev_attr *a;
    char buf[256];
    unsigned i = ((const ROW *)r->p)->i;
    if (i < MD_N) {
        ks_result_text(ctx, md_names[i]);
        return;
    }
    a = &r->t->r->kr_attr[i - MD_N];
    snprintf(buf, sizeof(buf), "header.%.*s", (int)a->ka_klen, a->ka_key);
    ks_result_text(ctx, buf);
}
static void md_int(const struct ks_row *r, sqlite3_context *ctx)
{
    char buf[256];
    const char *s;
    int64_t i = 0;
    int have_i;
    if (!md_value(r->t, ((const ROW *)r->p)->i, &i, &have_i, &s, buf, sizeof(buf), ctx)) {
        if (have_i)
            sqlite3_result_int64(ctx, i);
        else
            sqlite3_result_null(ctx);
    }
}
static void md_str(const struct ks_row *r, sqlite3_context *ctx)
{
    char buf[256];
    const char *s;
    int64_t i = 0;
    int have_i;
    if (!md_value(r->t, ((const ROW *)r->p)->i, &i, &have_i, &s, buf, sizeof(buf), ctx))
        ks_result_text(ctx, s && *s ? s : NULL);
}
static const struct ks_rcol metadata_cols[] = {
    { RC_FN("name", "TEXT", md_name), PF }, { RC_CONST_TEXT("key_type", "single"), PF },
    { RC_FN("int_value", "INTEGER", md_int), PF }, { RC_FN("str_value", "TEXT", md_str), PF },
};
#undef ROW
static const struct ks_table t_metadata = {
    .name = "metadata",
    .doc = "the trace's facts: board, CPUs, clock rate, build, boot time, header items",
    .src = KS_SRC_SUMMARY,
    KS_COLS(metadata_cols),
    .nrows = metadata_rows,
    .row = metadata_row,
    .summary_lazy = 1,
};

// Tracks: per thread its kernel calls, messages and instants; per CPU its interrupts and its
// busy counter; per interrupt the pulses it sent; per (process, user event code) a counter.
static unsigned track_count(struct ks_trace *t, unsigned *nthr, unsigned *ncpu)
{
    *nthr = 3 * t->nth;
    *ncpu = 2 * t->ncpu;
    return *nthr + *ncpu + t->nuser;
}
static unsigned track_rows(struct ks_trace *t)
{
    unsigned a, b;
    return track_count(t, &a, &b);
}
// The track of row i: its id, name, type, and owner (a thread, a cpu or a upid; -1 none).
struct track_row {
    int64_t id, upid;
    int th, cpu;
    char name[80], type[20];
};
static const void *track_row(struct ks_trace *t, unsigned i, void *buf)
{
    struct track_row *k = buf;
    unsigned nthr, ncpu;
    track_count(t, &nthr, &ncpu);
    k->th = k->cpu = -1;
    k->upid = -1;
    static const char *const th_type[] = { "thread_kcalls", "thread_msgs", "thread_instants" };
    static const unsigned th_kind[] = { TR_KCALL, TR_MSG, TR_INSTANT };
    if (i < nthr) {
        unsigned n = i % 3, u = i / 3;
        k->id = track_id(th_kind[n], u);
        snprintf(k->type, sizeof(k->type), "%s", th_type[n]);
        k->th = (int)u;
        snprintf(k->name, sizeof(k->name), "%s %s",
                 n == 0 ? "kernel calls" : n == 1 ? "messages" : "events",
                 t->th[u].name[0] ? t->th[u].name : t->th[u].comm);
        return k;
    }
    i -= nthr;
    if (i < ncpu) {
        unsigned c = i / 2;
        k->cpu = (int)c;
        if (i % 2 == 0) {
            k->id = track_id(TR_IRQ, c), snprintf(k->type, sizeof(k->type), "cpu_irq");
            snprintf(k->name, sizeof(k->name), "interrupts CPU %u", c);
        } else {
            k->id = track_id(TR_CPU_BUSY, c), snprintf(k->type, sizeof(k->type), "cpu_busy");
            snprintf(k->name, sizeof(k->name), "cpu.busy");
        }
        return k;
    }
    i -= ncpu;
    const struct ks_user *u = &t->user[i];
    k->id = track_id(TR_USER, (uint64_t)u->pid << 10 | (u->code & 0x3ffu));
    snprintf(k->type, sizeof(k->type), "user_counter");
    k->upid = u->pid;
    if (u->name[0])
        snprintf(k->name, sizeof(k->name), "%s", u->name);
    else
        snprintf(k->name, sizeof(k->name), "user %u", u->code);
    return k;
}
_Static_assert(sizeof(struct track_row) <= KS_ROW_BUF, "a track's row fits the cursor's");
#define ROW struct track_row
static const struct ks_rcol track_cols[] = { // type: the kind of track, not Perfetto's table name
    { RC_INT("id", id), PF }, { RC_TEXT("name", name), PF }, { RC_TEXT("type", type) },
    { RC_UTID("utid", th) }, { RC_INT("cpu", cpu), NUL(NEG) }, { RC_INT("upid", upid), NUL(NEG) },
};
#undef ROW
static const struct ks_table t_track = {
    .name = "track",
    .doc = "every track: a thread's kernel calls, messages, events; a CPU's interrupts and "
    "busy counter; a process's user-event counter",
    .src = KS_SRC_SUMMARY,
    KS_COLS(track_cols),
    .nrows = track_rows,
    .row = track_row,
};

#define ROW struct ks_dl
static const struct ks_rcol deadlock_cols[] = {
    { RC_INT("cycle", cycle) }, { RC_INT("position", pos) }, { RC_NS("ts", t) },
    { RC_NS("broken_ts", broken), NUL(NEG) }, { RC_UTID("utid", th) },
    { RC_TEXT("object", obj) }, { RC_UTID("owner_utid", owner) },
};
#undef ROW
static const struct ks_table t_deadlock = {
    .name = "deadlock",
    .doc = "deadlock cycles (kevstat -s waits): one row per thread of a cycle, waiting on "
    "an object its next thread holds",
    .src = KS_SRC_SUMMARY,
    KS_COLS(deadlock_cols),
    KS_ROWS(dl, ndl),
};

#define ROW struct ks_inv
static const struct ks_rcol inversion_cols[] = {
    { RC_INT("inversion", inv) }, { RC_UTID("waiter_utid", waiter) }, { RC_TEXT("object", obj) },
    { RC_UTID("owner_utid", owner) }, { RC_INT("waits", count) }, { RC_SPAN("lost", lost) },
    { RC_SPAN("max_lost", max) }, { RC_NS("ts", first) }, { RC_UTID("middle_utid", middle) },
    { RC_SPAN("middle_lost", mid_lost) },
};
#undef ROW
static const struct ks_table t_inversion = {
    .name = "inversion",
    .doc = "priority inversions (kevstat -s waits, the model's findings): one row per middle "
    "thread of each, with the inversion's waits and time lost and the thread's share",
    .src = KS_SRC_SUMMARY,
    KS_COLS(inversion_cols),
    KS_ROWS(inv, ninv),
};

#define ROW struct kx_gap
static const struct ks_rcol lost_cols[] = {
    { RC_INT("cpu", cpu) }, { RC_NS("ts", t0) }, { RC_DUR("dur", t0, t1) },
    { RC_INT("lost", lost) }, { RC_INT("after_end", after_end) },
};
#undef ROW
static const struct ks_table t_lost = {
    .name = "lost",
    .doc = "lost-event windows: events of a CPU the capture could not keep, and where",
    .src = KS_SRC_SUMMARY,
    KS_COLS(lost_cols),
    KS_ROWS(gap, ngap),
};

// instance: every task instance, judged (kx_task.h: the model's rule, kevstat -s tasks's)
#define ROW struct kx_inst
static void inst_lateness(const struct ks_row *r, sqlite3_context *ctx) // signed, in ns
{
    const ROW *x = r->p;
    if (!x->deadline || (!x->end && !x->missed)) { // no deadline, or still ahead at the end
        sqlite3_result_null(ctx);
        return;
    }
    uint64_t due = x->release + x->deadline, end = x->end ? x->end : r->t->t_last;
    sqlite3_result_int64(ctx, ks_ns(r->t, end) - ks_ns(r->t, due));
}
// A judgement of the instance (0 or 1), NULL when its task has no deadline.
static void judged(sqlite3_context *ctx, const ROW *x, int v)
{
    if (x->deadline)
        sqlite3_result_int(ctx, v);
    else
        sqlite3_result_null(ctx);
}
static void inst_missed(const struct ks_row *r, sqlite3_context *ctx)
{
    judged(ctx, r->p, ((const ROW *)r->p)->missed);
}
static void inst_emul_miss(const struct ks_row *r, sqlite3_context *ctx)
{
    judged(ctx, r->p, ((const ROW *)r->p)->emul_miss);
}
static void inst_irq(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    if (x->irq)
        sqlite3_result_int(ctx, (int)x->irq - 1);
    else
        sqlite3_result_null(ctx);
}
static const struct ks_rcol inst_cols[] = {
    { RC_INT("id", id) }, { RC_UTID("utid", th) }, { RC_NS("ts", release) },
    { RC_DUR("dur", release, end), NUL(ZERO), UNENDED }, { RC_SPAN("exec_dur", exec) },
    { RC_FN("lateness", "INTEGER", inst_lateness) }, { RC_SPAN("period", period), NUL(ZERO) },
    { RC_FN("missed", "INTEGER", inst_missed) }, { RC_SPAN("deadline", deadline), NUL(ZERO) },
    { RC_NS("start_ts", start), NUL(ZERO) }, { RC_NS("end_ts", end), NUL(ZERO) },
    { RC_SPAN("ready_dur", ready) }, { RC_SPAN("blocked_dur", blocked) },
    { RC_INT("preemptions", preempt) }, { RC_NAME("released_by", how, kx_rel_how_name) },
    { RC_UTID("source_utid", src) }, { RC_FN("source_irq", "INTEGER", inst_irq) },
    { RC_INT("queued", queued) }, { RC_SPAN("emulator_dur", emul) },
    { RC_FN("emulator_miss", "INTEGER", inst_emul_miss) }, { RC_INT("exit_path", exit) },
};
#undef ROW
static const struct ks_table t_instance = {
    .name = "instance",
    .doc = "task instances (kevstat -s tasks): each job of a thread from its release at its "
    "activation point to its next wait there, judged against its task's deadline",
    .src = KS_SRC_SUMMARY,
    KS_COLS(inst_cols),
    KS_ROWS(inst, ninst),
};

// task: every task (kx_task.h): what kind it is, its period and deadline, what it missed
#define ROW struct kx_task
static void task_kind(const struct ks_row *r, sqlite3_context *ctx)
{
    sqlite3_result_text(ctx, kx_task_kind(r->p), -1, SQLITE_STATIC);
}
static void task_by(const struct ks_row *r, sqlite3_context *ctx)
{
    sqlite3_result_text(ctx, kx_rel_how_name(kx_task_released_by(r->p)), -1, SQLITE_STATIC);
}
static void task_period_from(const struct ks_row *r, sqlite3_context *ctx)
{
    const char *f = kx_task_period_from(r->p);
    if (f)
        sqlite3_result_text(ctx, f, -1, SQLITE_STATIC);
    else
        sqlite3_result_null(ctx);
}
static const struct ks_rcol task_cols[] = {
    { RC_UTID("utid", th) }, { RC_FN("kind", "TEXT", task_kind) },
    { RC_FN("released_by", "TEXT", task_by) }, { RC_INT("instances", n) },
    { RC_INT("ended", ended) }, { RC_INT("open", unfinished) }, { RC_INT("exits", exits) },
    { RC_SPAN("period", period), NUL(ZERO) }, { RC_INT("period_given", period_given) },
    { RC_FN("period_from", "TEXT", task_period_from) },
    { RC_SPAN("timer_interval", interval), NUL(ZERO) },
    { RC_SPAN("deadline", deadline), NUL(ZERO) }, { RC_INT("deadline_given", deadline_given) },
    { RC_INT("misses", misses) }, { RC_INT("emulator_misses", emul_misses) },
    { RC_INT("missed_periods", missed_periods) },
};
#undef ROW
static const struct ks_table t_task = {
    .name = "task",
    .doc = "tasks (kevstat -s tasks's line): periodic (a timer's pulses release it) or event-driven, period and deadline (NULL: "
    "none), the jobs that missed it, the periods whose pulse the kernel dropped, the exit paths",
    .src = KS_SRC_SUMMARY,
    KS_COLS(task_cols),
    KS_ROWS(task, ntask),
};

// ============================================================================================
// Tables of events (in time order)
// ============================================================================================

// The event's thread before it (the model's): its own pid/tid for a thread event.
static int ev_thread(struct ks_walk *w, const struct kev_event *e)
{
    struct kx_model *m = w->s ? &w->s->m : w->m;
    return m ? kx_event_thread(m, e) : -1;
}

static void ev_rec(struct ks_walk *w, const struct kev_event *e, struct ks_rec *rec)
{
    memset(rec, 0, sizeof(*rec));
    struct ks_ev_rec *v = &rec->u.ev;
    rec->kind = KS_EVENT;
    v->id = w->nev;
    v->t = e->t64;
    v->cls = e->cls, v->ev = e->ev, v->cpu = e->cpu, v->nw = e->nw;
    v->offset = e->offset;
    memcpy(v->w, e->w, (e->nw < 8 ? e->nw : 8) * sizeof(uint32_t));
    v->th = ev_thread(w, e);
    struct kx_model *m = w->s ? &w->s->m : w->m;
    v->pid = m && v->th >= 0 ? m->th[v->th].pid : 0;
}

static void event_on(struct ks_walk *w, const struct kev_event *e)
{
    if (e->cls == KEV_C_CONTROL)
        return;
    struct ks_rec rec;
    ev_rec(w, e, &rec);
    ks_push(w, &rec);
}
// The kind of an event as a name: "RUNNING", "MsgSend/entry", "INT_ENTR", "SND_PULSE", ...
static const char *event_name(const struct ks_ev_rec *v, char *b, size_t n)
{
    const char *s = NULL;
    char nb[32];
    switch (v->cls) {
    case KEV_C_PR_TH:
        s = v->ev <= KEV_TH_DESTROY ? kev_thread_state_name(v->ev) : kev_process_event_name(v->ev);
        break;
    case KEV_C_KER_CALL:
        snprintf(b, n, "%s/%s", v->ev < KEV_KC_MAX // (an entry's arguments name it)
                 ? kx_kcall_api_name(v->ev, v->w, v->nw < 8 ? v->nw : 8, nb, sizeof(nb))
                 : kx_kcall_name(v->ev % KEV_KC_MAX, nb, sizeof(nb)), kev_kcall_part_name(v->ev));
        return b;
    case KEV_C_INT: s = kev_int_name(v->ev); break;
    case KEV_C_COMM: s = kev_comm_name(v->ev); break;
    case KEV_C_SYSTEM: s = kev_system_name(v->ev); break;
    case KEV_C_USER: snprintf(b, n, "user %u", v->ev); return b;
    default: break;
    }
    if (s)
        return s;
    snprintf(b, n, "%s %u", kev_class_name(v->cls), v->ev);
    return b;
}
#define ROW struct ks_ev_rec
static void event_name_col(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *v = r->p;
    char b[160];
    static const struct kev_field_desc *site;
    if (v->cls == KEV_C_SYSTEM && v->ev == KEV_SYS_USDT && // its probe, as the usdt table names it
        (site || (site = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_USDT, "site"))) &&
        site->word < v->nw && site->word < 8 &&
        ks_syms_usdt_name(r->t, kev_field_of_word(site, v->w[site->word]), b, sizeof(b)) == 0) {
        ks_result_text(ctx, b);
        return;
    }
    ks_result_text(ctx, event_name(v, b, sizeof(b)));
}
static const struct ks_rcol event_cols[] = {
    { RC_INT("id", id) }, { RC_NS("ts", t) }, { RC_INT("cpu", cpu) }, { RC_UTID_M("utid", th) },
    { RC_NAME("class", cls, kev_class_name) }, { RC_INT("type", ev) },
    { RC_FN("name", "TEXT", event_name_col) }, { RC_INT("nwords", nw) },
    { RC_ELEM("w0", w, 0, nw) }, { RC_ELEM("w1", w, 1, nw) }, { RC_ELEM("w2", w, 2, nw) },
    { RC_ELEM("w3", w, 3, nw) }, { RC_INT("offset", offset) },
    { RC_SLICE("arg_set_id", id, SL_EVENT) }, // its fields in args
};
#undef ROW
static const struct ks_table t_event = {
    .name = "event",
    .doc = "every event of the trace (CONTROL aside), as decoded: the largest table; its fields,"
           " named by the event table, are in args (arg_set_id, keys fields.NAME)",
    .src = KS_SRC_EVENTS,
    KS_COLS(event_cols),
    .ts_col = 1,
    .on_event = event_on,
};

// user_event: a program's events, with their registered names and values (kx_user_value).
static void user_fill(struct ks_walk *w, const struct kev_event *e, struct ks_rec *rec)
{
    ev_rec(w, e, rec);
    struct ks_ev_rec *v = &rec->u.ev;
    char tmp[KS_TEXT];
    const char *name = kx_user_name(w->s, v->pid, e->ev);
    snprintf(v->name, sizeof(v->name), "%s", name ? name : "");
    kx_user_value(w->s, e, v->pid, v->text, sizeof(v->text));
    v->v[0] = kx_user_string(w->r, e, tmp, sizeof(tmp));
}
static void user_on(struct ks_walk *w, const struct kev_event *e)
{
    if (e->cls != KEV_C_USER)
        return;
    struct ks_rec rec;
    user_fill(w, e, &rec);
    ks_push(w, &rec);
}
#define ROW struct ks_ev_rec
static const struct ks_rcol user_cols[] = {
    { RC_INT("id", id) }, { RC_NS("ts", t) }, { RC_INT("cpu", cpu) }, { RC_UTID("utid", th) },
    { RC_INT("upid", pid), WHEN(NONNEG, th) }, { RC_INT("code", ev) },
    { RC_TEXT("name", name), NUL(EMPTY) }, { RC_TEXT("value", text) },
    { RC_INT("is_string", v[0]) }, { RC_INT("nwords", nw) },
    { RC_ELEM_S32("w0", w, 0, nw), WHEN(CLEAR, v[0]) }, // a number's words
    { RC_ELEM_S32("w1", w, 1, nw), WHEN(CLEAR, v[0]) },
    { RC_SLICE("arg_set_id", id, SL_INSTANT) },
};
#undef ROW
static const struct ks_table t_user_event = {
    .name = "user_event",
    .doc = "programs' user events: code, registered name, value as every tool formats it",
    .src = KS_SRC_EVENTS,
    KS_COLS(user_cols),
    .ts_col = 1,
    .needs_stats = 1,
    .on_event = user_on,
    .skip = KX_SKIP_MSG | KX_SKIP_WAIT,
};

// usdt: each USDT firing (docs/usdt.md), named from its program's note as every tool names it
// (syms_usdt.h): name "provider:probe", then its parts, the program, the function holding the
// site; the arguments as the program passed them (signed where the note says so). The record:
// the site in x, the argument count in nw, the arguments in v, name the probe and text the
// provider, probe, module and function, each NUL-terminated.
static void usdt_on(struct ks_walk *w, const struct kev_event *e)
{
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_USDT)
        return;
    if (!w->state && !(w->state = sqlite3_malloc(sizeof(struct kev_fields))))
        return;
    struct kev_fields *fs = w->state;
    struct syms_usdt_firing f;
    struct syms_usdt named;
    kev_fields_decode(w->r, e, fs);
    if (ks_syms_usdt(w->t, fs, &f, &named) != 0)
        return;
    struct ks_rec rec;
    ev_rec(w, e, &rec);
    struct ks_ev_rec *v = &rec.u.ev;
    v->x = f.site;
    v->nw = f.nargs;
    for (unsigned k = 0; k < f.nargs; k++)
        v->v[k] = (int64_t)f.arg[k];
    if (f.p) {
        const char *part[4] = { f.p->provider, f.p->name, f.p->module, f.p->function };
        size_t at = 0;
        for (unsigned k = 0; k < 4; k++)
            at += (size_t)snprintf(v->text + at, sizeof(v->text) - at, "%.47s", part[k]) + 1;
        snprintf(v->name, sizeof(v->name), "%.63s", f.p->probe);
    }
    ks_push(w, &rec);
}
#define ROW struct ks_ev_rec
static void usdt_part(const struct ks_row *r, sqlite3_context *ctx, unsigned k)
{
    const ROW *v = r->p;
    const char *s = v->text;
    for (unsigned i = 0; i < k && v->name[0]; i++)
        s += strlen(s) + 1;
    if (v->name[0])
        ks_result_text(ctx, s);
    else
        sqlite3_result_null(ctx);
}
static void usdt_provider(const struct ks_row *r, sqlite3_context *ctx) { usdt_part(r, ctx, 0); }
static void usdt_probe(const struct ks_row *r, sqlite3_context *ctx) { usdt_part(r, ctx, 1); }
static void usdt_module(const struct ks_row *r, sqlite3_context *ctx) { usdt_part(r, ctx, 2); }
static void usdt_function(const struct ks_row *r, sqlite3_context *ctx) { usdt_part(r, ctx, 3); }
static const struct ks_rcol usdt_cols[] = {
    { RC_INT("id", id) }, { RC_NS("ts", t) }, { RC_INT("cpu", cpu) }, { RC_UTID_M("utid", th) },
    { RC_INT("upid", pid), WHEN(NONNEG, th) }, { RC_INT("site", x) },
    { RC_TEXT("name", name), NUL(EMPTY) }, { RC_FN("provider", "TEXT", usdt_provider) },
    { RC_FN("probe", "TEXT", usdt_probe) }, { RC_FN("module", "TEXT", usdt_module) },
    { RC_FN("function", "TEXT", usdt_function) }, { RC_INT("nargs", nw) },
    { RC_ELEM("arg0", v, 0, nw) }, { RC_ELEM("arg1", v, 1, nw) }, { RC_ELEM("arg2", v, 2, nw) },
    { RC_ELEM("arg3", v, 3, nw) }, { RC_ELEM("arg4", v, 4, nw) }, { RC_ELEM("arg5", v, 5, nw) },
};
#undef ROW
static const struct ks_table t_usdt = {
    .name = "usdt",
    .doc = "programs' USDT firings: name provider:probe, provider, probe, module and function "
           "from the program's ELF note (NULL when no file names the site), arguments as the "
           "program passed them",
    .src = KS_SRC_EVENTS,
    KS_COLS(usdt_cols),
    .ts_col = 1,
    .on_event = usdt_on,
};

// ---- declared tables: an event's fields as columns (ks.h struct ks_decl, ks_decl.c) ------------
#define DC(n, t, nm, src, f, cond, names, value) { { n, t, nm }, src, f, cond, names, value }
#define DC_ID { { "id", "INTEGER", 0 }, KS_DC_ID, NULL, NULL, NULL, NULL }
#define DC_TS { { "ts", "INTEGER", 0 }, KS_DC_TS, NULL, NULL, NULL, NULL }
#define DC_CPU { { "cpu", "INTEGER", 0 }, KS_DC_CPU, NULL, NULL, NULL, NULL }
#define DC_UTID(who) { { "utid", "INTEGER", 1 }, KS_DC_UTID, who, NULL, NULL, NULL }
#define DC_FIELD(n, f) { { n, "INTEGER", 0 }, KS_DC_FIELD, f, NULL, NULL, NULL }
#define DC_NAME(n, f, names) { { n, "TEXT", 0 }, KS_DC_NAME, f, NULL, names, NULL }
#define DC_MODEL(n, t, value) { { n, t, 0 }, KS_DC_MODEL, NULL, NULL, NULL, value }

// fault: FAULT's fields (trace/kev_stack.h), its text as every tool writes it
static int fault_text(struct ks_walk *w, const struct kev_event *e, const struct kev_fields *fs,
                      int64_t *v, char *text, size_t n)
{
    struct kev_fault f;
    (void)w, (void)fs, (void)v;
    if (kev_fault_decode(e->w, e->nw, &f))
        return 0;
    kev_fault_text(&f, text, n);
    return 2;
}
static const struct ks_dcol fault_cols[] = {
    DC_ID, DC_TS, DC_CPU, DC_UTID("who"),
    DC("pid", "INTEGER", 0, KS_DC_PID, "who", NULL, NULL, NULL),
    DC("tid", "INTEGER", 0, KS_DC_TID, "who", NULL, NULL, NULL),
    DC_NAME("signal", "signal", kev_signal_name), DC_NAME("kind", "kind", kev_fault_kind_name),
    DC_FIELD("pc", "pc"), DC("addr", "INTEGER", 0, KS_DC_IF, "addr", "addr_valid", NULL, NULL),
    DC_MODEL("text", "TEXT", fault_text),
};
_Static_assert(NCOL(fault_cols) <= KS_DECL_COLS, "a declared table has at most KS_DECL_COLS columns");
static const struct ks_decl fault_decl = { KEV_C_SYSTEM, KEV_SYS_FAULT, fault_cols };
static const struct ks_table t_fault = {
    .name = "fault",
    .doc = "processes killed by a fault: signal, kind, pc, address (its stack: the "
    "stack_sample of kind 'fault' of the same thread right after it)",
    .src = KS_SRC_EVENTS,
    .decl = &fault_decl,
    .ncols = NCOL(fault_cols),
    .ts_col = 1,
    .on_event = ks_decl_on,
};

// stack_sample (trace/kev_stack.h)
static void stack_on(struct ks_walk *w, const struct kev_event *e)
{
    struct kev_stack st;
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_STACK || kev_stack_decode(e->w, e->nw, &st))
        return;
    struct ks_rec rec;
    ev_rec(w, e, &rec);
    struct ks_ev_rec *v = &rec.u.ev;
    struct kx_model *m = w->s ? &w->s->m : w->m;
    v->th = m ? kx_thread(m, st.pid, st.tid) : -1;
    v->v[0] = st.pid, v->v[1] = st.tid, v->v[2] = st.kind, v->v[3] = st.depth, v->v[4] = st.ended;
    size_t k = 0;
    v->text[0] = 0;
    for (unsigned i = 0; i < st.depth && k + 20 < sizeof(v->text); i++) // innermost first
        k += (size_t)snprintf(v->text + k, sizeof(v->text) - k, "%s0x%llx", i ? ";" : "",
                              (unsigned long long)st.pcs[i]);
    ks_push(w, &rec);
}
#define ROW struct ks_ev_rec
static void stack_frames(const struct ks_row *r, sqlite3_context *ctx)
{ // the frames named (the record holds them in hex, innermost first)
    uint64_t pcs[KEV_STACK_MAXDEPTH];
    unsigned depth = 0;
    for (const char *p = ((const ROW *)r->p)->text; *p && depth < KEV_STACK_MAXDEPTH; ) {
        pcs[depth++] = strtoull(p, (char **)&p, 16);
        while (*p == ';')
            p++;
    }
    char named[2048];
    ks_syms_stack(r->t, pcs, depth, named, sizeof(named));
    ks_result_text(ctx, named);
}
static const struct ks_rcol stack_cols[] = {
    { RC_INT("id", id) }, { RC_NS("ts", t) }, { RC_INT("cpu", cpu) },
    { RC_UTID_M("utid", th) }, { RC_INT("pid", v[0]) },
    { RC_INT("tid", v[1]) }, { RC_NAME("kind", v[2], kev_stack_kind_name) },
    { RC_INT("depth", v[3]) }, { RC_NAME("ended", v[4], kev_stack_ended_name), NUL(ZERO) },
    { RC_FN("frames", "TEXT", stack_frames) },
};
#undef ROW
static const struct ks_table t_stack = {
    .name = "stack_sample",
    .doc = "stacks the capture holds: profile samples (user, kernel) and faults' "
    "stacks; frames innermost first",
    .src = KS_SRC_EVENTS,
    KS_COLS(stack_cols),
    .ts_col = 1,
    .on_event = stack_on,
};

// prio_change: PRIO_CHANGE's fields; its kind by the one rule of every tool (kx_prio.h): a
// boost is a rise by mutex inheritance
static enum kx_prio_kind prio_kind_of(const struct kev_fields *fs)
{
    const struct kev_field *now = kev_field_get(fs, "new_prio"), *was = kev_field_get(fs, "old_prio"),
                           *cause = kev_field_get(fs, "cause");
    return now && was && cause ? kx_prio_kind((unsigned)now->v, (unsigned)was->v, (unsigned)cause->v)
                               : KX_PRIO_UNKNOWN;
}
static int prio_kind(struct ks_walk *w, const struct kev_event *e, const struct kev_fields *fs,
                     int64_t *v, char *text, size_t n)
{
    (void)w, (void)e, (void)v;
    snprintf(text, n, "%s", kx_prio_kind_name(prio_kind_of(fs)));
    return 2;
}
static int prio_is_boost(struct ks_walk *w, const struct kev_event *e,
                         const struct kev_fields *fs, int64_t *v, char *text, size_t n)
{
    (void)w, (void)e, (void)text, (void)n;
    *v = kx_prio_is_boost(prio_kind_of(fs));
    return 1;
}
static const struct ks_dcol prio_cols[] = {
    DC_ID, DC_TS, DC_CPU, DC_UTID("who"), DC_FIELD("old_priority", "old_prio"),
    DC_FIELD("priority", "new_prio"), DC_FIELD("cause", "cause"),
    DC_NAME("cause_name", "cause", kw_cause_name), DC_MODEL("kind", "TEXT", prio_kind),
    DC_MODEL("is_boost", "INTEGER", prio_is_boost),
};
_Static_assert(NCOL(prio_cols) <= KS_DECL_COLS, "a declared table has at most KS_DECL_COLS columns");
static const struct ks_decl prio_decl = { KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, prio_cols };
static const struct ks_table t_prio = {
    .name = "prio_change",
    .doc = "priority changes with their cause and kind (the capture's PRIO_CHANGE events; "
           "is_boost: a rise by mutex inheritance, the rule kevstat and kevreport count)",
    .src = KS_SRC_EVENTS,
    .decl = &prio_decl,
    .ncols = NCOL(prio_cols),
    .ts_col = 1,
    .on_event = ks_decl_on,
};

// ============================================================================================
// Tables of the model's records
// ============================================================================================

static void push_state(void *user, const struct kx_state_row *r)
{
    struct ks_rec rec = { .kind = KS_STATE };
    rec.u.st = *r;
    ks_push(ks_walk_of(user), &rec);
}
static void sink_state(struct kx_sink *k) { k->state = push_state; }

// sched_slice and thread_state: the model's state intervals (kx_state_row)
#define ROW struct kx_state_row
static int st_woken(const ROW *x) // a READY interval of a thread that was blocked
{
    return x->state == KEV_TH_READY && x->woken;
}
static void st_end_state(const struct ks_row *r, sqlite3_context *ctx)
{
    ks_result_text(ctx, perfetto_state(((const ROW *)r->p)->end_state, 0));
}
static const struct ks_rcol sched_cols[] = {
    { RC_INT("id", id), PF }, { RC_NS("ts", t0), PF }, { RC_DUR("dur", t0, t1), PF },
    { RC_INT("cpu", cpu), NUL(NEG), PF }, { RC_UTID("utid", th), PF },
    { RC_FN("end_state", "TEXT", st_end_state), PF }, { RC_INT("priority", prio), NUL(NEG), PF },
    { RC_INT("ucpu", cpu), NUL(NEG), PF }, { RC_NS("ts_end", t1) },
    { RC_NAME("kernel_end_state", end_state, state_name) }, { RC_SPAN("exec_dur", exec) },
};
static void sched_push(void *user, const struct kx_state_row *r)
{
    if (r->state == KEV_TH_RUNNING)
        push_state(user, r);
}
static void sink_sched(struct kx_sink *k) { k->state = sched_push; }
static const struct ks_table t_sched = {
    .name = "sched_slice",
    .doc = "each time a thread ran on a CPU (Perfetto's; priority the kernel's, larger "
    "more urgent; end_state the kernel's state name; exec_dur what its CPU executed of dur: "
    "less where an emulator ran the CPUs in turn)",
    .src = KS_SRC_MODEL,
    KS_COLS(sched_cols),
    .needs_stats = 1,
    .sink = sink_sched,
    .skip = KX_SKIP_MSG | KX_SKIP_WAIT,
};

static void st_state(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    ks_result_text(ctx, perfetto_state(x->state, st_woken(x)));
}
static void st_blocked_function(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    char nb[32];
    ks_result_text(ctx, x->kcall ? kx_kcall_name(x->kcall - 1, nb, sizeof(nb)) : NULL);
}
static void st_irq_context(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    if (st_woken(x))
        sqlite3_result_int(ctx, x->irq != 0);
    else
        sqlite3_result_null(ctx);
}
static void st_waker_irq(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    if (st_woken(x) && x->irq)
        sqlite3_result_int(ctx, (int)x->irq - 1);
    else
        sqlite3_result_null(ctx);
}
static void st_woken_col(const struct ks_row *r, sqlite3_context *ctx)
{
    sqlite3_result_int(ctx, st_woken(r->p));
}
static void st_blocked_object(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    char ob[48];
    ks_result_text(ctx, x->wait ? kx_wait_obj(r->w->s, x->obj, ob, sizeof(ob)) : NULL);
}
static const struct ks_rcol ts_cols[] = {
    { RC_INT("id", id), PF }, { RC_NS("ts", t0), PF }, { RC_DUR("dur", t0, t1), PF },
    { RC_INT("cpu", cpu), NUL(NEG), PF }, { RC_UTID("utid", th), PF },
    { RC_FN("state", "TEXT", st_state), PF },
    { RC_NULL("io_wait", "INTEGER"), PF }, // the kernel has no such state
    { RC_FN("blocked_function", "TEXT", st_blocked_function), PF },
    { RC_UTID("waker_utid", waker), WHEN_EQ(state, KEV_TH_READY), PF },
    { RC_INT("waker_id", waker_id), NUL(ZERO), WHEN_EQ(state, KEV_TH_READY), PF },
    { RC_FN("irq_context", "INTEGER", st_irq_context), PF },
    { RC_INT("ucpu", cpu), NUL(NEG), PF }, { RC_INT("priority", prio), NUL(NEG) },
    { RC_NAME("end_state", end_state, state_name) },
    { RC_FN("blocked_object", "TEXT", st_blocked_object) },
    { RC_UTID("blocked_owner_utid", owner), WHEN(SET, wait) },
    { RC_INT("wait_id", wait), NUL(ZERO) }, { RC_FN("waker_irq", "INTEGER", st_waker_irq) },
    { RC_FN("woken", "INTEGER", st_woken_col) }, { RC_NAME("kernel_state", state, state_name) },
};
#undef ROW
static const struct ks_table t_thread_state = {
    .name = "thread_state",
    .doc = "every thread's state over time (Perfetto's; states the kernel's names), "
    "with the blocking object, its owner and the waker",
    .src = KS_SRC_MODEL,
    KS_COLS(ts_cols),
    .needs_stats = 1,
    .sink = sink_state,
    .skip = KX_SKIP_MSG,
};

static void push_kcall(void *user, const struct kx_kcall_row *r)
{
    struct ks_rec rec = { .kind = KS_KCALL };
    rec.u.kc = *r;
    ks_push(ks_walk_of(user), &rec);
}
static void sink_kcall(struct kx_sink *k) { k->kcall = push_kcall; }
#define ROW struct kx_kcall_row
static int kc_returned(const ROW *x) // its exit gave a result
{
    return x->exited && !x->interrupted;
}
static void kc_ts(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    ks_result_ns(ctx, r->t, x->t0 ? x->t0 : x->t1, 1);
}
static void kc_dur(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    if (x->t0 && x->exited)
        sqlite3_result_int64(ctx, ks_ns(r->t, x->t1) - ks_ns(r->t, x->t0));
    else
        sqlite3_result_null(ctx);
}
static void kc_name(const struct ks_row *r, sqlite3_context *ctx)
{
    char nb[32];
    const ROW *x = r->p;
    ks_result_text(ctx, kx_kcall_api_name(x->call, x->arg, x->nargs, nb, sizeof(nb)));
}
static void kc_ret(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    if (kc_returned(x))
        sqlite3_result_int(ctx, x->ret);
    else
        sqlite3_result_null(ctx);
}
static void kc_errno(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    if (kc_returned(x))
        sqlite3_result_int(ctx, (int)x->err);
    else
        sqlite3_result_null(ctx);
}
static void kc_errno_name(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    ks_result_text(ctx, x->exited && x->err ? kev_errno_name(x->err) : NULL);
}
static const struct ks_rcol kcall_cols[] = {
    { RC_INT("id", id) }, { RC_FN("ts", "INTEGER", kc_ts) }, { RC_FN("dur", "INTEGER", kc_dur) },
    { RC_UTID("utid", th) }, { RC_INT("cpu", cpu) }, { RC_INT("call", call) },
    { RC_FN("name", "TEXT", kc_name) }, { RC_ELEM("arg0", arg, 0, nargs) },
    { RC_ELEM("arg1", arg, 1, nargs) }, { RC_ELEM("arg2", arg, 2, nargs) },
    { RC_ELEM("arg3", arg, 3, nargs) }, { RC_INT("nargs", nargs) },
    { RC_FN("ret", "INTEGER", kc_ret) }, { RC_FN("errno", "INTEGER", kc_errno) },
    { RC_FN("errno_name", "TEXT", kc_errno_name) }, { RC_FLAG("entered", t0) },
    { RC_INT("exited", exited) }, { RC_INT("interrupted", interrupted) },
};
#undef ROW
static const struct ks_table t_kcall = {
    .name = "kcall",
    .doc = "every kernel call: entry to exit on its thread, arguments, result and errno",
    .src = KS_SRC_MODEL,
    KS_COLS(kcall_cols),
    .needs_stats = 1,
    .sink = sink_kcall,
    .skip = KX_SKIP_MSG | KX_SKIP_WAIT,
};

static void push_irq(void *user, const struct kx_irq_row *r)
{
    struct ks_rec rec = { .kind = KS_IRQ };
    rec.u.irq = *r;
    ks_push(ks_walk_of(user), &rec);
}
static void sink_irq(struct kx_sink *k) { k->irq = push_irq; }
#define ROW struct kx_irq_row
static void irq_name(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    const char *pseudo = kev_int_pseudo_name(x->irq);
    char nb[48];
    snprintf(nb, sizeof(nb), "irq %u%s%s%s", x->irq, pseudo ? " (" : "", pseudo ? pseudo : "",
             pseudo ? ")" : "");
    ks_result_text(ctx, nb);
}
static void irq_handler_dur(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    if (x->h0 && x->h1 >= x->h0)
        sqlite3_result_int64(ctx, ks_ns(r->t, x->h1) - ks_ns(r->t, x->h0));
    else
        sqlite3_result_null(ctx);
}
static void irq_latency(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    if (x->t_th) // the model's latency (kevstat's), in ns
        sqlite3_result_int64(ctx, ks_ns(r->t, x->t_th - x->t0));
    else
        sqlite3_result_null(ctx);
}
static const char *irq_how(unsigned how)
{
    return how == KX_IRQ_PULSE ? "pulse" : how == KX_IRQ_WAKE ? "wake" : NULL;
}
static const struct ks_rcol irq_cols[] = {
    { RC_INT("id", id) }, { RC_NS("ts", t0) }, { RC_DUR("dur", t0, t1), NUL(ZERO) },
    { RC_INT("cpu", cpu) }, { RC_INT("irq", irq) }, { RC_FN("name", "TEXT", irq_name) },
    { RC_NS("handler_ts", h0), NUL(ZERO) }, { RC_FN("handler_dur", "INTEGER", irq_handler_dur) },
    { RC_UTID("utid", th) }, { RC_NS("handled_ts", t_th), NUL(ZERO) },
    { RC_FN("latency", "INTEGER", irq_latency) }, { RC_NAME("how", how, irq_how) },
};
#undef ROW
static const struct ks_table t_irq = {
    .name = "irq",
    .doc = "every interrupt, its handler, and the thread that handled it with the "
    "interrupt-to-thread latency (kevstat -s irq's)",
    .src = KS_SRC_MODEL,
    KS_COLS(irq_cols),
    .needs_stats = 1,
    .sink = sink_irq,
    .skip = KX_SKIP_WAIT,
};

static void push_msg(void *user, const struct kx_msg *g)
{
    struct ks_walk *w = ks_walk_of(user);
    struct ks_rec rec = { .kind = KS_MSG };
    struct ks_msg_rec *m = &rec.u.msg;
    m->id = g->id;
    m->client = g->client, m->server = g->server;
    m->irq = g->irq;
    m->pulse = g->pulse, m->error = g->error;
    m->client_pid = g->client_pid, m->srv_pid = g->srv_pid, m->coid = g->coid;
    m->rcvid = g->rcvid;
    m->t_send = g->t_send, m->t_recv = g->t_recv, m->t_reply = g->t_reply;
    m->parent = g->parent >= 0 ? w->s->q.m[g->parent].id : 0;
    ks_push(w, &rec);
}
static void sink_msg(struct kx_sink *k) { k->msg = push_msg; }
#define ROW struct ks_msg_rec
static void msg_dur(const struct ks_row *r, sqlite3_context *ctx) // a pulse's to its receive
{
    const ROW *m = r->p;
    uint64_t end = m->pulse ? m->t_recv : m->t_reply;
    sqlite3_result_int64(ctx, ks_ns(r->t, end) - ks_ns(r->t, m->t_send));
}
// a pulse names its channel and code, not the server: the receiver's process
static void msg_server_pid(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *m = r->p;
    if (!m->pulse)
        sqlite3_result_int64(ctx, m->srv_pid);
    else if (m->server >= 0)
        sqlite3_result_int64(ctx, r->w->s->m.th[m->server].pid);
    else
        sqlite3_result_null(ctx);
}
// a pulse's key, SND_PULSE's second word: its fields chid and code, as the event table has them
static unsigned pulse_field(uint32_t key, const char *name)
{
    return (unsigned)kev_field_of_word(kev_field_desc_get(KEV_C_COMM, KEV_COMM_SND_PULSE, name),
                                       key);
}
static void msg_channel(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *m = r->p;
    if (m->pulse)
        sqlite3_result_int64(ctx, pulse_field(m->srv_pid, "chid"));
    else
        sqlite3_result_null(ctx);
}
static void msg_code(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *m = r->p;
    if (m->pulse)
        sqlite3_result_int64(ctx, pulse_field(m->srv_pid, "code"));
    else
        sqlite3_result_null(ctx);
}
static void msg_irq(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *m = r->p;
    if (m->irq)
        sqlite3_result_int(ctx, (int)m->irq - 1);
    else
        sqlite3_result_null(ctx);
}
static const struct ks_rcol msg_cols[] = {
    { RC_INT("id", id) }, { RC_NS("ts", t_send) }, { RC_FN("dur", "INTEGER", msg_dur) },
    { RC_UTID("client_utid", client) }, { RC_INT("client_pid", client_pid), WHEN(CLEAR, irq) },
    { RC_UTID("server_utid", server) }, { RC_FN("server_pid", "INTEGER", msg_server_pid) },
    { RC_FN("irq", "INTEGER", msg_irq) }, { RC_INT("pulse", pulse) }, { RC_INT("coid", coid) },
    { RC_INT("rcvid", rcvid) }, { RC_NS("recv_ts", t_recv), NUL(ZERO) },
    { RC_NS("reply_ts", t_reply), NUL(ZERO), WHEN(CLEAR, pulse) },
    { RC_DUR("queue", t_send, t_recv) },
    { RC_INT("error", error) }, { RC_INT("parent_id", parent), NUL(ZERO) },
    { RC_FN("channel", "INTEGER", msg_channel) }, { RC_FN("code", "INTEGER", msg_code) },
};
#undef ROW
static const struct ks_table t_msg = {
    .name = "msg",
    .doc = "every message (send to reply) and pulse (send to receive), its client, server and "
    "times; parent_id the request its server was serving",
    .src = KS_SRC_MODEL,
    KS_COLS(msg_cols),
    .needs_stats = 1,
    .sink = sink_msg,
    .skip = KX_SKIP_WAIT,
};

static void push_wait(void *user, const struct kw_wait *w)
{
    struct ks_rec rec = { .kind = KS_WAIT };
    rec.u.wait = *w;
    ks_push(ks_walk_of(user), &rec);
}
static void sink_wait(struct kx_sink *k) { k->wait = push_wait; }
#define ROW struct kw_wait
static void wait_dur(const struct ks_row *r, sqlite3_context *ctx) // an open one: to the end
{
    const ROW *x = r->p;
    uint64_t end = x->t1 ? x->t1 : r->w->s->kw->t_last;
    sqlite3_result_int64(ctx, ks_ns(r->t, end) - ks_ns(r->t, x->t0));
}
static void wait_object(const struct ks_row *r, sqlite3_context *ctx)
{
    char ob[48];
    ks_result_text(ctx, kx_wait_obj(r->w->s, ((const ROW *)r->p)->obj, ob, sizeof(ob)));
}
static void wait_owner_on(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    char ob[48];
    if (x->owner_obj >= 0 && x->own_blocked)
        ks_result_text(ctx, kx_wait_obj(r->w->s, x->owner_obj, ob, sizeof(ob)));
    else
        sqlite3_result_null(ctx);
}
static const struct ks_rcol wait_cols[] = {
    { RC_INT("id", serial) }, { RC_NS("ts", t0) }, { RC_FN("dur", "INTEGER", wait_dur) },
    { RC_UTID("utid", th) }, { RC_NAME("state", state, state_name) },
    { RC_FN("object", "TEXT", wait_object) }, { RC_UTID("owner_utid", owner) },
    { RC_SPAN("owner_running", own_run) }, { RC_SPAN("owner_preempted", own_ready) },
    { RC_SPAN("owner_blocked", own_blocked) }, { RC_UTID("preempted_by_utid", by) },
    { RC_SPAN("inversion", inv_t) }, { RC_FN("owner_blocked_on", "TEXT", wait_owner_on) },
    { RC_EQ("still_waiting", t1, 0) }, { RC_SPAN("owner_waking", own_wake) },
};
#undef ROW
static const struct ks_table t_wait = {
    .name = "wait",
    .doc = "every wait on a mutex, semaphore or condition variable (kevstat -s waits): who, "
    "on what, held by whom, how long, what the owner did, the time an inversion lost",
    .src = KS_SRC_MODEL,
    KS_COLS(wait_cols),
    .needs_stats = 1,
    .sink = sink_wait,
    .skip = KX_SKIP_MSG,
};

// blocked_by: every stretch of a wait on another thread with one chain (kx_chain.h): the
// waiter, the thread it waits on, the root its time is attributed to, the chain as text
static void push_chain(void *user, const struct kx_chain_row *c)
{
    struct ks_rec rec = { .kind = KS_CHAIN };
    rec.u.chain = *c;
    ks_push(ks_walk_of(user), &rec);
}
static void sink_chain(struct kx_sink *k) { k->chain = push_chain; }
#define ROW struct kx_chain_row
static void chain_how(const struct ks_row *r, sqlite3_context *ctx)
{
    sqlite3_result_text(ctx, kx_link_name(((const ROW *)r->p)->c.link[0].kind), -1, SQLITE_STATIC);
}
static void chain_blocked(const struct ks_row *r, sqlite3_context *ctx)
{
    ks_result_thread(ctx, r->t, ((const ROW *)r->p)->c.th[1]);
}
static void chain_root(const struct ks_row *r, sqlite3_context *ctx)
{
    int root = kx_chain_root(&((const ROW *)r->p)->c);
    if (KX_ROOT_IS_INPUT(root))
        sqlite3_result_null(ctx);           // an input's: root_input names it
    else
        ks_result_thread(ctx, r->t, root);
}
static void chain_input(const struct ks_row *r, sqlite3_context *ctx)
{
    char b[80];
    int root = kx_chain_root(&((const ROW *)r->p)->c);
    if (KX_ROOT_IS_INPUT(root))
        ks_result_text(ctx, kx_chain_root_name(r->w->s, root, b, sizeof(b)));
    else
        sqlite3_result_null(ctx);
}
static void chain_end(const struct ks_row *r, sqlite3_context *ctx)
{
    static const char *const n[] = { "root", "unknown", "cycle", "cut", "input" };
    unsigned e = ((const ROW *)r->p)->c.end;
    sqlite3_result_text(ctx, e < 5 ? n[e] : "unknown", -1, SQLITE_STATIC);
}
static void chain_text(const struct ks_row *r, sqlite3_context *ctx)
{
    char b[1024];
    ks_result_text(ctx, kx_chain_line(r->w->s, &((const ROW *)r->p)->c, b, sizeof(b)));
}
static const struct ks_rcol chain_cols[] = {
    { RC_INT("id", id) }, { RC_INT("wait_id", wait) }, { RC_UTID("utid", c.th[0]) },
    { RC_NS("ts", t0) }, { RC_DUR("dur", t0, t1) }, { RC_FN("how", "TEXT", chain_how) },
    { RC_FN("blocked_utid", "INTEGER", chain_blocked) },
    { RC_FN("root_utid", "INTEGER", chain_root) },
    { RC_FN("root_input", "TEXT", chain_input) }, { RC_INT("depth", c.n) },
    { RC_FN("ends", "TEXT", chain_end) }, { RC_FN("chain", "TEXT", chain_text) },
};
#undef ROW
static const struct ks_table t_blocked_by = {
    .name = "blocked_by",
    .doc = "wait chains (kevstat -s chains): each stretch of a thread's wait on another (a send, "
    "a mutex, a semaphore, a condvar) with one chain, followed to its root, the thread its time "
    "is attributed to, or the input (root_input: an interrupt, a timer) a thread at its end "
    "waited for",
    .src = KS_SRC_MODEL,
    KS_COLS(chain_cols),
    .needs_stats = 1,
    .sink = sink_chain,
};

// wait_preemptor: each thread that ran in a waited-on owner's place (one row per wait and
// thread; past KW_MAX_PRE threads one row with utid NULL for the rest), and the owner's
// wake-up latency (what 'waking', utid NULL: woken, its CPU idle or less urgent, kx_wait.c)
#define WPRE_WAKING 1000
static void push_wait_pre(void *user, const struct kw_wait *w)
{
    struct ks_rec rec = { .kind = KS_WAIT };
    rec.u.wait = *w;
    for (unsigned i = 0; i < w->npre + (w->pre_other != 0); i++) {
        rec.sub = (int)i;
        ks_push(ks_walk_of(user), &rec);
    }
    if (w->own_wake) {
        rec.sub = WPRE_WAKING;
        ks_push(ks_walk_of(user), &rec);
    }
}
static void sink_wait_pre(struct kx_sink *k) { k->wait = push_wait_pre; }
#define ROW struct kw_wait
// The row's preemptor: the record's part (rec->sub), past the named ones the rest together
static int wpre_other(const struct ks_row *r)
{
    return (unsigned)r->rec->sub >= ((const ROW *)r->p)->npre;
}
static int wpre_waking(const struct ks_row *r)
{
    return r->rec->sub == WPRE_WAKING;
}
static void wpre_utid(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    ks_result_thread(ctx, r->t, wpre_other(r) ? -1 : x->pre[r->rec->sub].th);
}
static void wpre_dur(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    sqlite3_result_int64(ctx, ks_ns(r->t, wpre_waking(r) ? x->own_wake
                                          : wpre_other(r) ? x->pre_other : x->pre[r->rec->sub].t));
}
static void wpre_inversion(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    sqlite3_result_int64(ctx, ks_ns(r->t, wpre_waking(r) ? 0 : wpre_other(r) ? x->inv_other
                                                        : x->pre[r->rec->sub].inv_t));
}
static void wpre_what(const struct ks_row *r, sqlite3_context *ctx)
{
    ks_result_text(ctx, wpre_waking(r) ? "waking" : wpre_other(r) ? "others" : "preempted");
}
static const struct ks_rcol wpre_cols[] = {
    { RC_INT("wait_id", serial) }, { RC_FN("utid", "INTEGER", wpre_utid) },
    { RC_FN("dur", "INTEGER", wpre_dur) }, { RC_FN("inversion", "INTEGER", wpre_inversion) },
    { RC_UTID("waiter_utid", th) }, { RC_FN("object", "TEXT", wait_object) },
    { RC_UTID("owner_utid", owner) }, { RC_FN("what", "TEXT", wpre_what) },
};
#undef ROW
static const struct ks_table t_wait_pre = {
    .name = "wait_preemptor",
    .doc = "each thread that ran in the place of a waited-on owner, per wait: how "
    "long, and how much of it an inversion lost; and the owner's wake-up latency (what "
    "'waking': woken, its CPU idle or running less urgent work: another CPU's IPI and its answer)",
    .src = KS_SRC_MODEL,
    KS_COLS(wpre_cols),
    .needs_stats = 1,
    .sink = sink_wait_pre,
    .skip = KX_SKIP_MSG,
};

// cpu_state: each CPU's periods running a thread, its idle thread, or none known
static void push_cpu(void *user, unsigned cpu, uint64_t t0, uint64_t t1, int th, unsigned what)
{
    struct ks_rec rec = { .kind = KS_CPU };
    rec.u.cpu = (struct ks_cpu_rec){ cpu, what, th, t0, t1 };
    ks_push(ks_walk_of(user), &rec);
}
static void sink_cpu(struct kx_sink *k) { k->cpu = push_cpu; }
static const char *cpu_what(unsigned what)
{
    static const char *const name[] = { "none", "running", "idle" };
    return name[what % 3];
}
#define ROW struct ks_cpu_rec
static const struct ks_rcol cpus_cols[] = {
    { RC_NS("ts", t0) }, { RC_DUR("dur", t0, t1) }, { RC_INT("cpu", cpu) },
    { RC_UTID("utid", th) }, { RC_NAME("state", what, cpu_what) },
};
#undef ROW
static const struct ks_table t_cpu_state = {
    .name = "cpu_state",
    .doc = "each CPU's time, period by period: a thread running, its idle thread, or no "
    "thread known (they add up to the trace's span)",
    .src = KS_SRC_MODEL,
    KS_COLS(cpus_cols),
    .needs_stats = 1,
    .sink = sink_cpu,
    .skip = KX_SKIP_MSG | KX_SKIP_WAIT,
};

// cpu_load(WIDTH): each CPU's busy time (a thread other than idle running) in buckets of WIDTH
// ns from boot, from the model's busy periods (the ones cpu.running_ns adds up). A CPU's busy
// periods come in time order: a bucket is given when a period starts past it. Buckets without
// busy time are not given.
struct load_state {
    int64_t k[KEV_MAX_CPUS];     // the bucket being filled, -1 none
    int64_t busy[KEV_MAX_CPUS];
};
static void load_flush(struct ks_walk *w, struct load_state *ls, unsigned cpu)
{
    if (ls->k[cpu] < 0 || !ls->busy[cpu])
        return;
    int64_t width = w->param > 0 ? w->param : 1000000;
    struct ks_rec rec = { .kind = KS_LOAD };
    rec.u.load = (struct ks_load_rec){ cpu, ls->k[cpu] * width, width, ls->busy[cpu],
                                       (double)ls->busy[cpu] / (double)width };
    ks_push(w, &rec);
    ls->busy[cpu] = 0;
}
static void push_load(void *user, unsigned cpu, uint64_t t0, uint64_t t1, int th, unsigned what)
{
    (void)th;
    struct ks_walk *w = ks_walk_of(user);
    struct load_state *ls = w->state;
    if (!ls) {
        ls = w->state = sqlite3_malloc(sizeof(*ls));
        if (!ls)
            return;
        for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
            ls->k[c] = -1, ls->busy[c] = 0;
    }
    int64_t width = w->param > 0 ? w->param : 1000000;
    int64_t a = ks_ns(w->t, t0), b = ks_ns(w->t, t1);
    if (what != 1 || b <= a || cpu >= KEV_MAX_CPUS)
        return;
    if ((b - a) / width > 1000000) { // a row a bucket: say so rather than give ten million
        w->fail = "cpu_load: a busy period spans over a million buckets (a wider WIDTH?)";
        return;
    }
    while (a < b) {
        int64_t k = a / width, end = (k + 1) * width, to = end < b ? end : b;
        if (k != ls->k[cpu]) {
            load_flush(w, ls, cpu);
            ls->k[cpu] = k;
        }
        ls->busy[cpu] += to - a;
        a = to;
    }
}
static void load_end(struct ks_walk *w)
{
    for (unsigned c = 0; w->state && c < KEV_MAX_CPUS; c++)
        load_flush(w, w->state, c);
}
static void sink_load(struct kx_sink *k)
{
    k->cpu = push_load;
}
#define ROW struct ks_load_rec
static const struct ks_rcol load_cols[] = {
    { RC_INT("cpu", cpu) }, { RC_INT("ts", ts) }, { RC_INT("dur", width) },
    { RC_INT("busy_ns", busy) }, { RC_DOUBLE("load", load) }, { RC_INT("width", width) },
};
#undef ROW
static const struct ks_table t_cpu_load = {
    .name = "cpu_load",
    .doc = "cpu_load(WIDTH): each CPU's busy time and load per bucket of WIDTH ns from "
    "boot (buckets without busy time left out)",
    .src = KS_SRC_MODEL,
    KS_COLS(load_cols),
    .needs_stats = 1,
    .sink = sink_load,
    .param_col = 5,
    .on_end = load_end,
    .skip = KX_SKIP_MSG | KX_SKIP_WAIT,
};

// slice: kernel calls, interrupts and their handlers, messages, function calls (Perfetto's
// slice): a part per kind of record, each its columns over its record
static void push_irq_slices(void *user, const struct kx_irq_row *r)
{
    struct ks_rec rec = { .kind = KS_IRQ };
    rec.u.irq = *r;
    ks_push(ks_walk_of(user), &rec);
    if (r->h0) {
        rec.sub = 1; // its handler, nested in it
        ks_push(ks_walk_of(user), &rec);
    }
}
static void push_func(void *user, const struct kx_func_row *r)
{
    struct ks_rec rec = { .kind = KS_FUNC };
    rec.u.fn = *r;
    ks_push(ks_walk_of(user), &rec);
}
static void sink_slice(struct kx_sink *k)
{
    k->kcall = push_kcall;
    k->irq = push_irq_slices;
    k->msg = push_msg;
    k->func = push_func;
}
#define ROW struct kx_kcall_row
static void slice_kc_dur(const struct ks_row *r, sqlite3_context *ctx) // -1: did not end
{
    const ROW *x = r->p;
    sqlite3_result_int64(ctx, x->t0 && x->exited ? ks_ns(r->t, x->t1) - ks_ns(r->t, x->t0) : -1);
}
static const struct ks_rcol slice_kcall[] = {
    { RC_SLICE("id", id, SL_KCALL), PF }, { RC_FN("ts", "INTEGER", kc_ts), PF },
    { RC_FN("dur", "INTEGER", slice_kc_dur), PF }, { RC_TRACK("track_id", th, TR_KCALL), PF },
    { RC_CONST_TEXT("category", "kcall"), PF }, { RC_FN("name", "TEXT", kc_name), PF },
    { RC_CONST("depth", 0), PF }, { RC_NULL("parent_id", "INTEGER"), PF },
    { RC_SLICE("arg_set_id", id, SL_KCALL), PF }, { RC_UTID("utid", th) }, { RC_INT("cpu", cpu) },
    { RC_CONST_TEXT("cat", "kcall"), PF }, { RC_NULL("thread_ts", "INTEGER"), PF },
    { RC_NULL("thread_dur", "INTEGER"), PF },
};
#undef ROW
#define ROW struct kx_irq_row
static void slice_handler_name(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    const char *pseudo = kev_int_pseudo_name(x->irq);
    char nb[64];
    snprintf(nb, sizeof(nb), "irq %u%s%s%s handler", x->irq, pseudo ? " (" : "",
             pseudo ? pseudo : "", pseudo ? ")" : "");
    ks_result_text(ctx, nb);
}
static const struct ks_rcol slice_irq[] = {
    { RC_SLICE("id", id, SL_IRQ) }, { RC_NS("ts", t0) }, { RC_DUR("dur", t0, t1), NUL(ZERO), UNENDED },
    { RC_TRACK("track_id", cpu, TR_IRQ) }, { RC_CONST_TEXT("category", "irq") },
    { RC_FN("name", "TEXT", irq_name) }, { RC_CONST("depth", 0) },
    { RC_NULL("parent_id", "INTEGER") }, { RC_SLICE("arg_set_id", id, SL_IRQ) },
    { RC_NULL("utid", "INTEGER") }, { RC_INT("cpu", cpu) }, { RC_CONST_TEXT("cat", "irq") },
    { RC_NULL("thread_ts", "INTEGER") }, { RC_NULL("thread_dur", "INTEGER") },
};
static const struct ks_rcol slice_handler[] = { // nested in its interrupt
    { RC_SLICE("id", id, SL_HANDLER) }, { RC_NS("ts", h0) },
    { RC_DUR("dur", h0, h1), NUL(BEFORE), UNENDED }, { RC_TRACK("track_id", cpu, TR_IRQ) },
    { RC_CONST_TEXT("category", "irq_handler") }, { RC_FN("name", "TEXT", slice_handler_name) },
    { RC_CONST("depth", 1) }, { RC_SLICE("parent_id", id, SL_IRQ) },
    { RC_SLICE("arg_set_id", id, SL_HANDLER) }, { RC_NULL("utid", "INTEGER") },
    { RC_INT("cpu", cpu) }, { RC_CONST_TEXT("cat", "irq_handler") },
    { RC_NULL("thread_ts", "INTEGER") }, { RC_NULL("thread_dur", "INTEGER") },
};
#undef ROW
#define ROW struct ks_msg_rec
static void slice_msg_track(const struct ks_row *r, sqlite3_context *ctx) // its sender's
{
    const ROW *m = r->p;
    sqlite3_result_int64(ctx, m->irq ? track_id(TR_IRQ_MSG, m->irq - 1)
                                     : track_id(TR_MSG, (uint64_t)m->client));
}
static void slice_msg_name(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *m = r->p;
    char nb[64];
    if (m->pulse)
        snprintf(nb, sizeof(nb), "pulse %u to channel %u", pulse_field(m->srv_pid, "code"),
                 pulse_field(m->srv_pid, "chid"));
    else
        snprintf(nb, sizeof(nb), "message to pid %u", m->srv_pid);
    ks_result_text(ctx, nb);
}
static const char *msg_category(unsigned pulse) { return pulse ? "pulse" : "msg"; }
static const struct ks_rcol slice_msg[] = {
    { RC_SLICE("id", id, SL_MSG) }, { RC_NS("ts", t_send) }, { RC_FN("dur", "INTEGER", msg_dur) },
    { RC_FN("track_id", "INTEGER", slice_msg_track) },
    { RC_NAME("category", pulse, msg_category) }, { RC_FN("name", "TEXT", slice_msg_name) },
    { RC_CONST("depth", 0) }, { RC_NULL("parent_id", "INTEGER") },
    { RC_SLICE("arg_set_id", id, SL_MSG) }, { RC_UTID("utid", client) },
    { RC_NULL("cpu", "INTEGER") }, { RC_NAME("cat", pulse, msg_category) },
    { RC_NULL("thread_ts", "INTEGER") }, { RC_NULL("thread_dur", "INTEGER") },
};
#undef ROW
#define ROW struct kx_func_row
static void slice_func_track(const struct ks_row *r, sqlite3_context *ctx)
{ // a program's function on its thread's track, the kernel's on its CPU's
    const ROW *x = r->p;
    sqlite3_result_int64(ctx, x->user ? track_id(TR_FUNC_THREAD, (uint64_t)x->th)
                                      : track_id(TR_FUNC, x->cpu));
}
static void slice_func_name(const struct ks_row *r, sqlite3_context *ctx)
{ // named as Perfetto shows it (kev2perfetto's): the function alone, else its address
    char nb[128];
    ks_syms_function(r->t, ((const ROW *)r->p)->fn, nb, sizeof(nb));
    ks_result_text(ctx, nb);
}
static const struct ks_rcol slice_func[] = {
    { RC_SLICE("id", id, SL_FUNC) }, { RC_NS("ts", t0) }, { RC_DUR("dur", t0, t1), NUL(ZERO), UNENDED },
    { RC_FN("track_id", "INTEGER", slice_func_track) }, { RC_CONST_TEXT("category", "function") },
    { RC_FN("name", "TEXT", slice_func_name) }, { RC_INT("depth", depth) },
    { RC_SLICE("parent_id", parent, SL_FUNC), NUL(ZERO) }, { RC_SLICE("arg_set_id", id, SL_FUNC) },
    { RC_UTID("utid", th) }, { RC_INT("cpu", cpu) }, { RC_CONST_TEXT("cat", "function") },
    { RC_NULL("thread_ts", "INTEGER") }, { RC_NULL("thread_dur", "INTEGER") },
};
#undef ROW
static const struct ks_part slice_parts[] = {
    { KS_KCALL, -1, slice_kcall }, { KS_IRQ, 0, slice_irq }, { KS_IRQ, 1, slice_handler },
    { KS_MSG, -1, slice_msg }, { KS_FUNC, -1, slice_func },
};
_Static_assert(NCOL(slice_irq) == NCOL(slice_kcall) && NCOL(slice_handler) == NCOL(slice_kcall) &&
               NCOL(slice_msg) == NCOL(slice_kcall) && NCOL(slice_func) == NCOL(slice_kcall),
               "every part of slice declares its columns");
static const struct ks_table t_slice = {
    .name = "slice",
    .doc = "kernel calls on their thread's track, interrupts and their handlers on their "
    "CPU's, messages and pulses on their sender's, function calls fbt and pid recorded on "
    "their CPU's (the kernel's) or thread's (a program's) (category 'function', named by "
    "address) (Perfetto's slice)",
    .src = KS_SRC_MODEL,
    KS_PARTS(slice_parts, slice_kcall),
    .needs_stats = 1,
    .sink = sink_slice,
    .skip = KX_SKIP_WAIT,
};

// flow: Perfetto's flow between two slices: a message's send to its receive and its receive to
// its reply, a wakeup from the waker's slice to the woken thread's (kx_rows.h, kx_flow_row)
static void push_flow(void *user, const struct kx_flow_row *r)
{
    struct ks_rec rec = { .kind = KS_FLOW };
    rec.u.flow = *r;
    ks_push(ks_walk_of(user), &rec);
}
static void sink_flow(struct kx_sink *k) { k->flow = push_flow; }
static int64_t flow_slice(const struct kx_slice_ref *r)
{
    return slice_id(r->id, r->kind == KX_SLICE_IRQ ? SL_IRQ : SL_KCALL);
}
static const char *flow_kind(unsigned kind)
{
    static const char *const name[] = { "send", "reply", "wakeup" };
    return kind < 3 ? name[kind] : NULL;
}
#define ROW struct kx_flow_row
static void flow_out(const struct ks_row *r, sqlite3_context *ctx)
{
    sqlite3_result_int64(ctx, flow_slice(&((const ROW *)r->p)->out));
}
static void flow_in(const struct ks_row *r, sqlite3_context *ctx)
{
    sqlite3_result_int64(ctx, flow_slice(&((const ROW *)r->p)->in));
}
static const struct ks_rcol flow_cols[] = {
    { RC_INT("id", id), PF }, { RC_CONST_TEXT("type", "flow") },
    { RC_FN("slice_out", "INTEGER", flow_out), PF }, { RC_FN("slice_in", "INTEGER", flow_in), PF },
    { RC_NULL("trace_id", "INTEGER"), PF }, { RC_NULL("arg_set_id", "INTEGER"), PF },
    { RC_NS("ts", t) }, { RC_NAME("kind", kind, flow_kind) }, { RC_INT("msg_id", msg), NUL(ZERO) },
};
#undef ROW
static const struct ks_table t_flow = {
    .name = "flow",
    .doc = "flows between slices (Perfetto's flow): a message or pulse from the sender's "
    "slice at the send to the receiver's kernel call at the receive (kind 'send'), a message "
    "from that receive to the client's kernel call at the reply ('reply'), a wakeup from the "
    "waker's kernel call or interrupt to the call the woken thread blocked in ('wakeup')",
    .src = KS_SRC_MODEL,
    KS_COLS(flow_cols),
    .needs_stats = 1,
    .sink = sink_flow,
    .skip = KX_SKIP_WAIT,
};

// instant: user events and faults on their thread's event track
static void instant_on(struct ks_walk *w, const struct kev_event *e)
{
    if (e->cls == KEV_C_USER) {
        struct ks_rec rec;
        user_fill(w, e, &rec);
        rec.sub = 0;
        ks_push(w, &rec);
    } else if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_FAULT) {
        struct kev_fault f;
        if (kev_fault_decode(e->w, e->nw, &f))
            return;
        struct ks_rec rec;
        ev_rec(w, e, &rec);
        rec.u.ev.th = kx_thread(&w->s->m, f.pid, f.tid);
        snprintf(rec.u.ev.name, sizeof(rec.u.ev.name), "fault %s", kev_signal_name(f.sig));
        rec.sub = 1;
        ks_push(w, &rec);
    }
}
#define ROW struct ks_ev_rec
static void user_event_name(const struct ks_row *r, sqlite3_context *ctx) // or "user CODE"
{
    const ROW *v = r->p;
    char nb[48];
    if (v->name[0])
        ks_result_text(ctx, v->name);
    else
        snprintf(nb, sizeof(nb), "user %u", v->ev), ks_result_text(ctx, nb);
}
static const struct ks_rcol instant_user[] = {
    { RC_SLICE("id", id, SL_INSTANT) }, { RC_NS("ts", t), PF },
    { RC_TRACK("track_id", th, TR_INSTANT), PF }, { RC_FN("name", "TEXT", user_event_name), PF },
    { RC_CONST_TEXT("category", "user") }, { RC_SLICE("arg_set_id", id, SL_INSTANT), PF },
    { RC_UTID("utid", th) }, { RC_INT("cpu", cpu) },
};
static const struct ks_rcol instant_fault[] = { // named "fault SIGNAL"
    { RC_SLICE("id", id, SL_INSTANT) }, { RC_NS("ts", t) },
    { RC_TRACK("track_id", th, TR_INSTANT) }, { RC_TEXT("name", name) },
    { RC_CONST_TEXT("category", "fault") }, { RC_SLICE("arg_set_id", id, SL_INSTANT) },
    { RC_UTID("utid", th) }, { RC_INT("cpu", cpu) },
};
#undef ROW
static const struct ks_part instant_parts[] = {
    { KS_EVENT, 0, instant_user }, { KS_EVENT, 1, instant_fault },
};
_Static_assert(NCOL(instant_fault) == NCOL(instant_user), "every part of instant declares its columns");
static const struct ks_table t_instant = {
    .name = "instant",
    .doc = "user events and faults as instants on their thread's event track",
    .src = KS_SRC_EVENTS,
    KS_PARTS(instant_parts, instant_user),
    .ts_col = 1,
    .needs_stats = 1,
    .on_event = instant_on,
    .skip = KX_SKIP_MSG | KX_SKIP_WAIT,
};

// counter: each CPU's busy step (1 a thread other than idle runs, 0 not) at each change, and
// each numeric user event's first word on its (process, code) track
static void counter_on(struct ks_walk *w, const struct kev_event *e)
{
    if (e->cls != KEV_C_USER)
        return;
    struct ks_rec rec;
    user_fill(w, e, &rec);
    if (rec.u.ev.v[0] || !e->nw) // a string: no number
        return;
    rec.u.ev.v[1] = (int32_t)kx_user_word(e, 0); // its first word, signed
    rec.sub = 1;
    ks_push(w, &rec);
}
static void sink_counter(struct kx_sink *k) { k->cpu = push_cpu; }
#define ROW struct ks_cpu_rec
static void counter_busy_id(const struct ks_row *r, sqlite3_context *ctx)
{
    const ROW *x = r->p;
    sqlite3_result_int64(ctx, (int64_t)x->t0 << 6 | x->cpu);
}
static void counter_busy(const struct ks_row *r, sqlite3_context *ctx)
{
    sqlite3_result_double(ctx, ((const ROW *)r->p)->what == 1 ? 1.0 : 0.0);
}
static const struct ks_rcol counter_cpu[] = {
    { RC_FN("id", "INTEGER", counter_busy_id), PF }, { RC_NS("ts", t0), PF },
    { RC_TRACK("track_id", cpu, TR_CPU_BUSY), PF }, { RC_FN("value", "REAL", counter_busy), PF },
    { RC_NULL("arg_set_id", "INTEGER"), PF }, { RC_INT("cpu", cpu) },
    { RC_CONST_TEXT("name", "cpu.busy") },
};
#undef ROW
#define ROW struct ks_ev_rec
static void counter_user_track(const struct ks_row *r, sqlite3_context *ctx) // its process's
{
    const ROW *v = r->p;
    sqlite3_result_int64(ctx, track_id(TR_USER, (uint64_t)v->pid << 10 | (v->ev & 0x3ffu)));
}
static void counter_user_value(const struct ks_row *r, sqlite3_context *ctx) // a signed word
{
    sqlite3_result_double(ctx, (double)((const ROW *)r->p)->v[1]);
}
static const struct ks_rcol counter_user[] = {
    { RC_SLICE("id", id, SL_INSTANT) }, { RC_NS("ts", t) },
    { RC_FN("track_id", "INTEGER", counter_user_track) },
    { RC_FN("value", "REAL", counter_user_value) }, { RC_NULL("arg_set_id", "INTEGER") },
    { RC_INT("cpu", cpu) }, { RC_FN("name", "TEXT", user_event_name) },
};
#undef ROW
static const struct ks_part counter_parts[] = {
    { KS_CPU, -1, counter_cpu }, { KS_EVENT, 1, counter_user },
};
_Static_assert(NCOL(counter_user) == NCOL(counter_cpu), "every part of counter declares its columns");
static const struct ks_table t_counter = {
    .name = "counter",
    .doc = "each CPU's busy step (track cpu.busy) and numeric user events' first word "
    "(track per process and code)",
    .src = KS_SRC_MODEL,
    KS_PARTS(counter_parts, counter_cpu),
    .needs_stats = 1,
    .on_event = counter_on,
    .sink = sink_counter,
    .skip = KX_SKIP_MSG | KX_SKIP_WAIT,
};

// args: the arguments of slices and instants, by arg_set_id
// An argument: an integer i, or the text s when s is not NULL
static void arg_push(struct ks_walk *w, int64_t set, const char *key, int64_t i, const char *s)
{
    struct ks_rec rec = { .kind = KS_ARG };
    struct ks_arg *a = &rec.u.arg;
    a->set = set;
    snprintf(a->key, sizeof(a->key), "%s", key);
    a->i = i;
    a->text = s != NULL;
    if (s)
        snprintf(a->s, sizeof(a->s), "%s", s);
    ks_push(w, &rec);
}
static void args_kcall(void *user, const struct kx_kcall_row *r)
{
    struct ks_walk *w = ks_walk_of(user);
    int64_t set = slice_id(r->id, SL_KCALL);
    static const char *const key[] = { "arg0", "arg1", "arg2", "arg3" };
    for (unsigned i = 0; i < r->nargs && i < 4; i++)
        arg_push(w, set, key[i], r->arg[i], NULL);
    if (r->exited && !r->interrupted) {
        arg_push(w, set, "ret", r->ret, NULL);
        if (r->err)
            arg_push(w, set, "errno", r->err, NULL);
    }
}
static void args_irq(void *user, const struct kx_irq_row *r)
{
    struct ks_walk *w = ks_walk_of(user);
    int64_t set = slice_id(r->id, SL_IRQ);
    arg_push(w, set, "irq", r->irq, NULL);
    if (r->th >= 0)
        arg_push(w, set, "utid", ks_utid(w->t, r->th), NULL);
    if (r->t_th)
        arg_push(w, set, "latency", ks_ns(w->t, r->t_th) - ks_ns(w->t, r->t0), NULL);
}
static void args_msg(void *user, const struct kx_msg *g)
{
    struct ks_walk *w = ks_walk_of(user);
    int64_t set = slice_id(g->id, SL_MSG);
    arg_push(w, set, "rcvid", g->rcvid, NULL);
    arg_push(w, set, "server_pid", g->srv_pid, NULL);
    if (g->server >= 0)
        arg_push(w, set, "server_utid", ks_utid(w->t, g->server), NULL);
    if (g->error)
        arg_push(w, set, "error", g->error, NULL);
}
// Every event's fields as the event table names them (trace/kev_events.h), keys "fields.NAME"
// (apart from the slices' keys, so that a count of key 'ret' counts kernel calls once), by the
// event's arg_set_id: integers as integers, strings and arrays ("0x.. 0x..") as text.
static void args_fields(struct ks_walk *w, const struct kev_event *e)
{
    static struct kev_fields fs;
    int64_t set = slice_id(w->nev, SL_EVENT);
    kev_fields_decode(w->r, e, &fs);
    for (unsigned i = 0; i < fs.n; i++) {
        const struct kev_field *f = &fs.f[i];
        char key[40], text[KS_TEXT];
        snprintf(key, sizeof(key), "fields.%s", f->name);
        if (f->kind == KEV_K_STRING) {
            kev_text_safe(text, sizeof(text), (const uint8_t *)f->str, strlen(f->str));
            arg_push(w, set, key, 0, text);
        } else if (KEV_K_IS_ARRAY(f->kind)) {
            size_t k = 0;
            text[0] = 0;
            for (unsigned j = 0; j < f->n && k + 24 < sizeof(text); j++)
                k += (size_t)snprintf(text + k, sizeof(text) - k, "%s0x%llx", j ? " " : "",
                                      (unsigned long long)f->arr[j]);
            arg_push(w, set, key, 0, text);
        } else {
            arg_push(w, set, key, f->kind == KEV_K_S32 ? (int64_t)f->v : (int64_t)(uint64_t)f->v,
                     NULL);
        }
    }
}
static void args_on(struct ks_walk *w, const struct kev_event *e)
{
    if (e->cls != KEV_C_CONTROL)
        args_fields(w, e);
    if (e->cls != KEV_C_USER)
        return;
    struct ks_rec rec;
    user_fill(w, e, &rec);
    const struct ks_ev_rec *v = &rec.u.ev;
    int64_t set = slice_id(v->id, SL_INSTANT);
    arg_push(w, set, "code", v->ev, NULL);
    arg_push(w, set, "value", 0, v->text);
    for (unsigned i = 0; !v->v[0] && i < v->nw && i < 8; i++) {
        char key[16];
        snprintf(key, sizeof(key), "w%u", i);
        arg_push(w, set, key, (int32_t)v->w[i], NULL);
    }
}
static void sink_args(struct kx_sink *k)
{
    k->kcall = args_kcall;
    k->irq = args_irq;
    k->msg = args_msg;
}
#define ROW struct ks_arg
static const char *arg_type(unsigned text) { return text ? "string" : "int"; }
static void arg_display(const struct ks_row *r, sqlite3_context *ctx) // as Perfetto prints it
{
    const ROW *a = r->p;
    char b[32];
    if (!a->text)
        snprintf(b, sizeof(b), "%lld", (long long)a->i);
    ks_result_text(ctx, a->text ? a->s : b);
}
static const struct ks_rcol args_cols[] = {
    { RC_INT("arg_set_id", set), PF }, { RC_TEXT("flat_key", key), PF }, { RC_TEXT("key", key), PF },
    { RC_INT("int_value", i), WHEN(CLEAR, text), PF },
    { RC_TEXT("string_value", s), WHEN(SET, text), PF }, { RC_NULL("real_value", "REAL"), PF },
    { RC_NAME("value_type", text, arg_type), PF }, { RC_FN("display_value", "TEXT", arg_display), PF },
};
#undef ROW
static const struct ks_table t_args = {
    .name = "args",
    .doc = "the arguments of slices and instants (Perfetto's args), by arg_set_id",
    .src = KS_SRC_MODEL,
    KS_COLS(args_cols),
    .needs_stats = 1,
    .on_event = args_on,
    .sink = sink_args,
    .skip = KX_SKIP_WAIT,
};

const struct ks_table *const ks_tables[] = {
    &t_thread, &t_process, &t_cpu, &t_metadata, &t_track, &t_deadlock, &t_inversion, &t_lost,
    &t_instance, &t_task, &t_event, &t_user_event, &t_usdt, &t_fault, &t_stack, &t_prio, &t_instant,
    &t_sched, &t_thread_state, &t_kcall, &t_irq, &t_msg, &t_wait, &t_wait_pre, &t_blocked_by,
    &t_cpu_state,
    &t_cpu_load, &t_slice, &t_counter, &t_args, &t_flow,
};
const unsigned ks_ntables = NCOL(ks_tables);
