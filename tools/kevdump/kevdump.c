// SPDX-License-Identifier: MIT
// kevdump: the kernel's trace ring, read post mortem from a halted target through any GDB
// server (QEMU -s/-gdb, OpenOCD, J-Link GDB Server), written as a valid .kev: the buffers still
// in RAM oldest first (the open ones closed with a BUFFER_END of their own), and a trailer
// with the kernel's own loss counts (dropped, overwritten). Run the system with the ring as a
// flight recorder (tracelogger -r: it wraps without the logger until the end) and after a
// hang or a kernel fault the last buffers are there. The ring is found through the kernel's
// map (trace/kev_flight.h, symbol `kev_flight`), given by address or found by a scan, and its
// buffers are read through the one ring map and walker every such reader shares
// (trace/kev_ring_map.h).
#include <kevhost/gdb_remote.h>
#include "gdb_target.h"
#include "kevdump_incident.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <trace/kev.h>
#include <trace/kev_file.h>
#include <trace/kev_flight.h>
#include <trace/kev_incident.h>
#include <trace/kev_ring_map.h>
#include <kevhost/tool_opts.h>

#define MAX_CPUS 64u
#define MAX_BUFS 1024u

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

// The map, field by field in the order of trace/kev_flight.h (the host's struct holds the
// values; its layout is not the target's).
static int parse_map(const uint8_t *b, struct kev_flight *m)
{
    if (memcmp(b, KEV_FLIGHT_MAGIC, sizeof(KEV_FLIGHT_MAGIC)) != 0)
        return -1;
    uint32_t *f = &m->version;
    for (size_t i = 0; i < KEV_FLIGHT_U32S; i++)
        f[i] = kev_ring_le(b + 8 + 4 * i, 4);
    if (m->version != KEV_FLIGHT_VERSION || (m->ptr_bytes != 4 && m->ptr_bytes != 8))
        return -1;
    m->ring = (uintptr_t)kev_ring_ptr(b + KEV_FLIGHT_ADDRS, m->ptr_bytes);
    m->ncpus_addr = (uintptr_t)kev_ring_ptr(b + KEV_FLIGHT_ADDRS + m->ptr_bytes, m->ptr_bytes);
    return 0;
}

struct dumped {
    uint32_t idx, seq, nslots, cpu;
    int open;           // the CPU's current buffer: no BUFFER_END yet
};

// Events in slots (control slots and the continuation slots of combined events excluded).
static uint64_t count_events(const struct kev_slot *s, unsigned n)
{
    uint64_t e = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned t = kev_hdr_type(s[i].header);
        if (kev_hdr_class(s[i].header) != KEV_C_CONTROL && (t == KEV_TYPE_S || t == KEV_TYPE_CB))
            e++;
    }
    return e;
}

// How far CPU cpu's open buffer s holds its events when its write pointer cannot say (the
// CPU was halted inside an event write: the pointer holds the busy mark, docs/smp.md
// "Tracing"): the slots from the BUFFER slot on while each is the CPU's, each event no older
// than the one before it, and each combined event whole. Slots past the last write are the
// buffer's earlier use (older) or never written; the last one is the reserved BUFFER_END's.
static unsigned scan_open(const struct kev_slot *s, unsigned cpu)
{
    uint32_t t = s[0].data[0];
    unsigned i = 1, start = 1, in_combined = 0;
    for (; i < KEV_BUF_SLOTS - 1; i++) {
        uint32_t h = s[i].header;
        unsigned ty = kev_hdr_type(h);
        if (kev_hdr_cpu(h) != cpu || (!h && !s[i].data[0] && !s[i].data[1] && !s[i].data[2]))
            break;
        if (ty == KEV_TYPE_S || ty == KEV_TYPE_CB) {
            if (in_combined || (int32_t)(s[i].data[0] - t) < 0)
                break;
            t = s[i].data[0];
            start = i;
            in_combined = ty == KEV_TYPE_CB;
        } else if (!in_combined) {
            break;
        } else {
            in_combined = ty == KEV_TYPE_CC;
        }
    }
    return in_combined ? start : i;     // a combined event cut short: not kept
}

// What the halted target's memory gave: the map, the ring's control structure, its buffers,
// and which of them hold events (pick_buffers), with what was lost.
struct dump {
    struct kev_flight m;
    struct kev_ring_map map;    // its buffers' table and CPUs, once nbufs is known
    uint8_t *ring;              // the ring's control structure, as read
    struct kev_slot *slots;     // its nbufs buffers, as read
    uint64_t mem;               // their address on the target
    uint32_t nbufs, ncpus;
    struct dumped *d;           // the buffers to write, by sequence once sorted
    unsigned nd;
    uint64_t lost_cpu[MAX_CPUS], lost, skipped;
};

