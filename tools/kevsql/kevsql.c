// SPDX-License-Identifier: MIT
// kevsql: SQL over .kev traces (docs/sql.md).
//   kevsql TRACE.kev 'SELECT ...'        the query's rows as a table (--csv, --json: typed)
//   kevsql TRACE.kev                     an interactive shell (Debian's sqlite3 with the
//                                        extension loaded and the trace open)
//   kevsql --check TRACE.kev 'SELECT'    exit 1 when the query returns a row (CI asserts)
//   kevsql 'SELECT ...' A.kev B.kev DIR  every trace in parallel (-j N): one table with the
//                                        trace and its metadata (board, build, boot date);
//                                        --merge 'SELECT ... FROM result' over their union
//   ... --scheduler tcp://HOST:8786      the same on a Dask distributed cluster (kevsql_dask.py)
// The extension (kevsql.so's code, linked in) is registered with sqlite3_auto_extension.
// Exit status: 0 ok (--check: no row), 1 a row with --check, a damaged or unreadable trace, or
// a failing query; 2 bad usage.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kevsql.h"
#include <kevhost/json_out.h>
#include <kevhost/tool_grow.h>
#include <kevhost/tool_opts.h>
#include <kevhost/tool_syms.h>
#include <kevhost/kx_task.h>

int sqlite3_kevsql_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);

enum { OPT_CSV = TOOL_OPT_LONG, OPT_JSON, OPT_NO_HEADER, OPT_CHECK, OPT_LENIENT, OPT_MERGE,
       OPT_SCHEDULER, OPT_SEND, OPT_TIMING };
static const struct tool_opt opts[] = {
    { OPT_CSV, 0, "csv", NULL, "CSV with a header line", NULL },
    { OPT_JSON, 0, "json", NULL,
      "JSON {\"columns\": [{name, type}], \"rows\"} with numbers as numbers", NULL },
    { OPT_NO_HEADER, 0, "no-header", NULL, "table and CSV without the header line", NULL },
    { OPT_CHECK, 0, "check", NULL, "exit 1 when the query returns a row (printed), else 0", NULL },
    { OPT_LENIENT, 0, "lenient", NULL,
      "a damaged trace: its rows up to the damage (said on stderr, exit 1)\n"
      "instead of failing the query there", NULL },
    { 'j', 'j', NULL, "N", "traces queried at once (default: the CPUs)", NULL },
    { OPT_MERGE, 0, "merge", "SQL", "a query over the union of the traces' rows, the table \"result\"",
      NULL },
    { OPT_SCHEDULER, 0, "scheduler", "URL",
      "run on a Dask distributed cluster (its scheduler's address); the\n"
      "workers open a trace by its path when they all see it, else it is\n"
      "sent to them (--send: always); --timing says on stderr how long\n"
      "the cluster took, from asking the workers to the merged rows", NULL },
    { OPT_SEND, 0, "send", NULL, "with --scheduler: send every trace to the workers", NULL },
    { OPT_TIMING, 0, "timing", NULL, "with --scheduler: how long the cluster took", NULL },
    { .also = kx_timing_opts },
    { .also = syms_opts },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevsql", "[--csv|--json] [--check] [--lenient] [--deadline TASK=TIME]...\n"
    "              [--period TASK=TIME]... TRACE.kev ['SELECT ...']\n"
    "       kevsql [--csv|--json] [-j N] [--merge 'SELECT ... FROM result'] 'SELECT ...'\n"
    "              TRACE.kev|DIR...\n"
    "       kevsql ... --scheduler tcp://HOST:PORT 'SELECT ...' TRACE.kev|DIR...",
    "SQL over .kev traces: Perfetto's tables (sched_slice, thread_state, thread, process, cpu,\n"
    "slice, counter, args, metadata, track, instant, trace_bounds, thread_slice, the track\n"
    "views, stats), functions (EXTRACT_ARG, trace_start(), trace_end()) and meanings (utid 0\n"
    "the idle threads, states R, R+, S, Running), and the kernel's own (event, kcall, irq,\n"
    "msg, wait, user_event, fault, stack_sample, prio_change, lost, cpu_state, cpu_load(NS),\n"
    "deadlock, ...) with a library of views (thread_cpu, irq_latency, period_jitter,\n"
    "priority_inversion, deadlock_cycle, lock_contention, msg_latency, ...): SELECT * FROM\n"
    "kev_tables lists them, kev_columns their columns (perfetto: 1 Perfetto's own); docs/sql.md\n"
    "says what each column means. Times: ns since boot.\n"
    "  One trace and a query: the rows as a table; one trace alone: an interactive shell\n"
    "  (Debian's sqlite3 with the extension loaded and the trace open).\n"
    "  Several traces (or a directory of .kev files): the query on each, in parallel, as one\n"
    "  table whose first columns are the trace, its board, build and boot date.\n"
    "Code addresses (fbt and pid slices, stack frames) are named from the ELF files the\n"
    "capture's build ids find (docs/symbols.md).\n",
    opts,
    "Exit status: 0 ok, 1 a row with --check, a damaged or unreadable trace or a failing\n"
    "query, 2 bad usage.\n",
};

