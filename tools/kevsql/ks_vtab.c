// SPDX-License-Identifier: MIT
// The virtual-table module behind every kevsql table (ks.h). A table is
// `CREATE VIRTUAL TABLE temp.NAME USING kev(NAME, TRACE-ID)` (kev_open makes them): TRACE-ID
// is the number kev_open gave the trace it opened on this connection (the module's client data
// holds it), so SQL can name only that trace, never an address; anything else is an error. Rows are
// decoded on demand: a cursor opens its own reader on the mapped file and walks it in time
// order (kx_src), feeding the analysis model when the table needs it; the records the table
// wants are queued and given one by one, so memory is the model's fixed tables and a short
// queue, whatever the size of the trace (docs/sql.md, "Virtual or loaded"). Tables of the first
// pass (threads, processes, ...) are read from the trace's cached summary.
// Time constraints (ts >, >=, <, <=, = on a table whose rows come in time order: the event
// tables) bound the walk: it stops past the upper bound and gives nothing before the lower.
// A damaged file: the rows before the damage, then the statement fails with the decoder's
// message and byte offset (strict, the default), or ends there (kevsql's lenient mode, which
// says so itself).
// Kept rows (ks_keep_rows, for the SQL fuzzer only): a walk runs to its end at once and, if it
// ended clean, is kept with the trace; a cursor with the same plan reads the kept rows.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"
#include <kevhost/kx_pass.h>

SQLITE_EXTENSION_INIT3

struct ks_vt {
    sqlite3_vtab base;
    sqlite3 *db;
    struct ks_conn *conn;
    const struct ks_table *tab;
    struct ks_trace *t;
};

// A finished walk kept with its trace (ks_keep_rows): its plan, and what its columns read (the
// walk's model, state and reader stay as the walk left them; cursors only read them).
struct ks_kept {
    struct ks_kept *next;
    const struct ks_table *tab;
    int num;                  // the plan's idxNum (model, argument, bounds)
    int64_t param, lo, hi;
    struct ks_walk w;
    struct kx_src *src;
    struct ks_rec *q;         // every row, in order
    size_t n;
};

size_t ks_keep_max;

void ks_keep_rows(size_t max_bytes)
{
    ks_keep_max = max_bytes;
}

struct ks_cursor {
    sqlite3_vtab_cursor base;
    struct ks_vt *vt;
    const struct ks_kept *kept; // the kept walk this cursor reads (it owns none of it), NULL none
    int eager;                // walk to the end before giving a row (rows kept)
    struct ks_walk w;
    struct kev_reader *r;
    struct kx_src *src;
    struct ks_rec *q;         // the queue: records not given yet, q[qhead .. qlen)
    size_t qhead, qlen, qcap;
    const struct ks_rec *rec; // the current row (in the queue: pushes come only in next_row)
    sqlite3_int64 rowid;
    unsigned row;             // summary tables: the current index ...
    const void *rowp;         // ... its row (NULL: not made yet), made in rowbuf if computed
    union { char b[KS_ROW_BUF]; int64_t align; } rowbuf;
    int eof, done, finished, oom;
    int err;                  // the decoder's error, to report once the queue is empty
    int has_lo, has_hi;
    int64_t lo, hi;           // ns bounds on the time column
    struct kx_pass pass;      // the walk's events to the table, then the model (walk_start)
};

// ---- helpers the tables use -------------------------------------------------------------------

void ks_push(struct ks_walk *w, const struct ks_rec *rec)
{
    struct ks_cursor *c = w->cur;
    if (c->qhead == c->qlen)
        c->qhead = c->qlen = 0;
    if (c->qlen == c->qcap) {
        size_t cap = c->qcap ? 2 * c->qcap : 64;
        struct ks_rec *q = sqlite3_realloc64(c->q, cap * sizeof(*q));
        if (!q) {
            c->oom = 1;
            return;
        }
        c->q = q, c->qcap = cap;
    }
    c->q[c->qlen++] = *rec;
}

struct ks_walk *ks_walk_of(void *user)
{
    return user;
}

void *ks_zalloc(size_t size)
{
    void *p = sqlite3_malloc64(size);
    if (p)
        memset(p, 0, size);
    return p;
}

void *ks_vtab_new(sqlite3 *db, const char *sql, size_t size, int *rc)
{
    *rc = sql ? sqlite3_declare_vtab(db, sql) : SQLITE_NOMEM;
    if (*rc != SQLITE_OK)
        return NULL;
    void *v = ks_zalloc(size);
    if (!v)
        *rc = SQLITE_NOMEM;
    return v;
}

