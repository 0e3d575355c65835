// SPDX-License-Identifier: MIT
// kevsql's SQLite extension (docs/sql.md): loads into Debian's sqlite3 shell (`.load kevsql`),
// Python's sqlite3 module (`load_extension`), and the kevsql command (linked in). It adds:
//   kev_open(PATH [, MODE])  makes PATH's tables (ks_tables.c) and the standard library's views
//                            (stdlib.sql) in the temp schema; MODE 'lenient': a damaged file's
//                            tables end at the damage instead of failing there (metadata says
//                            so); returns the number of tables
//   kev_close()              drops them
//   kev_damage()             the damage (message, byte offset) the open trace's walks met
//   kev_tables               a table of the tables, with a line on each
//   kev_columns              every table's columns, with whether each is Perfetto's
//   kev_ns(CYCLES)           nanoseconds since boot of a time in the trace's cycles
//   kev_timing(OPT, RULE)    a period or deadline (OPT 'period' or 'deadline', RULE as
//                            kevsql's --period/--deadline take it: 'imu=2ms') for the task
//                            instances of the traces the connection opens next; returns the
//                            rules it has; kev_timing() forgets them (the shell and the Dask
//                            workers give kevsql's options this way)
// The tables are virtual (ks_vtab.c): rows are decoded from the mapped file when a query reads
// them, so a trace larger than memory can be queried.
#include <stdlib.h>
#include <string.h>

#include "ks.h"

SQLITE_EXTENSION_INIT1

static int exec_fmt(sqlite3 *db, char **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *sql = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    if (!sql)
        return SQLITE_NOMEM;
    int rc = sqlite3_exec(db, sql, NULL, NULL, err);
    sqlite3_free(sql);
    return rc;
}

static void drop_all(sqlite3 *db, struct ks_conn *c)
{
    if (!c->t)
        return;
    // the library's views first (they read the tables), then the tables
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT name FROM temp.sqlite_master WHERE type = 'view' AND "
                               "sql LIKE '%-- kevsql stdlib%'", -1, &st, NULL) == SQLITE_OK) {
        char *names[256];
        int n = 0;
        while (sqlite3_step(st) == SQLITE_ROW && n < 256)
            names[n++] = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        for (int i = 0; i < n; i++) {
            if (names[i])
                exec_fmt(db, NULL, "DROP VIEW IF EXISTS temp.\"%w\"", names[i]);
            sqlite3_free(names[i]);
        }
    }
    for (unsigned i = 0; i < ks_ntables; i++)
        exec_fmt(db, NULL, "DROP TABLE IF EXISTS temp.\"%w\"", ks_tables[i]->name);
    exec_fmt(db, NULL, "DROP VIEW IF EXISTS temp.sched");
    ks_trace_unref(c->t);
    c->t = NULL;
}

static void fn_kev_close(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    struct ks_conn *c = sqlite3_user_data(ctx);
    drop_all(sqlite3_context_db_handle(ctx), c);
    sqlite3_result_int(ctx, 0);
}

static void fn_kev_open(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    struct ks_conn *c = sqlite3_user_data(ctx);
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    const char *path = (const char *)sqlite3_value_text(argv[0]);
    const char *mode = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : NULL;
    if (!path) {
        sqlite3_result_error(ctx, "kev_open: no path", -1);
        return;
    }
    if (mode && strcmp(mode, "lenient") && strcmp(mode, "strict")) {
        sqlite3_result_error(ctx, "kev_open: MODE is 'strict' or 'lenient'", -1);
        return;
    }
    char *err = NULL;
    struct ks_trace *t = ks_trace_open(path, &err);
    if (!t) {
        sqlite3_result_error(ctx, err ? err : "kev_open: failed", -1);
        sqlite3_free(err);
        return;
    }
    t->strict = !mode || strcmp(mode, "lenient");
    t->timing = c->timing;
    drop_all(db, c);
    c->t = t;
    t->id = ++c->next_id;
    int rc = SQLITE_OK;
    for (unsigned i = 0; i < ks_ntables && rc == SQLITE_OK; i++)
        rc = exec_fmt(db, &err, "CREATE VIRTUAL TABLE temp.\"%w\" USING kev(%s, %u)",
                      ks_tables[i]->name, ks_tables[i]->name, t->id);
    if (rc == SQLITE_OK) // Perfetto's name for sched_slice with its columns
        rc = exec_fmt(db, &err, "CREATE TEMP VIEW sched AS SELECT * FROM sched_slice");
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, kevsql_stdlib_sql, NULL, NULL, &err);
    if (rc != SQLITE_OK) {
        char *m = sqlite3_mprintf("kev_open: %s", err ? err : sqlite3_errstr(rc));
        sqlite3_free(err);
        drop_all(db, c);
        sqlite3_result_error(ctx, m ? m : "kev_open: failed", -1);
        sqlite3_free(m);
        return;
    }
    sqlite3_result_int(ctx, (int)ks_ntables);
}

