// SPDX-License-Identifier: MIT
// kevdump: the kernel's trace ring, read post mortem from a halted target through any GDB
// server (QEMU -s/-gdb, OpenOCD, J-Link GDB Server), written as a valid .kev: the buffers still
// in RAM oldest first (the open ones closed with a BUFFER_END of their own), and a trailer
// with the kernel's own loss counts (dropped, overwritten). Run the system with the ring as a
// flight recorder (tracelogger -r: it wraps without the logger until the end) and after a
// hang or a kernel fault the last buffers are there. The ring is found through the kernel's
// map (trace/kev_flight.h, symbol `kev_flight`), given by address or found by a scan; the
// map is checked whole before it is believed, and the ring read through it (flight_read.c).
// A map that cannot be believed is refused with a sentence naming its field (exit 1). With -I
// it reads the incident record a D trigger left instead (kevdump_incident.c).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kevhost/gdb_remote.h>
#include <kevhost/tool_opts.h>
#include <trace/kev_incident.h>
#include "flight_read.h"
#include "gdb_target.h"
#include "kevdump_incident.h"

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
    { 'o', 'o', NULL, "FILE", "output (default dump.kev; with -I the files' name, default\n"
      "incident: incident.kev and incident.core)", NULL },
    { 'I', 'I', NULL, NULL,
      "the incident record a D trigger left (docs/incidents.md) instead of the ring:\n"
      "-a the kernel's map of it, `nm IMAGE.elf | grep kev_incident_map`", NULL },
    { 'q', 'q', NULL, NULL, "no summary", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevdump", "-g HOST:PORT (-a ADDR | -s START:LEN) [-c HZ] [-o OUT.kev] [-I] [-q]",
    "Reads the kernel's trace ring from a halted target through a GDB server and\n"
    "writes the buffers it holds as a .kev (run with tracelogger -r: a flight\n"
    "recorder), with the kernel's loss counts in its trailer. With -I, the incident\n"
    "record a D trigger left instead, as OUT.kev and OUT.core (a core file for gdb).\n",
    opts, "Exit status: 0 written, 1 error, 2 usage.\n",
};

// What the command line asks for.
struct args {
    struct gdb_target tg;
    const char *out_name;
    unsigned long long hz;
    int quiet, incident;
};