void ks_result_ns(sqlite3_context *ctx, const struct ks_trace *t, uint64_t cycles, int known)
{
    if (known)
        sqlite3_result_int64(ctx, ks_ns(t, cycles));
    else
        sqlite3_result_null(ctx);
}

void ks_result_text(sqlite3_context *ctx, const char *s)
{
    if (s)
        sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_result_null(ctx);
}

int ks_utid(struct ks_trace *t, int th)
{
    if (th < 0)
        return -1;
    if (!t->have_summary) {
        char *err = NULL;
        ks_trace_summary(t, &err); // its failure is the summary tables' to say
        sqlite3_free(err);
    }
    if ((unsigned)th < t->nth && t->th[th].idle)
        return 0;
    return th + 1;
}

void ks_result_thread(sqlite3_context *ctx, struct ks_trace *t, int th)
{
    int u = ks_utid(t, th);
    if (u >= 0)
        sqlite3_result_int(ctx, u);
    else
        sqlite3_result_null(ctx);
}

// ---- the table ------------------------------------------------------------------------------------

static const struct ks_table *table_named(const char *name)
{
    for (unsigned i = 0; i < ks_ntables; i++)
        if (!strcmp(ks_tables[i]->name, name))
            return ks_tables[i];
    return NULL;
}

// The trace a CREATE VIRTUAL TABLE's second argument names: the id kev_open gave the trace
// open on this connection, in decimal; NULL for anything else.
static struct ks_trace *trace_arg(const struct ks_conn *conn, const char *arg)
{
    if (!conn || !conn->t || !arg || !*arg)
        return NULL;
    unsigned long long id = 0;
    for (const char *p = arg; *p; p++) {
        if (*p < '0' || *p > '9' || id > 0xffffffffull)
            return NULL;
        id = id * 10 + (unsigned)(*p - '0');
    }
    return id == conn->t->id ? conn->t : NULL;
}

static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
    if (argc != 5) {
        *err = sqlite3_mprintf("kev: usage: CREATE VIRTUAL TABLE x USING kev(TABLE, TRACE)");
        return SQLITE_ERROR;
    }
    const struct ks_table *tab = table_named(argv[3]);
    if (!tab) {
        *err = sqlite3_mprintf("kev: no table %s", argv[3]);
        return SQLITE_ERROR;
    }
    for (unsigned p = 1; p < tab->nparts; p++) // a union table's parts: one set of columns
        for (unsigned i = 0; i < tab->ncols; i++) {
            const struct ks_col *a = &tab->parts[0].cols[i].col, *b = &tab->parts[p].cols[i].col;
            if (!b->name || strcmp(a->name, b->name) || strcmp(a->type, b->type)) {
                *err = sqlite3_mprintf("kev: table %s: part %u's column %u is %s %s, not %s %s "
                                       "(ks_tables.c: every part declares the table's columns "
                                       "in its order)", tab->name, p, i,
                                       b->name ? b->name : "missing", b->type ? b->type : "",
                                       a->name, a->type);
                return SQLITE_ERROR;
            }
        }
    struct ks_trace *t = trace_arg(aux, argv[4]);
    if (!t) {
        *err = sqlite3_mprintf("kev: %s is not the trace open on this connection (kev_open(PATH) "
                               "makes the tables; their second argument is its number)", argv[4]);
        return SQLITE_ERROR;
    }
    sqlite3_str *s = sqlite3_str_new(db);
    sqlite3_str_appendall(s, "CREATE TABLE x(");
    for (unsigned i = 0; i < tab->ncols; i++)
        sqlite3_str_appendf(s, "%s\"%w\" %s%s", i ? ", " : "", ks_col_of(tab, i)->name,
                            ks_col_of(tab, i)->type,
                            tab->param_col && (int)i == tab->param_col ? " HIDDEN" : "");
    sqlite3_str_appendall(s, ")");
    char *sql = sqlite3_str_finish(s);
    int rc;
    struct ks_vt *vt = ks_vtab_new(db, sql, sizeof(*vt), &rc);
    sqlite3_free(sql);
    if (!vt)
        return rc;
    vt->tab = tab;
    vt->t = t;
    vt->db = db;
    vt->conn = aux;
    ks_trace_ref(t);
    *out = &vt->base;
    return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *v)
{
    struct ks_vt *vt = (struct ks_vt *)v;
    ks_trace_unref(vt->t);
    sqlite3_free(vt);
    return SQLITE_OK;
}

