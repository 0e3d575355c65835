// SPDX-License-Identifier: MIT
// kevsql's SQLite extension (docs/sql.md): a .kev trace as tables. Internal interfaces of its
// files: ks_trace.c (one opened trace: the mapped file, its header's facts, and the small
// tables a first pass computes once: threads, processes, CPUs, findings), ks_vtab.c (the
// virtual-table module every table goes through: a cursor runs the analysis model over the
// file and gives its records as rows, decoded on demand, memory bounded by the model's tables,
// not the trace), ks_tables.c (each table: where its rows come from and its columns, declared
// over its row), ks_cols.c (reading a declared column), ks_decl.c (tables of one event's
// fields), ks_ext.c (the entry point, kev_open() and the standard library of views).
// One trace per opening (kev_open); many cursors may read it at once, each with its own reader.
#ifndef TOOLS_KS_H
#define TOOLS_KS_H

#include <sqlite3ext.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <kevhost/kx_stats.h>

// ---- one trace ----------------------------------------------------------------------------------
struct ks_thread {           // thread table (utid = index)
    uint32_t pid, tid;
    char name[KEV_NAME_MAX], comm[KEV_NAME_MAX];
    char lname[KEV_NAME_MAX];  // its name as Linux gives it (kx_lcomm: a main thread that has
                               // not renamed itself is its program's)
    int64_t start, end;      // cycles, -1 unknown
    int idle, prio;
};
struct ks_proc {             // process table (upid = pid)
    uint32_t pid, ppid;
    char name[KEV_NAME_MAX];
    int64_t start, end;
};
struct ks_dl {               // a deadlock cycle's link: thread waits on obj held by owner
    unsigned cycle, pos;
    int th, owner;
    char obj[48];
    int64_t t, broken;
};
struct ks_inv {              // a priority inversion's middle thread (kw_inv, kw_mid): one row each
    unsigned inv;            // the finding, 1, 2 ... in the order kevstat lists them
    int waiter, owner, middle; // middle -1: the rest past KW_MAX_PRE threads
    char obj[48];
    uint64_t count, lost, max, first, mid_lost; // cycles
};
struct ks_cpu_sum {
    uint64_t busy, idle, none;
};
struct ks_user {             // a user event code of a process: a counter track
    uint32_t pid, code;
    char name[KEV_NAME_MAX];
};

struct ks_trace {
    int refs;
    char *path;
    uint8_t *data;
    size_t len;
    int mapped;
    struct kev_reader *r;    // the opened header, system page and trailer (never walked)
    uint64_t hz;
    uint64_t ns_per_cycle;   // 1e9 / hz when that is whole (ks_ns multiplies), else 0
    int strict;              // a damaged file fails the statement at the damage (else: noted)
    unsigned sym_gen;        // its number in the process, for the symbol lookup (ks_syms.c)
    unsigned id;             // its number on the connection that opened it (kev_open: 1, 2 ...):
                             // the tables' second argument names it, never an address
    // The first pass (ks_trace_summary), once: small tables.
    int have_summary;
    int summary_err;         // the decoder's error of that pass (0 sound)
    char summary_msg[256];
    size_t summary_off;
    struct ks_thread *th;
    unsigned nth;
    int *row_th;             // the thread table's rows: row 0 the swapper (-1), then each
    unsigned nrow_th;        // thread that is not a CPU's idle thread (utid = its index + 1)
    struct ks_proc *proc;
    unsigned nproc;
    struct ks_dl *dl;
    unsigned ndl;
    struct ks_inv *inv;
    unsigned ninv;
    struct ks_cpu_sum cpu[KEV_MAX_CPUS];
    unsigned ncpu;
    struct ks_user *user;
    unsigned nuser;
    struct kx_gap *gap;      // lost-event windows
    unsigned ngap;
    struct kx_inst *inst;    // task instances, judged (kx_task.h)
    struct kx_task *task;    // the tasks (kx_task.h), judged
    unsigned ntask;
    struct kx_timing_set timing; // its connection's kev_timing rules when kev_open opened it
    unsigned ninst;
    uint64_t t_first, t_last, events, lost;
    // The damage a walk met (any table's cursor, the first pass): its message, 0 none.
    int walk_err;
    char walk_msg[256];
    struct ks_kept *kept;    // finished walks kept for reuse (ks_keep_rows), NULL none
    size_t kept_bytes;
};
// A walk met the decoder's error: the trace keeps the first one (kev_damage()).
void ks_trace_damaged(struct ks_trace *t, const struct kev_reader *r, int err);