// The command line into a: -1 to go on, else the exit status.
static int parse_args(int argc, char **argv, struct args *a)
{
    struct tool_args ta = { argc, argv, 0, NULL };
    int opt, bad;
    while ((opt = tool_opts_next(&cmd, &ta)) != TOOL_OPTS_END) {
        char *end;
        switch (opt) {
        case 'g': case 'a': case 's':
            if ((bad = gdb_target_opt(&cmd, &a->tg, opt, ta.val, "the map's address")))
                return bad;
            break;
        case 'c':
            a->hz = strtoull(ta.val, &end, 0);
            if (*end || !a->hz)
                return tool_usage_error(&cmd, "bad -c %s: give the rate in Hz", ta.val);
            break;
        case 'o': a->out_name = ta.val; break;
        case 'I': a->incident = 1; break;
        case 'q': a->quiet = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    return (bad = gdb_target_done(&cmd, &a->tg, &ta)) ? bad : -1;
}

// The halted target's ring into x through g (connected, the target halted): the map at -a's
// address, or found by -s's scan. g closed after (the target runs on, or stays hung, without
// us). 0, or 1 after saying why not.
static int read_ring(struct gdbr *g, const struct gdb_target *tg, struct dump *x)
{
    struct kev_mem mem = gdbr_mem(g);
    long long a = tg->addr ? (long long)tg->addr
                           : gdb_target_scan(g, tg->scan_start, tg->scan_len, KEV_FLIGHT_MAGIC,
                                             sizeof(KEV_FLIGHT_MAGIC));
    int r = -1;
    if (a == 0) {
        snprintf(x->why, sizeof(x->why), "no kernel flight-recorder map (%s) in 0x%llx+0x%llx",
                 KEV_FLIGHT_MAGIC, tg->scan_start, tg->scan_len);
        r = -2;
    } else if (a > 0) {
        r = flight_read(&mem, (uint64_t)a, x);
    }
    if (r == -1)
        fprintf(stderr, "kevdump: %s\n", g->err[0] ? g->err : strerror(errno));
    else if (r == -2)
        fprintf(stderr, "kevdump: %s\n", x->why);
    gdbr_close(g);
    return r < 0;
}

// -I: the incident record (kevdump_incident.c) through g, connected and halted: its map at -a or
// found by -s, written to name.kev and name.core. g closed after. The exit status.
static int incident_main(struct gdbr *g, const struct gdb_target *tg, const char *name, int quiet)
{
    long long a = tg->addr ? (long long)tg->addr
                           : gdb_target_scan(g, tg->scan_start, tg->scan_len, KEV_INC_MAP_MAGIC,
                                             sizeof(KEV_INC_MAP_MAGIC));
    if (a == 0)
        fprintf(stderr, "kevdump: no kernel incident map (%s) in 0x%llx+0x%llx\n",
                KEV_INC_MAP_MAGIC, tg->scan_start, tg->scan_len);
    int r = a > 0 ? kevdump_incident(g, (uint64_t)a, name, quiet) : a < 0 ? -1 : -2;
    if (r == -1)
        fprintf(stderr, "kevdump: %s\n", g->err[0] ? g->err : strerror(errno));
    gdbr_close(g);
    return r < 0;
}

// The ring read (x, its buffers picked) as out_name, and the summary unless quiet. The exit
// status.
static int write_dump(struct dump *x, const char *out_name, unsigned long long hz, int quiet)
{
    FILE *out = fopen(out_name, "wb");
    if (!out) {
        fprintf(stderr, "kevdump: cannot create %s: %s\n", out_name, strerror(errno));
        return 1;
    }
    uint64_t events = 0;
    int werr = flight_write(out, out_name, x, hz, &events);
    if (fclose(out) != 0 || werr) {
        if (werr == -2)
            remove(out_name);
        else
            fprintf(stderr, "kevdump: writing %s failed\n", out_name);
        return 1;
    }
    if (!quiet)
        printf("kevdump: %llu events in %u buffers (seq %lu-%lu) written to %s; %llu events "
               "lost (dropped or overwritten%s)\n", (unsigned long long)events, x->nd,
               x->nd ? (unsigned long)x->d[0].seq : 0ul,
               x->nd ? (unsigned long)x->d[x->nd - 1].seq : 0ul, out_name,
               (unsigned long long)x->lost,
               x->skipped ? ", or in a buffer left out: see above" : "");
    return 0;
}

int main(int argc, char **argv)
{
    struct args a = { { 0 }, "dump.kev", 25000000, 0, 0 };
    int bad = parse_args(argc, argv, &a);
    if (bad >= 0)
        return bad;
    static struct gdbr g;
    if (gdbr_connect(&g, a.tg.server, GDBR_WAIT_MS) < 0 || gdbr_halt(&g) < 0) {
        fprintf(stderr, "kevdump: %s\n", g.err[0] ? g.err : strerror(errno));
        gdbr_close(&g);
        return 1;
    }
    if (a.incident)
        return incident_main(&g, &a.tg, strcmp(a.out_name, "dump.kev") ? a.out_name
                                                                        : "incident", a.quiet);
    static struct dump x;
    x.note = stderr;
    if (read_ring(&g, &a.tg, &x))
        return 1;
    flight_pick(&x);
    if (!x.d) {
        fprintf(stderr, "kevdump: out of memory for the table of %u buffers\n", x.nbufs);
        return 1;
    }
    if (x.damaged)
        fprintf(stderr, "kevdump: %u buffers were not what the ring's table said: left out "
                "(the last: %s)\n", x.damaged, x.why);
    int r = write_dump(&x, a.out_name, a.hz, a.quiet);
    flight_free(&x);
    return r;
}