// idxNum bits: 8 the table's argument (argv[0]), 1 a lower bound (next argv), 2 an upper bound
// (next argv), 4 the model is needed.
enum { IDX_LO = 1, IDX_HI = 2, IDX_MODEL = 4, IDX_PARAM = 8 };

static int vt_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
    struct ks_vt *vt = (struct ks_vt *)v;
    const struct ks_table *tab = vt->tab;
    int lo = -1, hi = -1, num = 0, n = 0;
    vt->conn->plans++;
    if (tab->param_col) { // a table-valued function: its argument must be given
        int k = -1;
        for (int i = 0; i < info->nConstraint && k < 0; i++)
            if (info->aConstraint[i].iColumn == tab->param_col &&
                info->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_EQ)
                k = i;
        if (k < 0 || !info->aConstraint[k].usable)
            return SQLITE_CONSTRAINT;
        info->aConstraintUsage[k].argvIndex = ++n;
        info->aConstraintUsage[k].omit = 1;
        num |= IDX_PARAM;
    }
    for (unsigned i = 0; i < tab->ncols && i < 63; i++)
        if (ks_col_of(tab, i)->needs_model && (info->colUsed & (1ull << i)))
            num |= IDX_MODEL;
    if (info->colUsed & (1ull << 63))
        num |= IDX_MODEL;
    if (tab->src == KS_SRC_EVENTS && tab->ts_col >= 0)
        for (int i = 0; i < info->nConstraint; i++) {
            const struct sqlite3_index_constraint *c = &info->aConstraint[i];
            if (!c->usable || c->iColumn != tab->ts_col)
                continue;
            if ((c->op == SQLITE_INDEX_CONSTRAINT_GT || c->op == SQLITE_INDEX_CONSTRAINT_GE ||
                 c->op == SQLITE_INDEX_CONSTRAINT_EQ) && lo < 0)
                lo = i;
            if ((c->op == SQLITE_INDEX_CONSTRAINT_LT || c->op == SQLITE_INDEX_CONSTRAINT_LE ||
                 c->op == SQLITE_INDEX_CONSTRAINT_EQ) && hi < 0)
                hi = i;
        }
    // SQLite checks each bound again (omit 0): the walk only needs to cover the range.
    if (lo >= 0)
        info->aConstraintUsage[lo].argvIndex = ++n, num |= IDX_LO;
    if (hi >= 0 && hi != lo)
        info->aConstraintUsage[hi].argvIndex = ++n, num |= IDX_HI;
    else if (hi >= 0)
        num |= IDX_HI;
    info->idxNum = num;
    double rows = tab->src == KS_SRC_SUMMARY ? 100.0 : 1e7;
    if (lo >= 0)
        rows /= 4;
    if (hi >= 0)
        rows /= 4;
    info->estimatedRows = (sqlite3_int64)rows;
    info->estimatedCost = rows;
    // Event tables come in time order.
    if (tab->src == KS_SRC_EVENTS && info->nOrderBy == 1 &&
        info->aOrderBy[0].iColumn == tab->ts_col && !info->aOrderBy[0].desc)
        info->orderByConsumed = 1;
    return SQLITE_OK;
}

static int vt_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
    struct ks_cursor *c = ks_zalloc(sizeof(*c));
    if (!c)
        return SQLITE_NOMEM;
    c->vt = (struct ks_vt *)v;
    *out = &c->base;
    return SQLITE_OK;
}

// Ends a cursor's walk: its reader, source, model, queue (a kept walk's are the trace's).
static void walk_end(struct ks_cursor *c)
{
    if (c->kept) {
        c->kept = NULL;
        c->w.s = NULL, c->w.m = NULL, c->w.state = NULL, c->src = NULL, c->r = NULL, c->q = NULL;
    }
    kx_stats_delete(c->w.s);
    sqlite3_free(c->w.m);
    sqlite3_free(c->w.state);
    c->w.state = NULL;
    kx_src_free(c->src);
    sqlite3_free(c->r);
    sqlite3_free(c->q);
    c->w.s = NULL, c->w.m = NULL, c->src = NULL, c->r = NULL, c->q = NULL;
    c->qhead = c->qlen = c->qcap = 0;
}

