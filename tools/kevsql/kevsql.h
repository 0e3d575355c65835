// SPDX-License-Identifier: MIT
// The kevsql command's parts (kevsql.c: options, one trace, the output; kevsql_fleet.c: many
// traces in parallel processes, their union and the --merge query over it).
#ifndef TOOLS_KEVSQL_H
#define TOOLS_KEVSQL_H

#include <sqlite3.h>

enum ksq_format { KSQ_TABLE, KSQ_CSV, KSQ_JSON };

struct ksq_opts {
    enum ksq_format format;
    int check;              // exit 1 when the query returns a row
    int lenient;            // a damaged trace: its rows up to the damage, a warning, exit 1
    int jobs;               // processes for many traces
    const char *query;
    const char *merge;      // a query over the union (the table "result")
    const char **traces;    // files (directories expanded)
    int ntraces;
    int header;             // table and CSV: a header line
};

// A connection with the extension and the trace open (kev_open); NULL after saying why.
sqlite3 *ksq_open(const char *path, int lenient, const char *tool);
// Runs sql on db and prints every row in the format. Returns the rows printed, or -1 after
// printing the error (a damaged trace's rows come first).
long ksq_print(sqlite3 *db, const char *sql, const struct ksq_opts *o, const char *tool);
// Many traces: the query on each (o->jobs processes), one table with the trace and its
// metadata, or --merge's answer over it. The exit status.
int ksq_fleet(const struct ksq_opts *o);

// The extension's symbol options (ks_syms.c: syms_opts, --elf, --kernel, --symbols DIR,
// --no-symbols), kept for every trace the command opens: 1 one was, 0 not one, -1 said why.
int ks_syms_take(int id, const char *val);
// The extension's --deadline and --period (kx_timing_opts), kept for every trace the command
// opens (ks_trace.c): 1 one was, 0 not one, -1 said why.
int ks_timing_take(int id, const char *val);

#endif