// ---- output -------------------------------------------------------------------------------------

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    putc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', f);
        putc(*s, f);
    }
    putc('"', f);
}

// Table output keeps every row until the end to size its columns: fine for the answers of
// questions; a long listing is better as --csv.
struct table {
    char **cell;
    size_t n, cap;
    int ncols;
    int *width;
    int *numeric;
};

static int table_add(struct table *t, const char *s)
{
    if (tool_grow(&t->cell, &t->cap, t->n + 1, sizeof(*t->cell), 256))
        return -1;
    int col = (int)(t->n % (size_t)t->ncols);
    t->cell[t->n] = strdup(s);
    if (!t->cell[t->n])
        return -1;
    int w = (int)strlen(s);
    if (w > t->width[col])
        t->width[col] = w;
    t->n++;
    return 0;
}

// A column's type: its declared one (a table's column), else its first row's value's (an
// expression's), "null" when that is NULL too.
static const char *col_type(sqlite3_stmt *st, int i, int have_row)
{
    const char *d = sqlite3_column_decltype(st, i);
    if (d)
        return strstr(d, "INT") ? "integer" : strstr(d, "REAL") ? "real" : "text";
    if (!have_row)
        return "null";
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER: return "integer";
    case SQLITE_FLOAT: return "real";
    case SQLITE_TEXT: return "text";
    case SQLITE_BLOB: return "blob";
    default: return "null";
    }
}

// A double as JSON: the shorter of %.15g and %.17g that reads back the same, with ".0" when it
// would read as an integer (a real column stays real for its reader).
static void json_double(double v)
{
    char b[40];
    snprintf(b, sizeof(b), "%.15g", v);
    if (strtod(b, NULL) != v)
        snprintf(b, sizeof(b), "%.17g", v);
    fputs(b, stdout);
    if (!strpbrk(b, ".eni"))
        fputs(".0", stdout);
}

// The CSV header line, or the table's header row (a cell like the others, sized with them).
static void print_names(sqlite3_stmt *st, int ncols, const struct ksq_opts *o, struct table *t)
{
    if (o->header && ncols && o->format == KSQ_CSV) {
        for (int i = 0; i < ncols; i++) {
            fputs(i ? "," : "", stdout);
            csv_field(stdout, sqlite3_column_name(st, i));
        }
        putchar('\n');
    }
    if (ncols && o->format == KSQ_TABLE && o->header)
        for (int i = 0; i < ncols; i++)
            table_add(t, sqlite3_column_name(st, i));
}

// JSON's opening: the columns' names and types (have_row: the first row is stepped to, for
// an expression's type), then the rows array's bracket.
static void print_json_columns(sqlite3_stmt *st, int ncols, int have_row)
{
    fputs("{\"columns\":[", stdout);
    for (int i = 0; i < ncols; i++) {
        fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
        json_str(stdout, sqlite3_column_name(st, i), 0);
        fputs(",\"type\":", stdout);
        json_str(stdout, col_type(st, i, have_row), 0);
        putchar('}');
    }
    fputs("],\"rows\":[", stdout);
}

