// SPDX-License-Identifier: MIT
// kevdump: the kernel's trace ring, read post mortem from a halted target through any GDB
// server (QEMU -s/-gdb, OpenOCD, J-Link GDB Server), written as a valid .kev: the buffers still
// in RAM oldest first (the open ones closed with a BUFFER_END of their own), and a trailer
// with the kernel's own loss counts (dropped, overwritten). Run the system with the ring as a
// flight recorder (tracelogger -r: it wraps without the logger until the end) and after a
// hang or a kernel fault the last buffers are there. The ring is found through the kernel's
// map (trace/kev_flight.h, symbol `kev_flight`), given by address or found by a scan; the
// map is checked whole before it is believed, and the ring read through it (flight_read.c).
// A map that cannot be believed is refused with a sentence naming its field (exit 1).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kevhost/gdb_remote.h>
#include <kevhost/tool_opts.h>
#include "flight_read.h"
#include "gdb_target.h"

static const struct tool_opt opts[] = {
    { 'g', 'g', NULL, "HOST:PORT",
      "the GDB server (QEMU -gdb tcp::PORT or -s: 1234; OpenOCD 3333;\n"
      "J-Link GDB Server 2331; unix:PATH for QEMU's -gdb unix:PATH); the target is\n"
      "halted while it reads", NULL },
    { 'a', 'a', NULL, "ADDR", "the kernel's map of the ring: `nm IMAGE.elf | grep kev_flight`", NULL },
    { 's', 's', NULL, "START:LEN", "or scan this range for it (the kernel image's)", NULL },
    { 'c', 'c', NULL, "HZ",
      "the cycle counter's rate (the kernel's boot line says it;\n"
      "default 25000000)", NULL },
    { 'o', 'o', NULL, "FILE", "output (default dump.kev)", NULL },
    { 'q', 'q', NULL, NULL, "no summary", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevdump", "-g HOST:PORT (-a ADDR | -s START:LEN) [-c HZ] [-o OUT.kev] [-q]",
    "Reads the kernel's trace ring from a halted target through a GDB server and\n"
    "writes the buffers it holds as a .kev (run with tracelogger -r: a flight\n"
    "recorder), with the kernel's loss counts in its trailer.\n",
    opts, "Exit status: 0 written, 1 error, 2 usage.\n",
};

// The map by its magic in [start, start + len): its address, 0 when none, -1 on a gdb error.
static long long find_map(struct gdbr *g, uint64_t start, uint64_t len)
{
    static uint8_t buf[4096 + 16];
    for (uint64_t off = 0; off < len; off += 4096) {
        uint64_t n = len - off < sizeof(buf) ? len - off : sizeof(buf);
        if (gdbr_read(g, start + off, buf, (size_t)n) < 0)
            return -1;
        for (uint64_t i = 0; i + 8 <= n; i += 4)
            if (memcmp(buf + i, KEV_FLIGHT_MAGIC, sizeof(KEV_FLIGHT_MAGIC)) == 0)
                return (long long)(start + off + i);
    }
    return 0;
}

// The command line into tg, out_name, hz and quiet: -1 to go on, else the exit status.
static int parse_args(int argc, char **argv, struct gdb_target *tg, const char **out_name,
                      unsigned long long *hz, int *quiet)
{
    struct tool_args ta = { argc, argv, 0, NULL };
    int opt, bad;
    while ((opt = tool_opts_next(&cmd, &ta)) != TOOL_OPTS_END) {
        char *end;
        switch (opt) {
        case 'g': case 'a': case 's':
            if ((bad = gdb_target_opt(&cmd, tg, opt, ta.val, "the map's address")))
                return bad;
            break;
        case 'c':
            *hz = strtoull(ta.val, &end, 0);
            if (*end || !*hz)
                return tool_usage_error(&cmd, "bad -c %s: give the rate in Hz", ta.val);
            break;
        case 'o': *out_name = ta.val; break;
        case 'q': *quiet = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    return (bad = gdb_target_done(&cmd, tg, &ta)) ? bad : -1;
}

// The halted target's ring into x through the GDB server tg names (the map at -a's address,
// or found by -s's scan); the target let run after. 0, or 1 after saying why not.
static int read_target(const struct gdb_target *tg, struct dump *x)
{
    static struct gdbr g;
    struct kev_mem mem = gdbr_mem(&g);
    unsigned long long map_addr = tg->addr;
    int r = -1;
    if (gdbr_connect(&g, tg->server, GDBR_WAIT_MS) < 0 || gdbr_halt(&g) < 0)
        goto done;
    if (!map_addr) {
        long long a = find_map(&g, tg->scan_start, tg->scan_len);
        if (a == 0) {
            snprintf(x->why, sizeof(x->why), "no kernel flight-recorder map (%s) in "
                     "0x%llx+0x%llx", KEV_FLIGHT_MAGIC, tg->scan_start, tg->scan_len);
            r = -2;
        }
        if (a <= 0)
            goto done;
        map_addr = (unsigned long long)a;
    }
    r = flight_read(&mem, map_addr, x);
done:
    if (r == -1)
        fprintf(stderr, "kevdump: %s\n", g.err[0] ? g.err : strerror(errno));
    else if (r == -2)
        fprintf(stderr, "kevdump: %s\n", x->why);
    gdbr_close(&g);     // the target runs on (or stays hung) without us
    return r < 0;
}

int main(int argc, char **argv)
{
    const char *out_name = "dump.kev";
    struct gdb_target tg = { 0 };
    unsigned long long hz = 25000000;
    int quiet = 0;
    int bad = parse_args(argc, argv, &tg, &out_name, &hz, &quiet);
    if (bad >= 0)
        return bad;
    static struct dump x;
    x.note = stderr;
    if (read_target(&tg, &x))
        return 1;
    flight_pick(&x);
    if (!x.d) {
        fprintf(stderr, "kevdump: out of memory for the table of %u buffers\n", x.nbufs);
        return 1;
    }
    if (x.damaged)
        fprintf(stderr, "kevdump: %u buffers were not what the ring's table said: left out "
                "(the last: %s)\n", x.damaged, x.why);

    FILE *out = fopen(out_name, "wb");
    if (!out) {
        fprintf(stderr, "kevdump: cannot create %s: %s\n", out_name, strerror(errno));
        return 1;
    }
    uint64_t events = 0;
    int werr = flight_write(out, out_name, &x, hz, &events);
    if (fclose(out) != 0 || werr) {
        if (werr == -2)
            remove(out_name);
        else
            fprintf(stderr, "kevdump: writing %s failed\n", out_name);
        return 1;
    }
    if (!quiet)
        printf("kevdump: %llu events in %u buffers (seq %lu-%lu) written to %s; %llu events "
               "lost (dropped or overwritten%s)\n", (unsigned long long)events, x.nd,
               x.nd ? (unsigned long)x.d[0].seq : 0ul, x.nd ? (unsigned long)x.d[x.nd - 1].seq : 0ul,
               out_name, (unsigned long long)x.lost,
               x.skipped ? ", or in a buffer left out: see above" : "");
    flight_free(&x);
    return 0;
}
