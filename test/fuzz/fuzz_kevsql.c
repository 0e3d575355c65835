// SPDX-License-Identifier: MIT
// libFuzzer target for kevsql's SQLite extension (tools/kevsql/): any byte string is written to
// a file, opened with kev_open(PATH, 'lenient') on a fresh in-memory database, and every table
// (a table-valued one with a bucket width) and every view of the standard library is read to
// its end, every column of every row fetched: no crash, no read out of bounds, no loop,
// whatever the damage. The model alone has fuzz_kev_model, the decoder fuzz_kev_decode; the
// seeds are the same small kevgen traces and a two-CPU one.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>
#include <kevhost/tool_syms.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
// The extension's entry point (tools/kevsql/ks_ext.c), registered as kevsql registers it.
int sqlite3_kevsql_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);
// Its symbol options (ks_syms.c): code addresses stay raw here, so no input makes the target
// open the files its IMAGE events name.
int ks_syms_take(int id, const char *val);

static uint64_t sum;

// Steps sql to its end reading every column; errors (the damage, strict or not) are answers.
static void read_all(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return;
    while (sqlite3_step(st) == SQLITE_ROW)
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const unsigned char *s = sqlite3_column_text(st, i);
            sum += (uint64_t)sqlite3_column_int64(st, i) + (s ? strlen((const char *)s) : 0);
        }
    sqlite3_finalize(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static int registered;
    if (!registered) {
        snprintf(path, sizeof(path), "/tmp/fuzz_kevsql.%d.kev", (int)getpid());
        ks_syms_take(SYMS_OPT_NONE, NULL);
        sqlite3_auto_extension((void (*)(void))sqlite3_kevsql_init);
        registered = 1;
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;
    }
    char *q = sqlite3_mprintf("SELECT kev_open(%Q, 'lenient')", path);
    read_all(db, q);
    sqlite3_free(q);
    // every table and view kev_open made, by name from the schema
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT name FROM temp.sqlite_master WHERE type IN "
                           "('table', 'view') ORDER BY name", -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(st, 0);
            char *sel = sqlite3_mprintf(strcmp(name, "cpu_load") ? "SELECT * FROM temp.%w" :
                                        "SELECT * FROM temp.%w(1000000)", name);
            read_all(db, sel);
            sqlite3_free(sel);
        }
        sqlite3_finalize(st);
    }
    read_all(db, "SELECT kev_damage()");
    sqlite3_close(db);
    return 0;
}