// read_ring: the map at map_addr, then the ring and its buffers, read through g. 0; -1 on a
// gdb error (in g->err, or errno); -2 after saying why.
static int read_ring(struct gdbr *g, unsigned long long map_addr, struct dump *x)
{
    uint8_t mb[KEV_FLIGHT_ADDRS + 16];
    struct kev_flight *m = &x->m;
    if (gdbr_read(g, map_addr, mb, sizeof(mb)) < 0)
        return -1;
    if (parse_map(mb, m) < 0 || (m->ptr_bytes != 4 && m->ptr_bytes != 8) || !m->max_cpus ||
        m->max_cpus > MAX_CPUS || !m->max_bufs || m->max_bufs > MAX_BUFS) {
        fprintf(stderr, "kevdump: no valid flight-recorder map at 0x%llx (another kernel, or "
                "another version of it?)\n", map_addr);
        return -2;
    }
    // The ring's control structure: its buffer table is its last member.
    size_t rsize = m->off_buf + (size_t)m->max_bufs * m->buf_stride;
    uint8_t ncb[4];
    x->ring = malloc(rsize);
    if (!x->ring || gdbr_read(g, m->ring, x->ring, rsize) < 0 ||
        gdbr_read(g, m->ncpus_addr, ncb, 4) < 0)
        return -1;
    x->mem = kev_ring_ptr(x->ring + m->off_mem, m->ptr_bytes);
    x->nbufs = kev_ring_le(x->ring + m->off_nbufs, 4);
    x->ncpus = kev_ring_le(ncb, 4);
    if (x->ncpus == 0 || x->ncpus > m->max_cpus)
        x->ncpus = 1;
    if (!x->mem || !x->nbufs || x->nbufs > m->max_bufs) {
        fprintf(stderr, "kevdump: the kernel has no trace buffers allocated (no capture ran)\n");
        return -2;
    }
    x->map = kev_ring_map_flight(m, x->nbufs);
    x->slots = malloc((size_t)x->nbufs * KEV_BUF_BYTES);
    if (!x->slots || gdbr_read(g, x->mem, x->slots, (size_t)x->nbufs * KEV_BUF_BYTES) < 0)
        return -1;
    return 0;
}

// Each CPU's words: its open buffer, its write pointer (busy: holding the busy mark, the CPU's
// own struct trace_cpu address, trace_ring.h) and its loss counts.
struct cpu_words {
    int32_t cur[MAX_CPUS];
    uint64_t wp[MAX_CPUS];
    int busy[MAX_CPUS];
};

static void read_cpus(struct dump *x, struct cpu_words *cw)
{
    const struct kev_ring_map *m = &x->map;
    for (unsigned c = 0; c < x->ncpus; c++) {
        const uint8_t *cp = x->ring + x->m.off_cpu + (size_t)c * m->cpu_stride;
        cw->cur[c] = (int32_t)kev_ring_le(cp + m->off_cur, 4);
        cw->wp[c] = kev_ring_ptr(cp + m->off_wp, m->ptr_bytes);
        cw->busy[c] = cw->wp[c] == x->m.ring + x->m.off_cpu + (uint64_t)c * m->cpu_stride;
        x->lost_cpu[c] = kev_ring_le64(cp + m->off_dropped) +
                         kev_ring_le64(cp + m->off_overwritten);
        x->lost += x->lost_cpu[c];
    }
}

// How far FILLING buffer b->idx (slots s) holds events: to its CPU's write pointer. 0 when that
// CPU was halted inside an event write: where the events end is not known for sure, so the
// buffer is left out, said, and its events counted lost (the trailer).
static int open_extent(struct dump *x, const struct cpu_words *cw, const struct kev_slot *s,
                       struct dumped *b)
{
    unsigned i = b->idx, c = kev_hdr_cpu(s[0].header);
    if (c < x->ncpus && cw->cur[c] == (int32_t)i && cw->busy[c] &&
        kev_hdr_class(s[0].header) == KEV_C_CONTROL &&
        kev_hdr_event(s[0].header) == KEV_CTL_BUFFER) {
        unsigned k = scan_open(s, c);
        uint64_t e = count_events(s, k);
        fprintf(stderr, "kevdump: CPU %u was halted inside an event write (its write "
                "pointer holds the busy mark): its open buffer (buffer %u, seq %u, "
                "about %u slots, %llu events) is left out and its events counted "
                "lost; the event being written is in no buffer\n", c, i, b->seq, k,
                (unsigned long long)e);
        x->lost_cpu[c] += e;
        x->lost += e;
        x->skipped += e;
        return 0;
    }
    for (c = 0; c < x->ncpus; c++)
        if (cw->cur[c] == (int32_t)i && !cw->busy[c] &&
            cw->wp[c] >= x->mem + (uint64_t)i * KEV_BUF_BYTES)
            b->nslots = (uint32_t)((cw->wp[c] - x->mem - (uint64_t)i * KEV_BUF_BYTES) /
                                   KEV_SLOT_BYTES);
    b->open = 1;
    return 1;
}