// Opens path (mapped, header parsed). NULL with *err set (sqlite3_malloc'd) on failure.
// With rows kept (ks_keep_rows), a path opened before is the same trace again, its first pass
// and kept walks with it (one connection at a time: kev_open sets its id and mode).
struct ks_trace *ks_trace_open(const char *path, char **err);
void ks_trace_ref(struct ks_trace *t);
void ks_trace_unref(struct ks_trace *t);
// The first pass over the whole trace (cached): 0, or -1 with *err.
int ks_trace_summary(struct ks_trace *t, char **err);
// Nanoseconds since boot of a time in cycles.
int64_t ks_ns(const struct ks_trace *t, uint64_t cycles);
// The header value of TRACE_<key> as a string into buf ("" when absent).
const char *ks_attr(const struct ks_trace *t, const char *key, char *buf, size_t n);

// ---- records ------------------------------------------------------------------------------------
// What a cursor queues: one record per row, copied from the model's (kx_rows.h) or built from
// an event. kind says which member.
enum ks_kind { KS_STATE, KS_KCALL, KS_IRQ, KS_MSG, KS_WAIT, KS_CPU, KS_EVENT, KS_ARG, KS_FUNC,
               KS_FLOW, KS_DECL, KS_LOAD, KS_CHAIN };

struct ks_msg_rec {
    uint64_t id;
    int client, server;
    unsigned irq;            // irq + 1 for a pulse sent inside an interrupt
    int pulse, error;
    uint32_t client_pid, srv_pid, coid, rcvid;
    uint64_t t_send, t_recv, t_reply;
    uint64_t parent;         // the message this one was sent while serving (its id), 0 none
};

struct ks_cpu_rec {
    unsigned cpu, what;      // 1 running, 2 idle, 0 none
    int th;
    uint64_t t0, t1;
};

struct ks_load_rec {         // a CPU's busy time in a bucket of cpu_load(WIDTH)
    unsigned cpu;
    int64_t ts, width, busy; // ns
    double load;             // busy / width
};

#define KS_TEXT 200u
// An event seen by a table that reads events themselves (event, user_event, instant, fault,
// stack_sample, prio_change, lost): its fields, its thread, and what the table made of it.
struct ks_ev_rec {
    uint64_t id;             // the event's ordinal in the time-ordered walk (1, 2, ...)
    uint64_t t;
    unsigned cls, ev, cpu, nw;
    int th;
    uint32_t pid;
    uint32_t w[8];           // the first words
    size_t offset;
    int64_t v[6];            // table-specific numbers
    uint64_t x;              // a table's own number (usdt: the site)
    char text[KS_TEXT];      // table-specific text (a user event's value, a stack's frames)
    char name[64];
};

struct ks_arg {              // one row of args
    int64_t set;             // arg_set_id
    char key[40];
    int text;                // 1: the text s, 0: the integer i
    int64_t i;
    char s[KS_TEXT];
};

#define KS_DECL_COLS 16u
// A row of a declared table (ks_decl.c): each column's value as the event gave it.
struct ks_decl_rec {
    uint64_t id, t;          // the event's ordinal in the walk, its time
    unsigned cpu;
    int th;                  // the thread of the declaration's who field (-1: none)
    int64_t v[KS_DECL_COLS]; // an integer column's value; a TEXT model value's offset in text
    uint32_t null;           // a bit per column: NULL
    char text[KS_TEXT];      // the model's text values, each NUL-terminated
};

struct ks_rec {
    enum ks_kind kind;
    int sub;                 // which part of the record the row is (a wait's preemptor ...)
    union {
        struct kx_state_row st;
        struct kx_kcall_row kc;
        struct kx_irq_row irq;
        struct ks_msg_rec msg;
        struct kw_wait wait;
        struct ks_cpu_rec cpu;
        struct ks_ev_rec ev;
        struct ks_arg arg;
        struct kx_func_row fn;
        struct kx_flow_row flow;
        struct ks_decl_rec decl;
        struct ks_load_rec load;
        struct kx_chain_row chain;
    } u;
};

