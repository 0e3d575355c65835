// SPDX-License-Identifier: MIT
// libFuzzer target for kevsql's SQL surface (tools/kevsql/, docs/sql.md "Hostile SQL"): any
// byte string is run as SQL statements on a connection where the extension is registered and
// a small trace is open (its tables, views and functions: CREATE VIRTUAL TABLE ... USING kev(...)
// with any argument, kev_open / kev_close / kev_ns, recursion, LIMIT / OFFSET ...), every column
// of every row fetched. Errors are answers; a crash, a sanitizer report or a hang is a finding.
// fuzz_kevsql is the other side: any bytes as the trace, fixed SQL.
// The connection is kept from one input to the next while the input left its schema as it was
// (the cost of kev_open would dominate); an input that changed it gets a fresh one. A
// statement's run is bounded by a progress handler (the budget below): a long query is not a
// finding, the extension's own bounds (KS_MAX_WALKS) are what the fuzzer checks.
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

static char trace[4096];     // fuzz_kevsql_sql.kev beside the fuzzer (make builds it)
static sqlite3 *db;
static long long schema;     // the schema's versions after the last fresh opening
static unsigned budget;      // progress-handler calls left for this input
static uint64_t sum;

static int progress(void *p)
{
    (void)p;
    return budget-- == 0;
}

static long long schema_version(void)
{
    long long v = 0;
    const char *q[] = { "PRAGMA main.schema_version", "PRAGMA temp.schema_version" };
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, q[i], -1, &st, NULL) != SQLITE_OK)
            return -1;
        if (sqlite3_step(st) == SQLITE_ROW)
            v = v * 1000003 + sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    return v;
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
    char *q = sqlite3_mprintf("SELECT kev_open(%Q)", trace);
    if (sqlite3_exec(db, q, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "fuzz_kevsql_sql: kev_open(%s) failed: %s\n", trace, sqlite3_errmsg(db));
        abort();
    }
    sqlite3_free(q);
    sqlite3_progress_handler(db, 1000, progress, NULL);
    schema = schema_version();
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
    sqlite3_auto_extension((void (*)(void))sqlite3_kevsql_init);
    sqlite3_hard_heap_limit64(512ll << 20);
    fresh();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *sql = malloc(size + 1);
    if (!sql)
        return 0;
    memcpy(sql, data, size);
    sql[size] = 0;
    budget = 2000; // 2M VM instructions for the whole input
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
    if (schema_version() != schema)
        fresh();
    return 0;
}
