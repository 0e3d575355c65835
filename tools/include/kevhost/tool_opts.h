// SPDX-License-Identifier: MIT
// The host tools' one option loop (tools/common/tool_opts.c): a tool describes its options in
// one table, and the same table gives getopt_long its names and --help its lines, so an option
// and its help cannot drift apart. Every tool answers a bad option alike: the option named, a
// pointer to --help, exit status 2.
#ifndef KEVHOST_TOOL_OPTS_H
#define KEVHOST_TOOL_OPTS_H

#include <stdio.h>

// One option: what tool_opts_next returns for it (id: its short letter, or a value from
// TOOL_OPT_LONG up for a long-only option), its names, the name of its value in --help (NULL:
// a flag), and its help text (lines after the first start with "\n"). A row with only `also`
// set splices in another table (the symbol options every trace reader takes, tool_syms.h).
// A table ends with a row of zeros.
struct tool_opt {
    int id;
    char shrt;                      // -o, or 0
    const char *lng;                // "output" for --output, or NULL
    const char *arg;                // "FILE", or NULL
    const char *help;
    const struct tool_opt *also;
};

#define TOOL_OPT_LONG 256           // ids of long-only options start here
#define TOOL_OPT_HELP_WIDTH 18      // --help's option column

// A tool: its name, its synopsis (after "usage: NAME "), what it does (printed after the
// usage line), its options (-h/--help is added), and what follows them (exit status).
struct tool_cmd {
    const char *name;
    const char *synopsis;
    const char *about;
    const struct tool_opt *opts;
    const char *tail;
};

// The loop's state: after the loop, argv[ind..argc) are the operands (getopt_long moves them
// after the options, so they may come anywhere on the command line).
struct tool_args {
    int argc;
    char **argv;
    int ind;
    const char *val;                // the value of the option just returned
};

enum {
    TOOL_OPTS_END = -1,             // no more options: the operands are argv[ind..]
    TOOL_OPTS_EXIT_OK = -2,         // --help was printed: exit 0
    TOOL_OPTS_EXIT_BAD = -3,        // a bad option was reported: exit 2
};

// tool_opts_next: the next option's id (its value in a->val), or TOOL_OPTS_END, or one of the
// exits. A bad option ("unknown option --x", "-o needs a value") is said on stderr with a
// pointer to --help. Not reentrant (getopt_long's state): one loop per process at a time.
int tool_opts_next(const struct tool_cmd *c, struct tool_args *a);

// tool_opts_exit: the exit status of a loop that ended in one of the exits (0 or 2).
int tool_opts_exit(int r);

// tool_help: the usage line, about, every option of the table with its help, and tail.
void tool_help(const struct tool_cmd *c, FILE *f);

// tool_help_line: one option's --help line(s).
void tool_help_line(FILE *f, const struct tool_opt *o);

// tool_usage_error: "NAME: WHY" and the pointer to --help on stderr; returns 2, the exit
// status of bad usage.
int tool_usage_error(const struct tool_cmd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// tool_one_file: the one operand FILE; a missing or second one is a usage error (2), else 0.
int tool_one_file(const struct tool_cmd *c, const struct tool_args *a, const char **file);

#endif
