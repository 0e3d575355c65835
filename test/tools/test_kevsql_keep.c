// SPDX-License-Identifier: MIT
// Kept rows (ks_keep_rows, tools/kevsql/ks.h) give what a walk of the file gives: the SQL
// fuzzer (test/fuzz/fuzz_kevsql_sql.c) runs the extension with rows kept, so its findings are
// the extension's only if the kept rows are the rows. For each table of kev_tables, read in
// full, and a few plans with an argument or time bounds, the rows as text on a connection that
// walks the file each time (the truth: kevsql's own reading), then on a connection of a
// process that keeps rows, twice (the first read walks and keeps, the second reads the kept
// walk), and on a fresh connection over the same kept trace. Every column of every row must
// match. Built under ASan + UBSan (build/host-test).
//   test_kevsql_keep TRACE...
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>
#include <kevhost/tool_syms.h>

int sqlite3_kevsql_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);
int ks_syms_take(int id, const char *val);
void ks_keep_rows(size_t max_bytes);

// A query's rows as one text: columns split by '|', rows by '\n'; NULL on an error (said).
static char *rows_of(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        printf("# %s: %s\n", sql, sqlite3_errmsg(db));
        return NULL;
    }
    sqlite3_str *s = sqlite3_str_new(db);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const unsigned char *v = sqlite3_column_text(st, i);
            sqlite3_str_appendf(s, "%s%s", i ? "|" : "", v ? (const char *)v : "NULL");
        }
        sqlite3_str_appendchar(s, 1, '\n');
    }
    if (rc != SQLITE_DONE)
        printf("# %s: %s\n", sql, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    char *out = sqlite3_str_finish(s);
    if (rc != SQLITE_DONE) {
        sqlite3_free(out);
        return NULL;
    }
    return out ? out : sqlite3_mprintf("");
}

static sqlite3 *open_on(const char *trace)
{
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        return NULL;
    char *q = sqlite3_mprintf("SELECT kev_open(%Q)", trace);
    int rc = sqlite3_exec(db, q, NULL, NULL, NULL);
    sqlite3_free(q);
    if (rc != SQLITE_OK) {
        printf("# kev_open(%s): %s\n", trace, sqlite3_errmsg(db));
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

#define MAXQ 64

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        printf("usage: test_kevsql_keep TRACE...\n"
               "  each table of each trace read with rows kept (ks_keep_rows) against a walk\n");
        return argc < 2 ? 2 : 0;
    }
    ks_syms_take(SYMS_OPT_NONE, NULL);
    sqlite3_auto_extension((void (*)(void))sqlite3_kevsql_init);
    int n = 0, failed = 0;
    // the truths first, every trace, before rows are kept (ks_keep_rows: set before any open)
    static char *queries[8][MAXQ], *truth[8][MAXQ];
    static unsigned nq[8];
    int ntr = argc - 1 > 8 ? 8 : argc - 1;
    for (int k = 0; k < ntr; k++) {
        sqlite3 *db = open_on(argv[k + 1]);
        if (!db) {
            printf("not ok %d - %s opens\n", ++n, argv[k + 1]);
            return 1;
        }
        sqlite3_stmt *st;
        sqlite3_prepare_v2(db, "SELECT name FROM kev_tables WHERE name NOT IN "
                               "('cpu_load', 'kev_tables') ORDER BY name", -1, &st, NULL);
        while (sqlite3_step(st) == SQLITE_ROW && nq[k] < MAXQ - 4)
            queries[k][nq[k]++] = sqlite3_mprintf("SELECT * FROM \"%w\"",
                                                  (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        queries[k][nq[k]++] = sqlite3_mprintf("SELECT * FROM cpu_load(1000000)");
        queries[k][nq[k]++] = sqlite3_mprintf("SELECT * FROM cpu_load(250000)");
        queries[k][nq[k]++] = sqlite3_mprintf(
            "SELECT * FROM event WHERE ts > (SELECT trace_start() + 1000) AND "
            "ts <= (SELECT trace_start() + 5000000) ORDER BY ts");
        queries[k][nq[k]++] = sqlite3_mprintf(
            "SELECT ts, utid FROM sched_slice WHERE ts >= 0 LIMIT 7");
        for (unsigned i = 0; i < nq[k]; i++)
            truth[k][i] = rows_of(db, queries[k][i]);
        sqlite3_close(db);
    }
    ks_keep_rows(256u << 20);
    for (int k = 0; k < ntr; k++) {
        const char *what[3] = { "walked and kept", "read kept", "read kept on a fresh connection" };
        sqlite3 *db = open_on(argv[k + 1]);
        for (int pass = 0; pass < 3 && db; pass++) {
            if (pass == 2) {
                sqlite3_close(db);
                db = open_on(argv[k + 1]);
            }
            unsigned same = 0, rows = 0;
            for (unsigned i = 0; db && i < nq[k]; i++) {
                char *got = rows_of(db, queries[k][i]);
                int ok = got && truth[k][i] && !strcmp(got, truth[k][i]);
                if (!ok)
                    printf("# %s: %s differs from the walk's rows\n", argv[k + 1], queries[k][i]);
                for (const char *p = got; ok && *p; p++)
                    rows += *p == '\n';
                same += ok;
                sqlite3_free(got);
            }
            int ok = db && same == nq[k] && rows > 0;
            failed |= !ok;
            printf("%sok %d - %s: %u queries over every table, %s: the walk's rows (%u rows)\n",
                   ok ? "" : "not ", ++n, argv[k + 1], same, what[pass], rows);
        }
        sqlite3_close(db);
    }
    printf("1..%d\n", n);
    return failed;
}