static void fn_kev_timing(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    struct ks_conn *c = sqlite3_user_data(ctx);
    if (!argc) {
        c->timing.n = 0;
        sqlite3_result_int(ctx, 0);
        return;
    }
    const char *opt = (const char *)sqlite3_value_text(argv[0]);
    const char *rule = (const char *)sqlite3_value_text(argv[1]);
    int id = opt && !strcmp(opt, "deadline") ? KX_TIMING_OPT_DEADLINE
           : opt && !strcmp(opt, "period")   ? KX_TIMING_OPT_PERIOD : 0;
    if (!id || !rule) {
        sqlite3_result_error(ctx, "kev_timing: OPT is 'deadline' or 'period', then TASK=TIME", -1);
        return;
    }
    if (kx_timing_take(&c->timing, "kev_timing", id, rule) != 1) { // (the reason on stderr)
        char *m = sqlite3_mprintf("kev_timing: --%s %s: give a task and a time, such as imu=2ms "
                                  "(at most %u rules)", opt, rule, KX_MAX_TIMING);
        sqlite3_result_error(ctx, m ? m : "kev_timing: bad rule", -1);
        sqlite3_free(m);
        return;
    }
    sqlite3_result_int(ctx, (int)c->timing.n);
}

// The connection of a function fn's call when it has a trace open; else NULL, the call's
// result the error that says so.
static struct ks_conn *conn_with_trace(sqlite3_context *ctx, const char *fn)
{
    struct ks_conn *c = sqlite3_user_data(ctx);
    if (c->t)
        return c;
    char *m = sqlite3_mprintf("%s: no trace (kev_open first)", fn);
    sqlite3_result_error(ctx, m ? m : fn, -1);
    sqlite3_free(m);
    return NULL;
}

static void fn_kev_ns(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct ks_conn *c = conn_with_trace(ctx, "kev_ns");
    if (!c)
        return;
    sqlite3_result_int64(ctx, ks_ns(c->t, (uint64_t)sqlite3_value_int64(argv[0])));
}

// kev_damage(): the decoder's message (with its byte offset) for the damage a query's walk met
// in the open trace, NULL when none did.
static void fn_kev_damage(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    struct ks_conn *c = sqlite3_user_data(ctx);
    if (c->t && c->t->walk_err)
        ks_result_text(ctx, c->t->walk_msg);
    else if (c->t && !c->t->r->kr_have_trailer)
        ks_result_text(ctx, "file truncated: no trailer after the last buffer");
    else
        sqlite3_result_null(ctx);
}

// The connections the extension is registered on, so that loading it again on one (Python's
// load_extension twice, the shell's .load) keeps its open trace and its tables' module: the
// tables hold the ks_conn. Guarded by SQLite's application mutex (a no-op single-threaded).
static struct ks_conn *conns;

static struct ks_conn **conn_link(sqlite3 *db)
{
    struct ks_conn **p = &conns;
    while (*p && (*p)->db != db)
        p = &(*p)->next;
    return p;
}

// ---- Perfetto's functions: trace_start(), trace_end(), EXTRACT_ARG(arg_set_id, key) --------------

static struct ks_trace *summarised(sqlite3_context *ctx, const char *fn)
{
    struct ks_conn *c = conn_with_trace(ctx, fn);
    char *err = NULL;
    if (!c)
        return NULL;
    if (ks_trace_summary(c->t, &err)) {
        sqlite3_result_error(ctx, err ? err : "kev: the trace's first pass failed", -1);
        sqlite3_free(err);
        return NULL;
    }
    sqlite3_free(err);
    return c->t;
}