// pick_buffers: which buffers hold events, in sequence order (kev_ring_walk from 0: the
// sequences as numbers, as the kernel gives them out from boot): closed ones (FULL, or taken
// by the logger) with their slot count, and each CPU's open one up to its write pointer.
static void pick_buffers(struct dump *x)
{
    const struct kev_ring_map *m = &x->map;
    const uint8_t *table = x->ring + x->m.off_buf;
    static struct cpu_words cw;
    unsigned order[MAX_BUFS];
    read_cpus(x, &cw);
    x->d = calloc(x->nbufs, sizeof(*x->d));
    unsigned n = kev_ring_walk(m, table, 0, order);
    for (unsigned k = 0; k < n; k++) {
        const uint8_t *e = kev_ring_entry(m, table, order[k]);
        struct dumped b = { order[k], kev_ring_seq(m, e), 0, 0, 0 };
        const struct kev_slot *s = x->slots + (size_t)b.idx * KEV_BUF_SLOTS;
        if (kev_ring_state(m, e) != TRACE_BUF_FILLING)     // FULL, LOGGER
            b.nslots = kev_ring_nslots(m, e);
        else if (!open_extent(x, &cw, s, &b))
            continue;
        if (b.nslots > KEV_BUF_SLOTS - (b.open ? 1u : 0u) || b.nslots < 1 ||
            kev_hdr_class(s[0].header) != KEV_C_CONTROL ||
            kev_hdr_event(s[0].header) != KEV_CTL_BUFFER)
            continue;               // never used, or not a buffer this reader understands
        b.cpu = kev_hdr_cpu(s[0].header);
        x->d[x->nd++] = b;
    }
}

// write_head: the file's header and a system page with what a halted ring tells: the CPUs
// and the counter's rate (no process names: the trace's own events carry what it has; no
// boot date, node, release or machine). 0; -1 when a write failed; -2 after saying why the
// header could not be made.
static int write_head(FILE *out, const char *out_name, const struct dump *x,
                      unsigned long long hz)
{
    static uint8_t head[4096], page[1024];
    struct kev_out h, sp;
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof(date), "%a %b %d %H:%M:%S UTC %Y", gmtime(&now));
    kev_out_init(&sp, page, sizeof(page), kev_host_is_big_endian());
    struct kev_sp_machine mach = { x->m.ptr_bytes == 8 ? KEV_SP_QNX_AARCH64 : KEV_SP_QNX_ARM,
                                   x->ncpus, hz, 0, 0, "unknown", "unknown",
                                   x->m.ptr_bytes == 8 ? "aarch64le" : "armle" };
    kev_sp_begin(&sp, &mach);
    kev_sp_board(&sp, "unknown", 0, x->ncpus);
    size_t splen = kev_sp_end(&sp);
    kev_out_init(&h, head, sizeof(head), kev_host_is_big_endian());
    const struct kev_hdr_std std = {
        .hs_file_name = out_name, .hs_date = date, .hs_cycles_per_sec = hz,
        .hs_cpu_num = x->ncpus, .hs_sysname = "kev-microkernel", .hs_syspage_len = splen,
    };
    kev_hdr_standard(&h, &std);
    kev_hdr_item(&h, "KEVDUMP", "post-mortem read of the ring");
    kev_hdr_end(&h);
    if (h.ko_err || sp.ko_err) {
        const struct kev_out *bad = h.ko_err ? &h : &sp;
        fprintf(stderr, "kevdump: cannot write %s's header%s%s: %s\n", out_name,
                bad->ko_key[0] ? " at TRACE_" : "", bad->ko_key, bad->ko_why);
        return -2;
    }
    return fwrite(head, 1, h.ko_len, out) != h.ko_len ||
           fwrite(page, 1, sp.ko_len, out) != sp.ko_len ? -1 : 0;
}