static int vt_close(sqlite3_vtab_cursor *cur)
{
    struct ks_cursor *c = (struct ks_cursor *)cur;
    walk_end(c);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int set_error(struct ks_cursor *c, const char *fmt, const char *a)
{
    sqlite3_free(c->vt->base.zErrMsg);
    c->vt->base.zErrMsg = sqlite3_mprintf(fmt, a);
    return SQLITE_ERROR;
}

// An event to the table before the model (or the analyses) take it (kx_pass.h), inside the
// time bound.
static int cursor_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                        struct kx_model *m)
{
    struct ks_cursor *c = user;
    const struct ks_table *tab = c->vt->tab;
    (void)r, (void)m;
    if (tab->on_event && !(c->has_lo && ks_ns(c->w.t, e->t64) < c->lo))
        tab->on_event(&c->w, e);
    return 0;
}

// Walks until a record is queued, or the file (or the time bound) ends.
static int pump(struct ks_cursor *c)
{
    const struct ks_table *tab = c->vt->tab;
    struct ks_walk *w = &c->w;
    while ((c->eager || c->qhead == c->qlen) && !c->done) {
        struct kev_event e;
        int rc = kx_src_next(c->src, &e);
        if (rc != 1) {
            c->done = 1;
            c->err = rc;
            ks_trace_damaged(w->t, c->r, rc);
            break;
        }
        w->nev++;
        if (tab->src == KS_SRC_EVENTS && e.cls != KEV_C_CONTROL && c->has_hi &&
            ks_ns(w->t, e.t64) > c->hi) {
            c->done = 1;        // time order: nothing later can be in range
            break;
        }
        kx_pass_step(&c->pass, c->r, &e);
        if (c->oom)
            return SQLITE_NOMEM;
        if (w->fail)
            return set_error(c, "%s", w->fail);
    }
    if (c->done && !c->finished) {
        c->finished = 1;
        if (w->s && tab->src == KS_SRC_MODEL)
            kx_stats_finish(w->s); // what is still open at the end (or the damage) comes now
        if (tab->on_end)
            tab->on_end(w);
    }
    return c->oom ? SQLITE_NOMEM : SQLITE_OK;
}

static int next_row(struct ks_cursor *c)
{
    const struct ks_table *tab = c->vt->tab;
    if (tab->src == KS_SRC_SUMMARY) {
        c->rowp = NULL;
        if (c->rowid)
            c->row++;
        c->rowid++;
        c->eof = c->row >= ks_rows_n(tab, c->vt->t);
        return SQLITE_OK;
    }
    int rc = pump(c);
    if (rc != SQLITE_OK)
        return rc;
    if (c->qhead == c->qlen) {
        c->eof = 1;
        if (c->err && c->err != -1 && c->vt->t->strict)
            return set_error(c, "%s", kev_error(c->r));
        if (c->err == -1)
            return SQLITE_NOMEM;
        return SQLITE_OK;
    }
    c->rec = &c->q[c->qhead++];
    c->rowid++;
    return SQLITE_OK;
}

// Counts a walk of vt's table in the statements running now (ks_conn); 1 when past the bound.
// The first pass's tables (thread, process, ...) are not counted: reading one again costs its
// few rows, as an SQLite table's would, and a join reads it once per row of the other table.
static int reads_over(struct ks_vt *vt)
{
    struct ks_conn *conn = vt->conn;
    if (vt->tab->src == KS_SRC_SUMMARY)
        return 0;
    uint64_t key = conn->plans;
    for (sqlite3_stmt *st = sqlite3_next_stmt(vt->db, NULL); st; st = sqlite3_next_stmt(vt->db, st))
        if (sqlite3_stmt_busy(st))
            key = key * 1000003u + (uint64_t)(uintptr_t)st * 31u +
                  (uint64_t)sqlite3_stmt_status(st, SQLITE_STMTSTATUS_RUN, 0);
    if (key != conn->run_key)
        conn->run_key = key, conn->walks = 0;
    return ++conn->walks > KS_MAX_WALKS;
}