// ---- tables -------------------------------------------------------------------------------------
struct ks_cursor;
struct ks_table;
// The model's view of the cursor's walk, for a table's hooks: the model (NULL when the table
// needs none), the stats (NULL unless the table needs the analyses), the reader.
struct ks_walk {
    struct ks_trace *t;
    struct kev_reader *r;
    struct kx_stats *s;      // the analyses (their model is s->m), when the table needs them
    struct kx_model *m;      // the model alone otherwise (NULL when not needed)
    struct ks_cursor *cur;
    uint64_t nev;            // events walked
    int64_t param;           // a table-valued function's argument (cpu_load's width)
    const char *fail;        // a table's reason to fail the statement (the cursor says it)
    void *state;             // a table's own state for the walk (sqlite3_free'd at its end)
    const struct ks_table *tab; // the table the walk fills
};

// How a table gets its rows.
enum ks_source {
    KS_SRC_SUMMARY,          // from ks_trace's first pass (small; rows by index)
    KS_SRC_EVENTS,           // from each event (on_event), in time order: ts constraints bound the walk
    KS_SRC_MODEL,            // from the analyses' records (sinks), in the order they complete
};

struct ks_col {
    const char *name;
    const char *type;        // "INTEGER", "TEXT", "REAL" (the declared type)
    int needs_model;         // this column needs the thread model (event tables)
};

// ---- declared tables (ks_decl.c) -------------------------------------------------------------------
// A table of one event's rows, declared: its event and its columns, each a field of the event's
// row of the event table (trace/kev_events.c) read one stated way, or a value of the model. A
// new event's fields reach such a table by a declaration, with no code.
struct ks_walk;
struct kev_fields;
enum ks_dcol_src {
    KS_DC_ID,                // the event's ordinal in the walk (the event table's id)
    KS_DC_TS,                // its time, ns since boot
    KS_DC_CPU,               // its CPU
    KS_DC_UTID,              // the thread the who field `field` names (NULL: the model has none)
    KS_DC_FIELD,             // the field's value
    KS_DC_PID, KS_DC_TID,    // a who field's process, its thread id
    KS_DC_NAME,              // the field's value named by names()
    KS_DC_IF,                // the field's value, NULL unless the flag field `cond` is 1
    KS_DC_MODEL,             // value(): 1 an integer in *v, 2 a text in text, 0 NULL
};
struct ks_dcol {
    struct ks_col col;       // its name, declared type, whether it needs the model
    uint8_t src;             // enum ks_dcol_src
    const char *field;       // the row's field it reads
    const char *cond;        // KS_DC_IF's flag field
    const char *(*names)(unsigned v);
    int (*value)(struct ks_walk *w, const struct kev_event *e, const struct kev_fields *fs,
                 int64_t *v, char *text, size_t n);
};
struct ks_decl {            // (at most KS_DECL_COLS columns: each declaration asserts it)
    uint8_t cls;             // the event (KEV_C_*, its number)
    uint16_t ev;
    const struct ks_dcol *cols;
};
// The hooks of every declared table (its on_event, and its columns' values).
void ks_decl_on(struct ks_walk *w, const struct kev_event *e);
void ks_decl_col(struct ks_walk *w, const struct ks_rec *rec, int col, sqlite3_context *ctx);

