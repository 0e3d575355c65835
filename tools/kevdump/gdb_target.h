// SPDX-License-Identifier: MIT
// The options of a tool that reads a target's memory through a GDB server (kevdump, kevrtt):
// -g the server, -a the address of what it reads, -s START:LEN a RAM range to scan for it.
// One parse and one set of messages for both.
#ifndef TOOLS_GDB_TARGET_H
#define TOOLS_GDB_TARGET_H

#include <kevhost/tool_opts.h>
#include <stddef.h>
#include <stdint.h>

struct gdb_target {
    const char *server;             // -g: HOST:PORT, PORT or unix:PATH (gdbr_connect)
    unsigned long long addr;        // -a, or 0
    unsigned long long scan_start;  // -s START:LEN, or a zero length
    unsigned long long scan_len;
};

// opt ('g', 'a' or 's') and its value into t: 0, or 2 after the usage error (a bad address or
// range). what names the address in that error ("the map's address").
int gdb_target_opt(const struct tool_cmd *c, struct gdb_target *t, int opt, const char *val,
                   const char *what);
// After the option loop: -g given, -a or -s given, no operand left. 0, or 2 after the error.
int gdb_target_done(const struct tool_cmd *c, const struct gdb_target *t,
                    const struct tool_args *a);

// The first address in [start, start + len) where the target's memory holds magic (n bytes,
// 4-byte aligned): a kernel's map found by its magic. 0 none, -1 a gdb error.
struct gdbr;
long long gdb_target_scan(struct gdbr *g, uint64_t start, uint64_t len, const char *magic,
                          size_t n);

#endif
