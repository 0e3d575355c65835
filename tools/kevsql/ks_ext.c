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
//   kev_ns(CYCLES)           nanoseconds since boot of a time in the trace's cycles
// The tables are virtual (ks_vtab.c): rows are decoded from the mapped file when a query reads
// them, so a trace larger than memory can be queried.
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

static void fn_kev_ns(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct ks_conn *c = sqlite3_user_data(ctx);
    if (!c->t) {
        sqlite3_result_error(ctx, "kev_ns: no trace (kev_open first)", -1);
        return;
    }
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

static void conn_free(void *p)
{
    struct ks_conn *c = p;
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
struct kt_cursor {
    sqlite3_vtab_cursor base;
    unsigned i;
};
static int kt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
    (void)aux, (void)argc, (void)argv, (void)err;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(name TEXT, columns TEXT, doc TEXT)");
    if (rc != SQLITE_OK)
        return rc;
    *out = sqlite3_malloc(sizeof(**out));
    if (!*out)
        return SQLITE_NOMEM;
    memset(*out, 0, sizeof(**out));
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
    struct kt_cursor *c = sqlite3_malloc(sizeof(*c));
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof(*c));
    *out = &c->base;
    return SQLITE_OK;
}
static int kt_close(sqlite3_vtab_cursor *c) { sqlite3_free(c); return SQLITE_OK; }
static int kt_filter(sqlite3_vtab_cursor *c, int n, const char *s, int argc, sqlite3_value **v)
{
    (void)n, (void)s, (void)argc, (void)v;
    ((struct kt_cursor *)c)->i = 0;
    return SQLITE_OK;
}
static int kt_next(sqlite3_vtab_cursor *c) { ((struct kt_cursor *)c)->i++; return SQLITE_OK; }
static int kt_eof(sqlite3_vtab_cursor *c) { return ((struct kt_cursor *)c)->i >= ks_ntables; }
static int kt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    const struct ks_table *t = ks_tables[((struct kt_cursor *)cur)->i];
    if (col == 0) {
        ks_result_text(ctx, t->name);
    } else if (col == 1) {
        sqlite3_str *s = sqlite3_str_new(NULL);
        for (unsigned i = 0; i < t->ncols; i++)
            sqlite3_str_appendf(s, "%s%s", i ? ", " : "", t->cols[i].name);
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
    *r = ((struct kt_cursor *)c)->i;
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
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "kev_ns", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, c,
                                        fn_kev_ns, NULL, NULL, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_mutex_enter(mx);
        c->next = conns;
        conns = c;
        sqlite3_mutex_leave(mx);
    }
    return rc;
}
