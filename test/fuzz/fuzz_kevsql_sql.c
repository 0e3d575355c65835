// SPDX-License-Identifier: MIT
// libFuzzer target for kevsql's SQL surface (tools/kevsql/, docs/sql-hostile.md): any
// byte string is run as SQL statements on a connection where the extension is registered and
// a small trace is open (its tables, views and functions: CREATE VIRTUAL TABLE ... USING kev(...)
// with any argument, kev_open / kev_close / kev_ns, recursion, LIMIT / OFFSET ...), every column
// of every row fetched. Errors are answers; a crash, a sanitizer report or a hang is a finding.
// fuzz_kevsql is the other side: any bytes as the trace, fixed SQL.
// Cheap runs (10 M of them are the goal, docs/sql-hostile.md): the extension keeps rows
// (ks_keep_rows): the trace is opened and its first pass made once a process, each table's walk
// runs once for each plan and its rows and model are kept, so an input costs SQLite's work on
// a few hundred rows, not the model's 6 MB set up again under ASan (the walk itself is
// fuzz_kevsql's and fuzz_kev_model's to fuzz). The connection is kept from one input to the
// next while the input left its schema as it was; one that changed only main's is given an
// empty main again (SQLITE_DBCONFIG_RESET_DATABASE), one that changed temp's (the tables,
// kev_open, kev_close) a fresh connection over the same opened trace. As SQLite's own fuzzers
// do, SQLite's limits are small (SQLITE_LIMIT_*) and a progress handler stops an input after
// a budget of VM steps: a long query is not a finding, the extension's own bounds
// (KS_MAX_WALKS) are what the fuzzer checks. Inputs longer than MAX_LEN are skipped.
#include <libgen.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>
#include <kevhost/tool_syms.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
// The extension's entry point (tools/kevsql/ks_ext.c), registered as kevsql registers it.
int sqlite3_kevsql_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);
// Its symbol options (ks_syms.c): code addresses stay raw here, so no input makes the target
// open the files its IMAGE events name.
int ks_syms_take(int id, const char *val);
// Rows kept for every read of the trace (ks.h): the budget, in bytes.
void ks_keep_rows(size_t max_bytes);

#define MAX_LEN 1024

static char trace[4096];     // fuzz_kevsql_sql.kev beside the fuzzer (make builds it)
static sqlite3 *db;
static long long schema_main, schema_temp; // their versions after the last fresh opening
static unsigned budget;      // progress-handler calls left for this input
static uint64_t sum;

static int progress(void *p)
{
    (void)p;
    return budget-- == 0;
}

static long long schema_version(const char *q)
{
    long long v = -1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static long long main_version(void)
{
    return schema_version("PRAGMA main.schema_version");
}

static long long temp_version(void)
{
    return schema_version("PRAGMA temp.schema_version");
}

static void fresh(void)
{
    if (db)
        sqlite3_close_v2(db);
    db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "fuzz_kevsql_sql: sqlite3_open failed\n");
        abort();
    }
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);       // no file written: ATTACH, VACUUM INTO
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);   // no gigabyte blobs
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 1 << 16);
    sqlite3_limit(db, SQLITE_LIMIT_VDBE_OP, 25000);    // no statement of a million opcodes
    sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 200);   // the parser's recursion, under ASan
    sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 50);
    sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 100);
    sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 10);
    char *q = sqlite3_mprintf("SELECT kev_open(%Q)", trace);
    if (sqlite3_exec(db, q, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "fuzz_kevsql_sql: kev_open(%s) failed: %s\n", trace, sqlite3_errmsg(db));
        abort();
    }
    sqlite3_free(q);
    sqlite3_progress_handler(db, 1000, progress, NULL);
    schema_main = main_version();
    schema_temp = temp_version();
}

// main's schema changed, temp's not: an empty main again on the same connection.
static void reset_main(void)
{
    sqlite3_db_config(db, SQLITE_DBCONFIG_RESET_DATABASE, 1, 0);
    sqlite3_exec(db, "VACUUM main", NULL, NULL, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_RESET_DATABASE, 0, 0);
    schema_main = main_version();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    char self[4096];
    snprintf(self, sizeof(self), "%s", (*argv)[0]);
    char *abs = realpath(dirname(self), NULL);
    if (!abs) {
        fprintf(stderr, "fuzz_kevsql_sql: cannot find my directory\n");
        abort();
    }
    snprintf(trace, sizeof(trace), "%s/fuzz_kevsql_sql.kev", abs);
    free(abs);
    ks_syms_take(SYMS_OPT_NONE, NULL);
    ks_keep_rows(256u << 20);
    sqlite3_auto_extension((void (*)(void))sqlite3_kevsql_init);
    sqlite3_hard_heap_limit64(512ll << 20);
    fresh();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_LEN)
        return 0;
    char *sql = malloc(size + 1);
    if (!sql)
        return 0;
    memcpy(sql, data, size);
    sql[size] = 0;
    budget = 300; // 300k VM instructions for the whole input
    const char *tail = sql;
    while (tail && *tail && budget) {
        sqlite3_stmt *st = NULL;
        const char *next = NULL;
        if (sqlite3_prepare_v2(db, tail, -1, &st, &next) != SQLITE_OK || !st) {
            sqlite3_finalize(st);
            if (!next || next == tail)
                break;
            tail = next;
            continue;
        }
        while (sqlite3_step(st) == SQLITE_ROW)
            for (int i = 0; i < sqlite3_column_count(st); i++) {
                const unsigned char *s = sqlite3_column_text(st, i);
                sum += (uint64_t)sqlite3_column_int64(st, i) + (s ? strlen((const char *)s) : 0);
            }
        sqlite3_finalize(st);
        tail = next;
    }
    free(sql);
    budget = ~0u;
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    if (temp_version() != schema_temp)
        fresh();
    else if (main_version() != schema_main)
        reset_main();
    return 0;
}