// trace_start() / trace_end(): the first and last event's time (ns since boot), as
// metadata's trace_start_ns / trace_end_ns and trace_bounds give them; NULL for no event.
static void fn_trace_start(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    struct ks_trace *t = summarised(ctx, "trace_start");
    if (t)
        ks_result_ns(ctx, t, t->t_first, t->events > 0);
}

static void fn_trace_end(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    struct ks_trace *t = summarised(ctx, "trace_end");
    if (t)
        ks_result_ns(ctx, t, t->t_last, t->events > 0);
}

// EXTRACT_ARG's copy of the args table, sorted by (arg_set_id, key): made by one walk of
// `args` at the first call after kev_open, freed by the next kev_open or kev_close. It is the
// one thing in kevsql that grows with the trace (about 60 bytes an argument): a query that
// reads many arguments gets them by a binary search each instead of a walk each.
struct ks_argv {
    int64_t set;
    char *key;
    int type;
    int64_t i;
    double d;
    char *s;
};
struct ks_argcache {
    unsigned trace_id;
    struct ks_argv *v;
    size_t n;
};

static void argcache_free(struct ks_argcache *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++) {
        sqlite3_free(a->v[i].key);
        sqlite3_free(a->v[i].s);
    }
    sqlite3_free(a->v);
    sqlite3_free(a);
}

static int argv_cmp(int64_t set, const char *key, const struct ks_argv *b)
{
    if (set != b->set)
        return set < b->set ? -1 : 1;
    return strcmp(key, b->key);
}

static int argv_sort(const void *x, const void *y)
{
    const struct ks_argv *a = x;
    return argv_cmp(a->set, a->key, y);
}

static struct ks_argcache *argcache_make(sqlite3 *db, unsigned id, char **err)
{
    struct ks_argcache *a = sqlite3_malloc(sizeof(*a));
    sqlite3_stmt *st = NULL;
    if (!a)
        return NULL;
    memset(a, 0, sizeof(*a));
    a->trace_id = id;
    size_t cap = 0;
    int rc = sqlite3_prepare_v2(db, "SELECT arg_set_id, key, value_type, int_value, real_value, "
                                "string_value FROM temp.args", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = SQLITE_ROW;
    while (rc == SQLITE_ROW && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (a->n == cap) {
            cap = cap ? 2 * cap : 1024;
            struct ks_argv *v = sqlite3_realloc64(a->v, cap * sizeof(*v));
            if (!v) {
                rc = SQLITE_NOMEM;
                break;
            }
            a->v = v;
        }
        struct ks_argv *x = &a->v[a->n++];
        memset(x, 0, sizeof(*x));
        x->set = sqlite3_column_int64(st, 0);
        x->key = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 1));
        const char *ty = (const char *)sqlite3_column_text(st, 2);
        x->type = ty && !strcmp(ty, "string") ? SQLITE_TEXT : ty && !strcmp(ty, "real") ?
                  SQLITE_FLOAT : SQLITE_INTEGER;
        x->i = sqlite3_column_int64(st, 3);
        x->d = sqlite3_column_double(st, 4);
        if (sqlite3_column_type(st, 5) != SQLITE_NULL)
            x->s = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 5));
        if (!x->key || (sqlite3_column_type(st, 5) != SQLITE_NULL && !x->s)) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    if (rc != SQLITE_DONE) {
        *err = sqlite3_mprintf("EXTRACT_ARG: reading args: %s", rc == SQLITE_NOMEM ?
                               "out of memory" : sqlite3_errmsg(db));
        sqlite3_finalize(st);
        argcache_free(a);
        return NULL;
    }
    sqlite3_finalize(st);
    if (a->n)
        qsort(a->v, a->n, sizeof(*a->v), argv_sort);
    return a;
}