// Starts a cursor's walk over the file: its reader, source, and the model or analyses the
// plan (num) needs.
static int walk_start(struct ks_cursor *c, int num)
{
    struct ks_trace *t = c->vt->t;
    const struct ks_table *tab = c->vt->tab;
    c->r = sqlite3_malloc(sizeof(*c->r));
    if (!c->r)
        return SQLITE_NOMEM;
    if (kev_open(c->r, t->data, t->len))
        return set_error(c, "%s", kev_error(c->r));
    c->w.r = c->r;
    c->src = kx_src_new(c->r);
    if (!c->src)
        return SQLITE_NOMEM;
    if (tab->src == KS_SRC_MODEL || tab->needs_stats) {
        c->w.s = kx_stats_new(c->r);
        if (!c->w.s)
            return SQLITE_NOMEM;
        c->w.s->skip = tab->skip;
        struct kx_sink k = { .user = &c->w };
        ks_model_sink(tab, &k);
        kx_stats_sink(c->w.s, &k);
        c->w.m = NULL;
    } else if (num & IDX_MODEL) {
        c->w.m = sqlite3_malloc(sizeof(*c->w.m));
        if (!c->w.m)
            return SQLITE_NOMEM;
        kx_model_init(c->w.m, c->r);
    }
    c->pass = (struct kx_pass){ .m = c->w.m, .on_event = cursor_event, .user = c };
    if (c->w.s)
        kx_stats_model(&c->pass, c->w.s);
    return SQLITE_OK;
}

// ---- kept walks (ks_keep_rows) -------------------------------------------------------------------

static int same_plan(const struct ks_kept *k, const struct ks_cursor *c, int num)
{
    return k->tab == c->vt->tab && k->num == num &&
           (!(num & IDX_PARAM) || k->param == c->w.param) &&
           (!c->has_lo || k->lo == c->lo) && (!c->has_hi || k->hi == c->hi);
}

static const struct ks_kept *kept_find(const struct ks_cursor *c, int num)
{
    for (const struct ks_kept *k = c->vt->t->kept; k; k = k->next)
        if (same_plan(k, c, num))
            return k;
    return NULL;
}

// Keeps the cursor's finished walk with its trace (the cursor then reads it as kept): only
// one that ended clean (no damage, no table's failure), within the trace's budget; NULL when
// not kept (the cursor gives its queue as usual).
static const struct ks_kept *kept_add(struct ks_cursor *c, int num)
{
    struct ks_trace *t = c->vt->t;
    size_t bytes = sizeof(struct ks_kept) + c->qlen * sizeof(*c->q) +
                   (c->w.s ? sizeof(*c->w.s) : 0) + (c->w.m ? sizeof(*c->w.m) : 0);
    if (!c->done || c->err || c->w.fail || c->oom || c->qhead ||
        t->kept_bytes + bytes > ks_keep_max)
        return NULL;
    struct ks_kept *k = sqlite3_malloc(sizeof(*k));
    if (!k)
        return NULL;
    memset(k, 0, sizeof(*k));
    k->tab = c->vt->tab;
    k->num = num;
    k->param = c->w.param;
    k->lo = c->has_lo ? c->lo : 0;
    k->hi = c->has_hi ? c->hi : 0;
    k->w = c->w;
    k->w.cur = NULL;
    k->src = c->src;
    k->q = c->q;
    k->n = c->qlen;
    k->next = t->kept;
    t->kept = k;
    t->kept_bytes += bytes;
    c->w.s = NULL, c->w.m = NULL, c->w.state = NULL, c->src = NULL, c->q = NULL;
    c->qhead = c->qlen = c->qcap = 0;
    // the reader stays with the walk (a column may read the file through it)
    c->r = NULL;
    return k;
}

// The cursor reads a kept walk's rows: its walk is the kept one's, already at its end.
static int kept_read(struct ks_cursor *c, const struct ks_kept *k)
{
    walk_end(c);
    c->kept = k;
    int64_t param = c->w.param;
    c->w = k->w;
    c->w.cur = c;
    c->w.param = param;
    c->r = k->w.r;
    c->src = k->src;
    c->q = k->q;
    c->qhead = 0, c->qlen = c->qcap = k->n;
    c->done = c->finished = 1;
    c->err = 0;
    return next_row(c);
}

void ks_kept_free(struct ks_trace *t)
{
    while (t->kept) {
        struct ks_kept *k = t->kept;
        t->kept = k->next;
        kx_stats_delete(k->w.s);
        sqlite3_free(k->w.m);
        sqlite3_free(k->w.state);
        kx_src_free(k->src);
        sqlite3_free(k->w.r);
        sqlite3_free(k->q);
        sqlite3_free(k);
    }
    t->kept_bytes = 0;
}

