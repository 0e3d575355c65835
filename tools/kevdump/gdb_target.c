// SPDX-License-Identifier: MIT
// The GDB server and target address options kevdump and kevrtt share (gdb_target.h).
#include "gdb_target.h"
#include <kevhost/gdb_remote.h>
#include <stdlib.h>
#include <string.h>

int gdb_target_opt(const struct tool_cmd *c, struct gdb_target *t, int opt, const char *val,
                   const char *what)
{
    char *end;
    switch (opt) {
    case 'g':
        t->server = val;
        return 0;
    case 'a':
        t->addr = strtoull(val, &end, 0);
        if (*end || !t->addr)
            return tool_usage_error(c, "bad -a %s: give %s", val, what);
        return 0;
    default:    // 's'
        t->scan_start = strtoull(val, &end, 0);
        if (*end != ':' || !(t->scan_len = strtoull(end + 1, &end, 0)) || *end)
            return tool_usage_error(c, "bad -s %s: give START:LEN", val);
        return 0;
    }
}

int gdb_target_done(const struct tool_cmd *c, const struct gdb_target *t,
                    const struct tool_args *a)
{
    if (!t->server)
        return tool_usage_error(c, "-g HOST:PORT is required");
    if (a->ind != a->argc)
        return tool_usage_error(c, "%s: no operand is taken", a->argv[a->ind]);
    if (!t->addr && !t->scan_len)
        return tool_usage_error(c, "-a ADDR or -s START:LEN is required");
    return 0;
}

long long gdb_target_scan(struct gdbr *g, uint64_t start, uint64_t len, const char *magic,
                          size_t n)
{
    static uint8_t buf[4096 + 16];
    for (uint64_t off = 0; off < len; off += 4096) {
        uint64_t k = len - off < sizeof(buf) ? len - off : sizeof(buf);
        if (gdbr_read(g, start + off, buf, (size_t)k) < 0)
            return -1;
        for (uint64_t i = 0; i + n <= k; i += 4)
            if (memcmp(buf + i, magic, n) == 0)
                return (long long)(start + off + i);
    }
    return 0;
}