// EXTRACT_ARG(arg_set_id, key): the value of that argument (Perfetto's function), NULL when the
// set has no such key.
static void fn_extract_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct ks_conn *c = conn_with_trace(ctx, "EXTRACT_ARG");
    if (!c)
        return;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    if (!c->args || c->args->trace_id != c->t->id) {
        char *err = NULL;
        argcache_free(c->args);
        c->args = argcache_make(sqlite3_context_db_handle(ctx), c->t->id, &err);
        if (!c->args) {
            sqlite3_result_error(ctx, err ? err : "EXTRACT_ARG: out of memory", -1);
            sqlite3_free(err);
            return;
        }
    }
    int64_t set = sqlite3_value_int64(argv[0]);
    const char *key = (const char *)sqlite3_value_text(argv[1]);
    size_t lo = 0, hi = c->args->n;
    while (key && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int k = argv_cmp(set, key, &c->args->v[mid]);
        if (k == 0) {
            const struct ks_argv *x = &c->args->v[mid];
            if (x->type == SQLITE_TEXT)
                ks_result_text(ctx, x->s);
            else if (x->type == SQLITE_FLOAT)
                sqlite3_result_double(ctx, x->d);
            else
                sqlite3_result_int64(ctx, x->i);
            return;
        }
        if (k < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    sqlite3_result_null(ctx);
}

static void conn_free(void *p)
{
    struct ks_conn *c = p;
    argcache_free(c->args);
    sqlite3_mutex *mx = sqlite3_mutex_alloc(SQLITE_MUTEX_STATIC_APP1);
    sqlite3_mutex_enter(mx);
    struct ks_conn **l = conn_link(c->db);
    if (*l == c)
        *l = c->next;
    sqlite3_mutex_leave(mx);
    if (c->t)
        ks_trace_unref(c->t);
    sqlite3_free(c);
}

// kev_tables: the tables and what each holds (an eponymous table: SELECT * FROM kev_tables).
// kev_columns (the same module, its client data not NULL): a row per column of each table, in
// the tables' order: the table, the column, its declared type, and 1 when it is Perfetto's
// column of that name with Perfetto's meaning, 0 when not (ks.h struct ks_rcol).
struct kt_vtab {
    sqlite3_vtab base;
    int columns;             // kev_columns
};
struct kt_cursor {
    sqlite3_vtab_cursor base;
    unsigned i, j;           // the table, its column (kev_columns)
};
static int kt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
    (void)argc, (void)argv, (void)err;
    int rc;
    struct kt_vtab *v = ks_vtab_new(db, aux ? "CREATE TABLE x(table_name TEXT, name TEXT, "
                                              "type TEXT, perfetto INTEGER)"
                                            : "CREATE TABLE x(name TEXT, columns TEXT, doc TEXT)",
                                    sizeof(*v), &rc);
    if (!v)
        return rc;
    v->columns = aux != NULL;
    *out = &v->base;
    return SQLITE_OK;
}
static int kt_disconnect(sqlite3_vtab *v) { sqlite3_free(v); return SQLITE_OK; }
static int kt_best(sqlite3_vtab *v, sqlite3_index_info *info)
{
    (void)v;
    info->estimatedCost = 30;
    return SQLITE_OK;
}
static int kt_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
    (void)v;
    struct kt_cursor *c = ks_zalloc(sizeof(*c));
    if (!c)
        return SQLITE_NOMEM;
    *out = &c->base;
    return SQLITE_OK;
}
static int kt_close(sqlite3_vtab_cursor *c) { sqlite3_free(c); return SQLITE_OK; }
static int kt_filter(sqlite3_vtab_cursor *c, int n, const char *s, int argc, sqlite3_value **v)
{
    (void)n, (void)s, (void)argc, (void)v;
    ((struct kt_cursor *)c)->i = ((struct kt_cursor *)c)->j = 0;
    return SQLITE_OK;
}
static int kt_next(sqlite3_vtab_cursor *cur)
{
    struct kt_cursor *c = (struct kt_cursor *)cur;
    if (((struct kt_vtab *)cur->pVtab)->columns && ++c->j < ks_tables[c->i]->ncols)
        return SQLITE_OK;
    c->i++, c->j = 0;
    return SQLITE_OK;
}
static int kt_eof(sqlite3_vtab_cursor *c) { return ((struct kt_cursor *)c)->i >= ks_ntables; }
static int kt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    const struct kt_cursor *c = (const struct kt_cursor *)cur;
    const struct ks_table *t = ks_tables[c->i];
    if (((struct kt_vtab *)cur->pVtab)->columns) {
        if (col == 0)
            ks_result_text(ctx, t->name);
        else if (col == 1 || col == 2)
            ks_result_text(ctx, col == 1 ? ks_col_of(t, c->j)->name : ks_col_of(t, c->j)->type);
        else // an event's declared table: ours
            sqlite3_result_int(ctx, ks_rcol_of(t, c->j) ? ks_rcol_of(t, c->j)->perfetto : 0);
    } else if (col == 0) {
        ks_result_text(ctx, t->name);
    } else if (col == 1) {
        sqlite3_str *s = sqlite3_str_new(NULL);
        for (unsigned i = 0; i < t->ncols; i++)
            sqlite3_str_appendf(s, "%s%s", i ? ", " : "", ks_col_of(t, i)->name);
        char *x = sqlite3_str_finish(s);
        ks_result_text(ctx, x);
        sqlite3_free(x);
    } else {
        ks_result_text(ctx, t->doc);
    }
    return SQLITE_OK;
}
static int kt_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *r)
{
    const struct kt_cursor *k = (const struct kt_cursor *)c;
    *r = ((struct kt_vtab *)c->pVtab)->columns ? (sqlite3_int64)k->i << 16 | k->j : k->i;
    return SQLITE_OK;
}
static const sqlite3_module kt_module = {
    .xConnect = kt_connect, .xBestIndex = kt_best, .xDisconnect = kt_disconnect,
    .xOpen = kt_open, .xClose = kt_close, .xFilter = kt_filter, .xNext = kt_next,
    .xEof = kt_eof, .xColumn = kt_column, .xRowid = kt_rowid,
};