// ---- declared columns over a row (ks_cols.c) -------------------------------------------------------
// A typed table's columns, declared: each column names where its value is in the row the table
// gives (a model record as the cursor queued it, a row of the first pass), read one stated way
// by one function (ks_rcol_result). Only a column computed from more than its field names a
// function of its own (KS_RC_FN). A new column of a model field is a line, no code.
struct ks_row {              // a row being read: its trace, its walk (NULL for a first-pass
    struct ks_trace *t;      // table), the record (NULL likewise) and the row struct in it
    struct ks_walk *w;
    const struct ks_rec *rec;
    const void *p;
};
enum ks_rc_kind {
    KS_RC_INT,               // an integer field, its size and signedness declared
    KS_RC_NS,                // a time in cycles: ns since boot
    KS_RC_DUR,               // from the field's time to the time at off2 (a field of the same
                             // type): ns(end) - ns(start)
    KS_RC_SPAN,              // a span in cycles, in ns
    KS_RC_UTID,              // a thread index (int, the model's): its utid, NULL for none (-1)
    KS_RC_TEXT,              // a NUL-terminated char array
    KS_RC_NAME,              // an integer field named by names() (NULL: no name)
    KS_RC_ELEM,              // element idx of the array field, NULL unless idx < the count at
                             // off2 (an unsigned)
    KS_RC_FLAG,              // 1 when the field is not 0, else 0
    KS_RC_EQ,                // 1 when the field is k, else 0
    KS_RC_SLICE,             // a slice's id (docs/sql.md, "Ids"): the record id field * 8 + k
    KS_RC_TRACK,             // a track's id: k * 2^24 + the owner field's low 24 bits
    KS_RC_DOUBLE,            // a double field
    KS_RC_CONST,             // the integer k, whatever the row
    KS_RC_CONST_TEXT,        // the text `text`, whatever the row
    KS_RC_FN,                // computed by fn()
    KS_RC_NULL,              // always NULL: Perfetto's column for a concept the kernel lacks
};
enum ks_rc_null {            // when a column is NULL, read on its field (KS_RC_DUR: its end)
    KS_RN_NEVER, KS_RN_NEG, KS_RN_ZERO, KS_RN_EMPTY,
    KS_RN_BEFORE,            // KS_RC_DUR: its end is before its start
};
enum ks_rc_if {              // and on another field of the row (`when`), whatever its own says
    KS_RI_ALWAYS, KS_RI_SET, KS_RI_CLEAR, KS_RI_NONNEG, // NULL unless it is not 0, 0, >= 0,
    KS_RI_EQ,                                           // when_v
};
struct ks_rcol {
    struct ks_col col;       // its name, declared type, whether it needs the model
    uint8_t kind, null;      // enum ks_rc_kind, enum ks_rc_null
    uint8_t size, sign;      // the field's size in bytes and whether it is signed
    uint8_t idx;             // KS_RC_ELEM: the element
    uint8_t perfetto;        // 1: Perfetto's column of that name, with Perfetto's meaning
    uint8_t unended;         // its NULL is written -1 (Perfetto's dur of a slice that did not end)
    int32_t k;               // KS_RC_SLICE's and KS_RC_TRACK's kind, KS_RC_CONST's and
                             // KS_RC_EQ's value
    const char *text;        // KS_RC_CONST_TEXT's text
    uint16_t off, off2;      // the field's offset in the row (a row is under 64 KiB: ks_cols.c
                             // asserts it); KS_RC_DUR's end, KS_RC_ELEM's count
    uint8_t when_if, when_size, when_sign; // enum ks_rc_if, on the field at offset `when`
    uint16_t when;
    int32_t when_v;          // KS_RI_EQ's value
    const char *(*names)(unsigned v);
    void (*fn)(const struct ks_row *r, sqlite3_context *ctx);
};
// A column's value of row r.
void ks_rcol_result(const struct ks_rcol *c, const struct ks_row *r, sqlite3_context *ctx);

// Declaring: ROW is the row's struct type where these are used (#define ROW struct kx_...).
#define KS_SIGNED(x) _Generic((x), signed char: 1, short: 1, int: 1, long: 1, long long: 1, \
                              default: 0)
#define KS_AT(f) .off = offsetof(ROW, f), .size = sizeof(((ROW *)0)->f), \
                 .sign = KS_SIGNED(((ROW *)0)->f)
#define RC_INT(n, f) .col = { n, "INTEGER", 0 }, .kind = KS_RC_INT, KS_AT(f)
#define RC_NS(n, f) .col = { n, "INTEGER", 0 }, .kind = KS_RC_NS, KS_AT(f)
#define RC_DUR(n, f0, f1) .col = { n, "INTEGER", 0 }, .kind = KS_RC_DUR, KS_AT(f0), \
                          .off2 = offsetof(ROW, f1)
#define RC_SPAN(n, f) .col = { n, "INTEGER", 0 }, .kind = KS_RC_SPAN, KS_AT(f)
#define RC_UTID(n, f) .col = { n, "INTEGER", 0 }, .kind = KS_RC_UTID, KS_AT(f)
// An event table's utid the model gives (the walk runs the model only when such a column is read)
#define RC_UTID_M(n, f) .col = { n, "INTEGER", 1 }, .kind = KS_RC_UTID, KS_AT(f)
#define RC_TEXT(n, f) .col = { n, "TEXT", 0 }, .kind = KS_RC_TEXT, .off = offsetof(ROW, f)
#define RC_NAME(n, f, nm) .col = { n, "TEXT", 0 }, .kind = KS_RC_NAME, KS_AT(f), .names = nm
#define RC_ELEM(n, f, i, count) .col = { n, "INTEGER", 0 }, .kind = KS_RC_ELEM, KS_AT(f[0]), \
                                .idx = i, .off2 = offsetof(ROW, count)