// The current row: a CSV line, a JSON array (numbers as numbers), or the table's cells, kept
// until the end (-1 when they cannot be: out of memory).
static int print_row(sqlite3_stmt *st, int ncols, const struct ksq_opts *o, struct table *t,
                     int first)
{
    if (o->format == KSQ_JSON)
        fputs(first ? "\n[" : ",\n[", stdout);
    for (int i = 0; i < ncols; i++) {
        int ty = sqlite3_column_type(st, i);
        const char *s = (const char *)sqlite3_column_text(st, i);
        if (o->format == KSQ_CSV) {
            fputs(i ? "," : "", stdout);
            if (s)
                csv_field(stdout, s);
        } else if (o->format == KSQ_JSON) {
            fputs(i ? "," : "", stdout);
            if (ty == SQLITE_NULL)
                fputs("null", stdout);
            else if (ty == SQLITE_INTEGER)
                printf("%lld", (long long)sqlite3_column_int64(st, i));
            else if (ty == SQLITE_FLOAT)
                json_double(sqlite3_column_double(st, i));
            else
                json_str(stdout, s ? s : "", 0);
        } else {
            if (ty == SQLITE_INTEGER || ty == SQLITE_FLOAT)
                t->numeric[i] = 1;
            if (table_add(t, s ? s : "NULL"))
                return -1;
        }
    }
    if (o->format == KSQ_CSV)
        putchar('\n');
    else if (o->format == KSQ_JSON)
        putchar(']');
    return 0;
}

// The table's cells in columns as wide as their widest cell, numbers to the right (not the
// header's names); frees the cells.
static void print_table(struct table *t, const struct ksq_opts *o)
{
    int ncols = t->ncols;
    for (size_t k = 0; k < t->n; k++) {
        int col = (int)(k % (size_t)ncols);
        int w = t->width[col];
        int right = t->numeric[col] && !(o->header && k < (size_t)ncols);
        printf("%s%*s%s", col ? "  " : "", right ? w : -w, t->cell[k],
               col == ncols - 1 ? "\n" : "");
        free(t->cell[k]);
    }
}

// One prepared statement's rows in o's format: their count, or -1 on an error (said).
static long print_statement(sqlite3 *db, sqlite3_stmt *st, const struct ksq_opts *o,
                            const char *tool)
{
    int ncols = sqlite3_column_count(st), failed = 0;
    struct table t = { 0 };
    t.ncols = ncols;
    t.width = calloc((size_t)ncols + 1, sizeof(int));
    t.numeric = calloc((size_t)ncols + 1, sizeof(int));
    print_names(st, ncols, o, &t);
    int rc = sqlite3_step(st); // the first row: the JSON header's types may need it
    if (ncols && o->format == KSQ_JSON)
        print_json_columns(st, ncols, rc == SQLITE_ROW);
    long here = 0;
    for (; rc == SQLITE_ROW; rc = sqlite3_step(st)) {
        if (print_row(st, ncols, o, &t, here == 0)) {
            fprintf(stderr, "%s: out of memory\n", tool);
            failed = 1;
            break;
        }
        here++;
    }
    if (o->format == KSQ_JSON && ncols)
        fputs("]}\n", stdout);
    if (o->format == KSQ_TABLE)
        print_table(&t, o);
    free(t.cell), free(t.width), free(t.numeric);
    if (rc != SQLITE_DONE && !failed) {
        fprintf(stderr, "%s: %s\n", tool, sqlite3_errmsg(db));
        failed = 1;
    }
    return failed ? -1 : here;
}

long ksq_print(sqlite3 *db, const char *sql, const struct ksq_opts *o, const char *tool)
{
    sqlite3_stmt *st;
    const char *tail = sql;
    long rows = 0;
    int failed = 0;
    while (tail && *tail && !failed) {
        if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK) {
            fprintf(stderr, "%s: %s\n", tool, sqlite3_errmsg(db));
            return -1;
        }
        if (!st)
            continue; // blanks or a comment
        long here = print_statement(db, st, o, tool);
        failed = here < 0;
        rows += failed ? 0 : here;
        sqlite3_finalize(st);
    }
    fflush(stdout);
    return failed ? -1 : rows;
}