// load_extension() from SQL: refused with the reason, whatever the host allowed. A query is
// data (a fleet or a service runs users' queries); loading code is the host program's act
// (the shell's .load, Python's load_extension, sqlite3_load_extension), which stays as it was.
static void fn_no_load_extension(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    sqlite3_result_error(ctx, "load_extension() from SQL is disabled where kevsql is loaded: "
                              "load extensions from the host program (.load, load_extension)",
                         -1);
}

int sqlite3_kevsql_init(sqlite3 *db, char **err, const sqlite3_api_routines *api)
{
    (void)err;
    SQLITE_EXTENSION_INIT2(api);
    sqlite3_mutex *mx = sqlite3_mutex_alloc(SQLITE_MUTEX_STATIC_APP1);
    sqlite3_mutex_enter(mx);
    int known = *conn_link(db) != NULL;
    sqlite3_mutex_leave(mx);
    if (known) // loaded on this connection already: its functions and module stand
        return SQLITE_OK;
    struct ks_conn *c = sqlite3_malloc(sizeof(*c));
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof(*c));
    c->db = db;
    // load_extension() from SQL: ours, which refuses, in place of SQLite's (an application's
    // function overrides a built-in one); the C API is the host's and stays as it was.
    int rc = SQLITE_OK;
    for (int n = 1; n <= 2 && rc == SQLITE_OK; n++)
        rc = sqlite3_create_function_v2(db, "load_extension", n, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                        NULL, fn_no_load_extension, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_module(db, "kev", &ks_module, c);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_module(db, "kev_tables", &kt_module, NULL);
    if (rc == SQLITE_OK) // its client data: any address not NULL says "the columns"
        rc = sqlite3_create_module(db, "kev_columns", &kt_module, (void *)&kt_module);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "kev_open", 1, SQLITE_UTF8, c, fn_kev_open, NULL,
                                        NULL, conn_free);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "kev_open", 2, SQLITE_UTF8, c, fn_kev_open, NULL,
                                        NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "kev_close", 0, SQLITE_UTF8, c, fn_kev_close, NULL,
                                        NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "kev_damage", 0, SQLITE_UTF8, c, fn_kev_damage, NULL,
                                        NULL, NULL);
    for (int n = 0; n <= 2 && rc == SQLITE_OK; n += 2)
        rc = sqlite3_create_function_v2(db, "kev_timing", n, SQLITE_UTF8 | SQLITE_DIRECTONLY, c,
                                        fn_kev_timing, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "kev_ns", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, c,
                                        fn_kev_ns, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "trace_start", 0, SQLITE_UTF8, c, fn_trace_start, NULL,
                                        NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "trace_end", 0, SQLITE_UTF8, c, fn_trace_end, NULL,
                                        NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "extract_arg", 2, SQLITE_UTF8, c, fn_extract_arg,
                                        NULL, NULL, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_mutex_enter(mx);
        c->next = conns;
        conns = c;
        sqlite3_mutex_leave(mx);
    }
    return rc;
}