// a uint32_t array's element read as a signed word
#define RC_ELEM_S32(n, f, i, count) .col = { n, "INTEGER", 0 }, .kind = KS_RC_ELEM, \
                                    .off = offsetof(ROW, f[0]), .size = 4, .sign = 1, .idx = i, \
                                    .off2 = offsetof(ROW, count)
#define RC_FLAG(n, f) .col = { n, "INTEGER", 0 }, .kind = KS_RC_FLAG, KS_AT(f)
#define RC_EQ(n, f, v) .col = { n, "INTEGER", 0 }, .kind = KS_RC_EQ, KS_AT(f), .k = v
#define RC_FN(n, type, f) .col = { n, type, 0 }, .kind = KS_RC_FN, .fn = f
#define RC_NULL(n, type) .col = { n, type, 0 }, .kind = KS_RC_NULL
#define RC_SLICE(n, f, kd) .col = { n, "INTEGER", 0 }, .kind = KS_RC_SLICE, KS_AT(f), .k = kd
#define RC_TRACK(n, f, kd) .col = { n, "INTEGER", 0 }, .kind = KS_RC_TRACK, KS_AT(f), .k = kd
#define RC_DOUBLE(n, f) .col = { n, "REAL", 0 }, .kind = KS_RC_DOUBLE, .off = offsetof(ROW, f)
#define RC_CONST(n, v) .col = { n, "INTEGER", 0 }, .kind = KS_RC_CONST, .k = v
#define RC_CONST_TEXT(n, s) .col = { n, "TEXT", 0 }, .kind = KS_RC_CONST_TEXT, .text = s
#define NUL(x) .null = KS_RN_##x
#define WHEN(how, f) .when_if = KS_RI_##how, .when = offsetof(ROW, f), \
                     .when_size = sizeof(((ROW *)0)->f), .when_sign = KS_SIGNED(((ROW *)0)->f)
#define WHEN_EQ(f, v) .when_if = KS_RI_EQ, .when = offsetof(ROW, f), .when_v = v, \
                      .when_size = sizeof(((ROW *)0)->f), .when_sign = KS_SIGNED(((ROW *)0)->f)
#define PF .perfetto = 1
#define UNENDED .unended = 1

// A union table's rows are records of several kinds (a slice: a kernel call, an interrupt, its
// handler, a message, a function call): each kind declares the table's columns, in the table's
// order with the same names and types (ks_vtab.c checks), over its own record's struct.
struct ks_part {
    uint8_t kind;            // the record's kind (enum ks_kind) ...
    int8_t sub;              // ... and its rec->sub (-1: any)
    const struct ks_rcol *cols;
};