// ---- one trace ----------------------------------------------------------------------------------

sqlite3 *ksq_open(const char *path, int lenient, const char *tool)
{
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "%s: cannot open SQLite\n", tool);
        return NULL;
    }
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, "SELECT kev_open(?1, ?2)", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, lenient ? "lenient" : "strict", -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : SQLITE_ERROR;
    }
    if (rc != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", tool, sqlite3_errmsg(db));
        sqlite3_finalize(st);
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_finalize(st);
    return db;
}

// A lenient query over a damaged trace: says where, once. 1 when damaged.
static int say_damage(sqlite3 *db, const char *path, const char *tool)
{
    sqlite3_stmt *st;
    int damaged = 0;
    if (sqlite3_prepare_v2(db, "SELECT kev_damage()", -1, &st, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
        fprintf(stderr, "%s: %s: damaged: %s; the results cover the events before it\n", tool,
                path, sqlite3_column_text(st, 0));
        damaged = 1;
    }
    sqlite3_finalize(st);
    return damaged;
}

// --deadline and --period as given (OPT, RULE pairs), for the shell to give its extension.
static const char *timing_arg[2 * KX_MAX_TIMING];
static unsigned ntiming_arg;

// The interactive shell: Debian's sqlite3 with the extension beside this program loaded, the
// periods and deadlines given to it (kev_timing, its output thrown away) and the trace open;
// without them, says what is missing.
static int shell(const char *path)
{
    char self[PATH_MAX], so[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) {
        fprintf(stderr, "kevsql: cannot find where kevsql is\n");
        return 1;
    }
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    snprintf(so, sizeof(so), "%s/kevsql.so", self);
    if (access(so, R_OK)) {
        fprintf(stderr, "kevsql: %s: %s (the extension the shell loads)\n", so, strerror(errno));
        return 1;
    }
    if (strchr(path, '\'')) {
        fprintf(stderr, "kevsql: the shell takes a path without a quote (%s)\n", path);
        return 2;
    }
    const char *argv[2 * (KX_MAX_TIMING + 8)];
    unsigned k = 0;
    char *load = NULL, *open = NULL;
    if (asprintf(&load, ".load %s", so) < 0 || asprintf(&open, "SELECT kev_open('%s') AS tables;",
                                                          path) < 0)
        return 1;
    argv[k++] = "sqlite3", argv[k++] = "-cmd", argv[k++] = load;
    if (ntiming_arg)
        argv[k++] = "-cmd", argv[k++] = ".output /dev/null";
    for (unsigned i = 0; i + 1 < ntiming_arg; i += 2) {
        char *q = sqlite3_mprintf("SELECT kev_timing(%Q, %Q);", timing_arg[i], timing_arg[i + 1]);
        if (!q)
            return 1;
        argv[k++] = "-cmd", argv[k++] = q;
    }
    if (ntiming_arg)
        argv[k++] = "-cmd", argv[k++] = ".output";
    argv[k++] = "-cmd", argv[k++] = open, argv[k++] = "-cmd", argv[k++] = ".headers on";
    argv[k++] = "-cmd", argv[k++] = ".mode column", argv[k++] = ":memory:", argv[k] = NULL;
    execvp("sqlite3", (char *const *)argv);
    fprintf(stderr, "kevsql: sqlite3: %s (Debian's sqlite3 package is the shell; scripts/setup.sh "
            "installs it)\n", strerror(errno));
    return 1;
}

// Where the Dask driver is: beside this program (make copies it there).
static int dask(int argc, char **argv)
{
    char self[PATH_MAX], py[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return 1;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    snprintf(py, sizeof(py), "%s/kevsql_dask.py", self);
    char **args = calloc((size_t)argc + 3, sizeof(char *));
    if (!args)
        return 1;
    args[0] = "/usr/bin/python3";
    args[1] = py;
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    execv(args[0], args);
    fprintf(stderr, "kevsql: /usr/bin/python3: %s (Debian's python3 with python3-distributed "
            "runs --scheduler)\n", strerror(errno));
    return 1;
}

static int is_trace(const char *a)
{
    struct stat sb;
    return stat(a, &sb) == 0 && (S_ISDIR(sb.st_mode) || S_ISREG(sb.st_mode));
}

static int run(int argc, char **argv, const char **words, struct ksq_opts *po);

int main(int argc, char **argv)
{
    struct ksq_opts o = { .format = KSQ_TABLE, .header = 1 };
    const char **words = calloc((size_t)argc + 1, sizeof(char *));
    o.traces = calloc((size_t)argc + 1, sizeof(char *));
    if (!words || !o.traces)
        return 1;
    int rc = run(argc, argv, words, &o);
    free(words);
    free(o.traces);
    return rc;
}

// The command itself, with words and o->traces room for every argument.
static int run(int argc, char **argv, const char **words, struct ksq_opts *po)
{
    struct ksq_opts o = *po;
    int nwords = 0, many = 0, k;
    // On a cluster the Dask driver reads every option, its own (--send, --timing) included.
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--scheduler"))
            return dask(argc, argv);
    struct tool_args a = { argc, argv, 0, NULL };
    for (int id; (id = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END;) {
        char *end;
        if (id < 0)
            return tool_opts_exit(id);
        switch (id) {
        case OPT_CSV: o.format = KSQ_CSV; break;
        case OPT_JSON: o.format = KSQ_JSON; break;
        case OPT_NO_HEADER: o.header = 0; break;
        case OPT_CHECK: o.check = 1; break;
        case OPT_LENIENT: o.lenient = 1; break;
        case 'j':
            o.jobs = (int)strtol(a.val, &end, 10);
            if (*end || o.jobs < 1)
                return tool_usage_error(&cmd, "bad -j %s", a.val);
            many = 1;
            break;
        case OPT_MERGE: o.merge = a.val; many = 1; break;
        case OPT_SEND: case OPT_TIMING: case OPT_SCHEDULER:
            return tool_usage_error(&cmd, "%s goes with --scheduler", argv[a.ind - 1]);
        default:
            if ((k = ks_timing_take(id, a.val)) < 0 || (!k && ks_syms_take(id, a.val) < 0))
                return 2;
            if (k && ntiming_arg + 2 <= sizeof(timing_arg) / sizeof(timing_arg[0])) {
                timing_arg[ntiming_arg++] = id == KX_TIMING_OPT_DEADLINE ? "deadline" : "period";
                timing_arg[ntiming_arg++] = a.val;
            }
        }
    }
    for (int i = a.ind; i < argc; i++)
        words[nwords++] = argv[i];
    sqlite3_auto_extension((void (*)(void))sqlite3_kevsql_init);
    // Which word is the query: the one that is not a file or directory.
    int query_first = 0;
    for (int i = 0; i < nwords; i++) {
        if (!o.query && !is_trace(words[i])) {
            o.query = words[i];
            query_first = i == 0;
        } else {
            o.traces[o.ntraces++] = words[i];
        }
    }
    if (!o.ntraces) {
        return tool_usage_error(&cmd, "no trace given%s%s", o.query ? " (no such file: " : "",
                                o.query ? "the query?)" : "");
    }
    struct stat sb;
    if (o.ntraces > 1 || many || (query_first && o.query) ||
        (stat(o.traces[0], &sb) == 0 && S_ISDIR(sb.st_mode))) {
        if (!o.query) {
            fprintf(stderr, "kevsql: many traces need a query\n");
            return 2;
        }
        if (o.check && o.merge) {
            fprintf(stderr, "kevsql: --check takes the merge's rows\n");
        }
        return ksq_fleet(&o);
    }
    if (!o.query)
        return shell(o.traces[0]);
    sqlite3 *db = ksq_open(o.traces[0], o.lenient, "kevsql");
    if (!db)
        return 1;
    long rows = ksq_print(db, o.query, &o, "kevsql");
    int damaged = o.lenient && say_damage(db, o.traces[0], "kevsql");
    sqlite3_close(db);
    if (rows < 0 || damaged)
        return 1;
    return o.check && rows > 0 ? 1 : 0;
}