static int vt_filter(sqlite3_vtab_cursor *cur, int num, const char *str, int argc,
                     sqlite3_value **argv)
{
    (void)str;
    struct ks_cursor *c = (struct ks_cursor *)cur;
    struct ks_trace *t = c->vt->t;
    const struct ks_table *tab = c->vt->tab;
    walk_end(c);
    if (reads_over(c->vt)) {
        unsigned max = KS_MAX_WALKS;
        sqlite3_free(c->vt->base.zErrMsg);
        c->vt->base.zErrMsg = sqlite3_mprintf(
            "kev: %s read %u times in one statement (a recursive query or a correlated subquery "
            "over it): read it once, WITH x AS MATERIALIZED (SELECT ... FROM %s)", tab->name,
            max, tab->name);
        return SQLITE_ERROR;
    }
    memset(&c->w, 0, sizeof(c->w));
    c->w.t = t;
    c->w.cur = c;
    c->w.tab = tab;
    c->rowid = 0, c->row = 0, c->rowp = NULL;
    c->eof = c->done = c->finished = c->oom = c->err = 0;
    c->has_lo = c->has_hi = 0;
    int k = 0;
    if ((num & IDX_PARAM) && k < argc)
        c->w.param = sqlite3_value_int64(argv[k++]);
    if ((num & IDX_LO) && k < argc)
        c->has_lo = 1, c->lo = sqlite3_value_int64(argv[k++]);
    if ((num & IDX_HI) && k < argc)
        c->has_hi = 1, c->hi = sqlite3_value_int64(argv[k++]);
    else if (num & IDX_HI) // ts = X: one value bounds both ends
        c->has_hi = 1, c->hi = c->lo;
    if (tab->src == KS_SRC_SUMMARY) {
        char *err = NULL;
        if (!tab->summary_lazy && ks_trace_summary(t, &err)) {
            sqlite3_free(c->vt->base.zErrMsg);
            c->vt->base.zErrMsg = err;
            return SQLITE_ERROR;
        }
        return next_row(c);
    }
    const struct ks_kept *kept = ks_keep_max ? kept_find(c, num) : NULL;
    if (kept)
        return kept_read(c, kept);
    int rc = walk_start(c, num);
    if (rc != SQLITE_OK || !ks_keep_max)
        return rc == SQLITE_OK ? next_row(c) : rc;
    c->eager = 1;
    rc = pump(c);
    c->eager = 0;
    if (rc != SQLITE_OK)
        return rc;
    kept = kept_add(c, num);
    return kept ? kept_read(c, kept) : next_row(c);
}

static int vt_next(sqlite3_vtab_cursor *cur)
{
    return next_row((struct ks_cursor *)cur);
}

static int vt_eof(sqlite3_vtab_cursor *cur)
{
    return ((struct ks_cursor *)cur)->eof;
}

static int vt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    struct ks_cursor *c = (struct ks_cursor *)cur;
    const struct ks_table *tab = c->vt->tab;
    if (tab->rcols || tab->parts) { // declared columns: the row struct, read as declared
        struct ks_row r = { c->vt->t, NULL, NULL, NULL };
        const struct ks_rcol *cols = tab->rcols;
        if (tab->src == KS_SRC_SUMMARY) {
            if (!c->rowp)
                c->rowp = ks_row_at(tab, c->vt->t, c->row, c->rowbuf.b);
            r.p = c->rowp;
        } else {
            r.w = &c->w, r.rec = c->rec;
            r.p = &c->rec->u;
            if (tab->parts) {
                const struct ks_part *part = ks_part_of(tab, c->rec);
                cols = part ? part->cols : NULL;
            }
        }
        if (cols && col >= 0 && (unsigned)col < tab->ncols)
            ks_rcol_result(&cols[col], &r, ctx);
        else
            sqlite3_result_null(ctx);
    } else { // an event's fields (ks_decl.c)
        ks_decl_col(&c->w, c->rec, col, ctx);
    }
    return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = ((struct ks_cursor *)cur)->rowid;
    return SQLITE_OK;
}

const sqlite3_module ks_module = {
    .iVersion = 0,
    .xCreate = vt_connect,
    .xConnect = vt_connect,
    .xBestIndex = vt_best_index,
    .xDisconnect = vt_disconnect,
    .xDestroy = vt_disconnect,
    .xOpen = vt_open,
    .xClose = vt_close,
    .xFilter = vt_filter,
    .xNext = vt_next,
    .xEof = vt_eof,
    .xColumn = vt_column,
    .xRowid = vt_rowid,
};