// A table: where its rows come from and its columns, every one declared, in one of three forms:
// over one struct (rcols), over the struct of each kind of record it gives (parts), or as an
// event's fields (decl).
#define KS_ROW_BUF 256u
struct ks_table {
    const char *name;
    const char *doc;         // one line, for kev_tables() and docs/sql.md
    enum ks_source src;
    unsigned ncols;
    int ts_col;              // KS_SRC_EVENTS: the column of the row's time (its constraints
                             // bound the walk)
    int needs_stats;         // KS_SRC_EVENTS tables that also need the analyses (user names)
    // KS_SRC_SUMMARY: rows (their columns: row, below)
    unsigned (*nrows)(struct ks_trace *t);
    int summary_lazy;        // its rows need no pass: the columns that do run it
    // KS_SRC_EVENTS: look at e (the model before it); queue records with ks_push
    void (*on_event)(struct ks_walk *w, const struct kev_event *e);
    // KS_SRC_MODEL: the kinds of the model's records it takes (KS_TAKE(KS_STATE) | ...: each
    // made a record of that kind by ks_model.c), and what rows it makes of one (NULL: the
    // record is the row; else rows() queues them with ks_push: a filter, parts, other kinds)
    unsigned takes;
    void (*rows)(struct ks_walk *w, const struct ks_rec *rec);
    int param_col;           // a hidden column that must be given (TABLE(value)), 0 none
    void (*on_end)(struct ks_walk *w); // after the walk (and the model's last records)
    unsigned skip;           // parts of the analyses the table does not need (KX_SKIP_*)
    const struct ks_rcol *rcols; // its columns over its row's struct ...
    const struct ks_part *parts; // ... or over each kind of record's, a part each ...
    unsigned nparts;
    const struct ks_decl *decl; // ... or its event and columns of its fields (ks_decl.c)
    // KS_SRC_SUMMARY: its row i, a struct of the trace's or one made in buf (KS_ROW_BUF
    // bytes, the cursor's: valid until its next row) ...
    const void *(*row)(struct ks_trace *t, unsigned i, void *buf);
    // ... or, without nrows and row, element i of the first pass's array at rows_at, of
    // row_size bytes, of which there are the unsigned at nrows_at (KS_ROWS)
    uint16_t rows_at, nrows_at, row_size;
};
// A table's columns over its row's struct; a union table's parts (the first's columns named)
#define KS_COLS(cols) .rcols = cols, .ncols = sizeof(cols) / sizeof((cols)[0])
#define KS_PARTS(parts_, first) .parts = parts_, .nparts = sizeof(parts_) / sizeof((parts_)[0]), \
                                .ncols = sizeof(first) / sizeof((first)[0])
// A first-pass table's rows: the trace's array `rows`, `n` of them (ks_trace's members)
#define KS_ROWS(rows, n) .rows_at = offsetof(struct ks_trace, rows), \
                         .nrows_at = offsetof(struct ks_trace, n), \
                         .row_size = sizeof(*((struct ks_trace *)0)->rows)
// The number of rows of a first-pass table, and its row i
unsigned ks_rows_n(const struct ks_table *tab, struct ks_trace *t);
const void *ks_row_at(const struct ks_table *tab, struct ks_trace *t, unsigned i, void *buf);
// Column i of a table over a struct (its first part's for a union table), NULL for an event's.
static inline const struct ks_rcol *ks_rcol_of(const struct ks_table *t, unsigned i)
{
    return t->rcols ? &t->rcols[i] : t->parts ? &t->parts[0].cols[i] : NULL;
}
// Column i of a table: its name, type and whether it needs the model.
static inline const struct ks_col *ks_col_of(const struct ks_table *t, unsigned i)
{
    return t->decl ? &t->decl->cols[i].col : &ks_rcol_of(t, i)->col;
}
// The part of a union table that declares record rec's columns, NULL none.
const struct ks_part *ks_part_of(const struct ks_table *t, const struct ks_rec *rec);

extern const struct ks_table *const ks_tables[];
extern const unsigned ks_ntables;

// A virtual table's connection, as both modules (kev, kev_tables) make it: its columns declared
// (sql: "CREATE TABLE x(...)", NULL when building it ran out of memory), then its state of
// `size` bytes from SQLite's allocator, zeroed (it begins with the sqlite3_vtab). The state, or
// NULL with *rc the error.
void *ks_vtab_new(sqlite3 *db, const char *sql, size_t size, int *rc);
// A cursor's state of `size` bytes from SQLite's allocator, zeroed; NULL when out of memory.
void *ks_zalloc(size_t size);

#define KS_TAKE(kind) (1u << (kind))
// The model's callbacks (k's members) that make the records table tab takes (ks_model.c).
void ks_model_sink(const struct ks_table *tab, struct kx_sink *k);

// Queue a record for the cursor of walk w (copied).
void ks_push(struct ks_walk *w, const struct ks_rec *rec);
// The cursor's sink user (for KS_SRC_MODEL sinks): the walk.
struct ks_walk *ks_walk_of(void *user);

// Results with the time in nanoseconds, NULL for an unknown (negative) one.
void ks_result_ns(sqlite3_context *ctx, const struct ks_trace *t, uint64_t cycles, int known);
void ks_result_text(sqlite3_context *ctx, const char *s);
// A thread's utid, Perfetto's meaning: 0 for the idle thread of every CPU (its "swapper"), the
// model's thread number + 1 for any other; -1 for none (th < 0). Runs the first pass if needed.
int ks_utid(struct ks_trace *t, int th);
// As a result: NULL for none.
void ks_result_thread(sqlite3_context *ctx, struct ks_trace *t, int th);