// write_events: the picked buffers in sequence, an open one closed as the ring would close
// it (BUFFER_END at its last slot's time), then a loss note and the trailer. *events: how
// many were written. 0, or -1 when a write failed.
static int write_events(FILE *out, const struct dump *x, uint64_t *events)
{
    static uint8_t tail[4096];
    struct kev_cpu_totals tot[MAX_CPUS];
    memset(tot, 0, sizeof(tot));
    for (unsigned c = 0; c < x->ncpus; c++)
        tot[c].lost = x->lost_cpu[c];
    int werr = 0;
    uint32_t last_t = 0;        // the newest slot's time, for the loss note
    for (unsigned k = 0; k < x->nd; k++) {
        const struct dumped *b = &x->d[k];
        const struct kev_slot *s = x->slots + (size_t)b->idx * KEV_BUF_SLOTS;
        last_t = s[b->nslots - 1].data[0];
        uint64_t e = count_events(s, b->nslots);
        werr |= fwrite(s, KEV_SLOT_BYTES, b->nslots, out) != b->nslots;
        if (b->open) {
            struct kev_slot end = {
                KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, KEV_CTL_BUFFER_END, b->cpu),
                { s[b->nslots - 1].data[0], b->seq, (uint32_t)e } };
            werr |= fwrite(&end, sizeof(end), 1, out) != 1;
        }
        if (b->cpu < x->ncpus)
            tot[b->cpu].events += e;
        *events += e;
    }
    struct kev_out t;
    kev_out_init(&t, tail, sizeof(tail), kev_host_is_big_endian());
    if (x->lost)
        kev_loss_note(&t, last_t, x->lost);
    kev_trailer(&t, x->nd, KEV_TRL_RING, tot, x->ncpus);
    werr |= fwrite(tail, 1, t.ko_len, out) != t.ko_len;
    return werr || t.ko_err ? -1 : 0;
}

// write_dump: the picked buffers of x as out_name, and the summary unless quiet. The exit status.
static int write_dump(const struct dump *x, const char *out_name, unsigned long long hz, int quiet)
{
    FILE *out = fopen(out_name, "wb");
    if (!out) {
        fprintf(stderr, "kevdump: cannot create %s: %s\n", out_name, strerror(errno));
        return 1;
    }
    int werr = write_head(out, out_name, x, hz);
    if (werr == -2) {
        fclose(out);
        remove(out_name);
        return 1;
    }
    uint64_t events = 0;
    werr |= write_events(out, x, &events);
    if (fclose(out) != 0 || werr) {
        fprintf(stderr, "kevdump: writing %s failed\n", out_name);
        return 1;
    }
    if (!quiet)
        printf("kevdump: %llu events in %u buffers (seq %lu-%lu) written to %s; %llu events "
               "lost (dropped or overwritten%s)\n", (unsigned long long)events, x->nd,
               x->nd ? (unsigned long)x->d[0].seq : 0ul, x->nd ? (unsigned long)x->d[x->nd - 1].seq : 0ul,
               out_name, (unsigned long long)x->lost,
               x->skipped ? ", or in a buffer left out: see above" : "");
    return 0;
}

// -I: the incident record (kevdump_incident.c) through g, connected and halted: its map at -a or
// found by -s, written to name.kev and name.core. The exit status.
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

int main(int argc, char **argv)
{
    const char *out_name = "dump.kev";
    struct gdb_target tg = { 0 };
    unsigned long long hz = 25000000;
    int quiet = 0, incident = 0, opt, bad;
    struct tool_args ta = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &ta)) != TOOL_OPTS_END) {
        char *end;
        switch (opt) {
        case 'g': case 'a': case 's':
            if ((bad = gdb_target_opt(&cmd, &tg, opt, ta.val, "the map's address")))
                return bad;
            break;
        case 'c':
            hz = strtoull(ta.val, &end, 0);
            if (*end || !hz)
                return tool_usage_error(&cmd, "bad -c %s: give the rate in Hz", ta.val);
            break;
        case 'o': out_name = ta.val; break;
        case 'I': incident = 1; break;
        case 'q': quiet = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    if ((bad = gdb_target_done(&cmd, &tg, &ta)))
        return bad;
    unsigned long long map_addr = tg.addr;

    static struct gdbr g;
    static struct dump x;
    if (gdbr_connect(&g, tg.server, GDBR_WAIT_MS) < 0 || gdbr_halt(&g) < 0)
        goto gdb_error;
    if (incident)
        return incident_main(&g, &tg, strcmp(out_name, "dump.kev") ? out_name : "incident",
                             quiet);
    if (!map_addr) {
        long long a = gdb_target_scan(&g, tg.scan_start, tg.scan_len, KEV_FLIGHT_MAGIC,
                                      sizeof(KEV_FLIGHT_MAGIC));
        if (a <= 0) {
            if (a == 0)
                fprintf(stderr, "kevdump: no kernel flight-recorder map (%s) in 0x%llx+0x%llx\n",
                        KEV_FLIGHT_MAGIC, tg.scan_start, tg.scan_len);
            goto fail;
        }
        map_addr = (unsigned long long)a;
    }
    int r = read_ring(&g, map_addr, &x);
    if (r == -1)
        goto gdb_error;
    if (r < 0)
        goto fail;
    gdbr_close(&g);     // the target runs on (or stays hung) without us
    pick_buffers(&x);

    return write_dump(&x, out_name, hz, quiet);
gdb_error:
    fprintf(stderr, "kevdump: %s\n", g.err[0] ? g.err : strerror(errno));
fail:
    gdbr_close(&g);
    return 1;
}