// What kev_open made on a connection (one trace at a time): the virtual-table module's client
// data, so a table's arguments can only name the trace this connection opened.
struct ks_conn {
    struct ks_trace *t;      // the open trace, NULL none
    unsigned next_id;        // the id the next kev_open gives its trace
    // Walks of the trace (xFilter on an event or model table) in the statement(s) running now:
    // SQLite reopens a table's cursor at each step of a recursive query, so they are counted
    // per connection, keyed by the busy statements, their run counts and the plans made (a new
    // run, or a statement prepared since, perhaps at a freed one's address, starts a new count).
    uint64_t run_key, plans;
    unsigned walks;
    struct ks_argcache *args; // EXTRACT_ARG's copy of the open trace's args (ks_ext.c), NULL none
    struct kx_timing_set timing; // kev_timing's rules, for the traces kev_open opens next
    sqlite3 *db;             // its connection, and the next one the process has (ks_ext.c)
    struct ks_conn *next;
};

// Keeping rows, for a fuzzer that runs many small queries over one small trace (test/fuzz/
// fuzz_kevsql_sql.c), never for kevsql itself (a large trace's rows do not fit in memory):
// with max_bytes > 0, a table's walk runs to its end at its first read, and a walk that ended
// clean is kept with its trace (its rows, its model) and given again to every later read with
// the same plan (table, model or not, argument, time bounds), up to max_bytes of kept rows and
// models a trace; a trace once opened stays open for the process. 0 (the default): every read
// walks the file. Set before any trace is opened.
void ks_keep_rows(size_t max_bytes);
extern size_t ks_keep_max;
// Frees t's kept walks (ks_trace_unref, when its last table is gone).
void ks_kept_free(struct ks_trace *t);

// A statement walks the trace (an event or model table's xFilter) at most this many times: a
// recursive query or a correlated subquery over those tables; past it the statement fails,
// saying why (a service running users' queries is not held by one). The first pass's small
// tables are read as often as a query asks, as SQLite's own tables are.
#define KS_MAX_WALKS 4096u

// ---- names of code addresses (ks_syms.c) ----------------------------------------------------------
// kevsql's symbol options (syms_opts: --elf, --kernel, --symbols DIR, --no-symbols,
// tool_syms.h), kept and given again for each trace: 1 one was, 0 not one, -1 said why.
int ks_syms_take(int id, const char *val);
// kevsql's --deadline and --period (kx_timing_opts), given to every trace's first pass
// (before the trace's own, kev_timing's).
int ks_timing_take(int id, const char *val);
// A number for a trace just opened (its sym_gen).
unsigned ks_syms_gen(void);
// pc's function as every tool names a function (syms_function: "0x..." when nothing names it);
// a stack's frames named as every tool names a frame ("stackfault`fault_c+0x4"), innermost
// first, joined by ';'.
void ks_syms_function(const struct ks_trace *t, uint64_t pc, char *fn, size_t n); // syms_function
void ks_syms_stack(const struct ks_trace *t, const uint64_t *pcs, unsigned depth, char *out,
                   size_t n);
// A USDT event of t (its fields fs, decoded) with its site named as every tool names it
// (syms_usdt.h): 0 and *f, its probe (when one is named) copied into *named; -1 not one.
struct syms_usdt;
struct syms_usdt_firing;
int ks_syms_usdt(const struct ks_trace *t, const struct kev_fields *fs, struct syms_usdt_firing *f,
                 struct syms_usdt *named);
// The site's probe "provider:name" of t in out; 0, or -1 when nothing names the site.
int ks_syms_usdt_name(const struct ks_trace *t, uint64_t site, char *out, size_t n);
// Ends t's lookup if it has one (before its bytes are unmapped).
void ks_syms_forget(const struct ks_trace *t);

// The extension's entry point (ks_ext.c): SQLite's name for a library called kevsql.
int sqlite3_kevsql_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);
// The virtual-table module (ks_vtab.c), its trace given as the module's client data.
extern const sqlite3_module ks_module;
// The standard library's views (stdlib.sql, embedded).
extern const char kevsql_stdlib_sql[];

#endif
