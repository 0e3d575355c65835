// SPDX-License-Identifier: MIT
// A halted target's trace ring read through its flight recorder's map (flight_read.h). The
// order of belief: the map is checked whole (kev_flight_refused: every offset inside the entry
// or structure it indexes, which are fetched whole); the ring's words are then checked before
// they index or size anything (the buffer count against the map's room, the buffers' address
// range, the CPUs-online count); each buffer's table entry and first slot before it is written
// out. Nothing is read outside the buffers fetched: their sizes are what the checks bound.
#include "flight_read.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <kevhost/kev_ring_desc.h>
#include <trace/kev_bytes.h>
#include <trace/kev_file.h>

// The ring's words: its buffers' count and address, and the CPUs online (at x->m.ncpus_addr).
static int ring_words(const struct kev_mem *mem, struct dump *x)
{
    const struct kev_flight *m = &x->m;
    uint8_t ncb[4];
    if (mem->read(mem->ctx, m->ncpus_addr, ncb, 4) < 0)
        return -1;
    x->mem = kev_get_le(x->ring + m->off_mem, m->ptr_bytes);
    x->nbufs = kev_get_le32(x->ring + m->off_nbufs);
    x->ncpus = kev_get_le32(ncb);
    if (!x->nbufs && !x->mem) {
        snprintf(x->why, sizeof(x->why), "the kernel has no trace buffers allocated (no "
                 "capture ran)");
        return -2;
    }
    if (!x->nbufs || x->nbufs > m->max_bufs) {
        snprintf(x->why, sizeof(x->why), "the ring says it has %u buffers, where its map has "
                 "room for 1 to %u (max_bufs): the ring's words are damaged", x->nbufs,
                 m->max_bufs);
        return -2;
    }
    uint64_t end = x->mem + (uint64_t)x->nbufs * KEV_BUF_BYTES;
    uint64_t top = m->ptr_bytes == 8 ? UINT64_MAX : UINT32_MAX;
    if (!x->mem || end < x->mem || end - 1 > top) {
        snprintf(x->why, sizeof(x->why), "the ring says its %u buffers are at 0x%llx, which %s: "
                 "the ring's words are damaged", x->nbufs, (unsigned long long)x->mem,
                 x->mem ? "runs past the end of the target's addresses" : "is no address");
        return -2;
    }
    if (x->ncpus == 0 || x->ncpus > m->max_cpus) {
        fprintf(x->note, "kevdump: the count of CPUs online at 0x%llx is %u, not 1 to %u (the "
                "map's max_cpus): all %u CPUs' words are read\n",
                (unsigned long long)m->ncpus_addr, x->ncpus, m->max_cpus, m->max_cpus);
        x->ncpus = m->max_cpus;
    }
    return 0;
}

int flight_read(const struct kev_mem *mem, uint64_t map_addr, struct dump *x)
{
    uint8_t mb[KEV_FLIGHT_READ_BYTES];
    if (mem->read(mem->ctx, map_addr, mb, sizeof(mb)) < 0)
        return -1;
    const char *bad = kev_flight_refused(mb, sizeof(mb), &x->m);
    if (bad) {
        snprintf(x->why, sizeof(x->why), "no valid flight-recorder map at 0x%llx: %s",
                 (unsigned long long)map_addr, bad);
        return -2;
    }
    x->ring_bytes = kev_flight_ring_bytes(&x->m);
    x->ring = malloc(x->ring_bytes);
    if (!x->ring) {
        snprintf(x->why, sizeof(x->why), "no memory for the ring's %zu bytes", x->ring_bytes);
        return -2;
    }
    if (mem->read(mem->ctx, x->m.ring, x->ring, x->ring_bytes) < 0)
        return -1;
    int r = ring_words(mem, x);
    if (r < 0)
        return r;
    x->map = kev_ring_map_flight(&x->m, x->nbufs);
    x->slots = malloc((size_t)x->nbufs * KEV_BUF_BYTES);
    if (!x->slots) {
        snprintf(x->why, sizeof(x->why), "no memory for the ring's %u buffers", x->nbufs);
        return -2;
    }
    return mem->read(mem->ctx, x->mem, x->slots, (size_t)x->nbufs * KEV_BUF_BYTES) < 0 ? -1 : 0;
}

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

// Each CPU's words: its open buffer, its write pointer (busy: holding the busy mark, the CPU's
// own struct trace_cpu address, trace_ring.h) and its loss counts.
struct cpu_words {
    int32_t cur[KEV_MAX_CPUS];
    uint64_t wp[KEV_MAX_CPUS];
    int busy[KEV_MAX_CPUS];
};

static void read_cpus(struct dump *x, struct cpu_words *cw)
{
    const struct kev_ring_map *m = &x->map;
    for (unsigned c = 0; c < x->ncpus; c++) {
        const uint8_t *cp = x->ring + x->m.off_cpu + (size_t)c * m->cpu_stride;
        cw->cur[c] = (int32_t)kev_get_le32(cp + m->off_cur);
        cw->wp[c] = kev_get_le(cp + m->off_wp, m->ptr_bytes);
        cw->busy[c] = cw->wp[c] == x->m.ring + x->m.off_cpu + (uint64_t)c * m->cpu_stride;
        x->lost_cpu[c] = kev_get_le64(cp + m->off_dropped) +
                         kev_get_le64(cp + m->off_overwritten);
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
        fprintf(x->note, "kevdump: CPU %u was halted inside an event write (its write "
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

// Buffer b (table state `state`, slots s) holds what the table says: 1; else 0, counted and
// its story kept. A FILLING buffer whose first slot is not yet its BUFFER is one the halt
// caught being started: left out, no damage.
static int buffer_holds(struct dump *x, const struct dumped *b, unsigned state,
                        const struct kev_slot *s)
{
    static const char *const names[] = { "FREE", "FILLING", "FULL", "LOGGER" };
    int starts = kev_hdr_class(s[0].header) == KEV_C_CONTROL &&
                 kev_hdr_event(s[0].header) == KEV_CTL_BUFFER;
    unsigned most = KEV_BUF_SLOTS - (b->open ? 1u : 0u);
    if (starts && b->nslots >= 1 && b->nslots <= most)
        return 1;
    if (state == TRACE_BUF_FILLING && (!starts || !b->nslots))
        return 0;       // (or no CPU's write pointer in it: the halt caught a switch)
    x->damaged++;
    if (!starts)
        snprintf(x->why, sizeof(x->why), "buffer %u (seq %u, %s) does not start with its "
                 "BUFFER slot", b->idx, b->seq, names[state]);
    else
        snprintf(x->why, sizeof(x->why), "buffer %u (seq %u, %s) %s %u slots, where a buffer "
                 "holds 1 to %u", b->idx, b->seq, names[state],
                 b->open ? "reaches its CPU's write pointer after" : "says it holds",
                 b->nslots, most);
    return 0;
}

// A table entry whose state the kernel never writes (a debugger's, or memory gone bad).
static void odd_states(struct dump *x, const uint8_t *table)
{
    for (unsigned i = 0; i < x->nbufs; i++) {
        const uint8_t *e = kev_ring_entry(&x->map, table, i);
        unsigned st = kev_ring_state(&x->map, e);
        if (st >= TRACE_BUF_NSTATES) {
            x->damaged++;
            snprintf(x->why, sizeof(x->why), "buffer %u (seq %u) is in state %u, which the "
                     "kernel never writes", i, kev_ring_seq(&x->map, e), st);
        }
    }
}

void flight_pick(struct dump *x)
{
    const struct kev_ring_map *m = &x->map;
    const uint8_t *table = x->ring + x->m.off_buf;
    static struct cpu_words cw;
    unsigned order[KEV_FLIGHT_MAX_BUFS];
    memset(&cw, 0, sizeof(cw));
    read_cpus(x, &cw);
    odd_states(x, table);
    x->d = calloc(x->nbufs, sizeof(*x->d));
    if (!x->d)
        return;
    unsigned n = kev_ring_walk(m, table, 0, order);
    for (unsigned k = 0; k < n; k++) {
        const uint8_t *e = kev_ring_entry(m, table, order[k]);
        unsigned state = kev_ring_state(m, e);
        struct dumped b = { order[k], kev_ring_seq(m, e), 0, 0, 0 };
        const struct kev_slot *s = x->slots + (size_t)b.idx * KEV_BUF_SLOTS;
        if (state != TRACE_BUF_FILLING)     // FULL, LOGGER
            b.nslots = kev_ring_nslots(m, e);
        else if (!open_extent(x, &cw, s, &b))
            continue;
        if (!buffer_holds(x, &b, state, s))
            continue;
        b.cpu = kev_hdr_cpu(s[0].header);
        x->d[x->nd++] = b;
    }
}

// The file's header and a system page with what a halted ring tells: the CPUs and the
// counter's rate (no process names: the trace's own events carry what it has; no boot date,
// node, release or machine). 0; -1 when a write failed; -2 after saying why the header could
// not be made.
static int write_head(FILE *out, const char *out_name, const struct dump *x,
                      unsigned long long hz)
{
    static uint8_t head[4096], page[8192];     // (the page: 64 CPUs at the most)
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
        fprintf(x->note, "kevdump: cannot write %s's header%s%s: %s\n", out_name,
                bad->ko_key[0] ? " at TRACE_" : "", bad->ko_key, bad->ko_why);
        return -2;
    }
    return fwrite(head, 1, h.ko_len, out) != h.ko_len ||
           fwrite(page, 1, sp.ko_len, out) != sp.ko_len ? -1 : 0;
}

// The picked buffers in sequence, an open one closed as the ring would close it (BUFFER_END at
// its last slot's time), then a loss note and the trailer. 0, or -1 when a write failed.
static int write_events(FILE *out, const struct dump *x, uint64_t *events)
{
    static uint8_t tail[4096];
    struct kev_cpu_totals tot[KEV_MAX_CPUS];
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

int flight_write(FILE *out, const char *out_name, const struct dump *x, unsigned long long hz,
                 uint64_t *events)
{
    int r = write_head(out, out_name, x, hz);
    return r == -2 ? r : r | write_events(out, x, events);
}

void flight_free(struct dump *x)
{
    free(x->ring);
    free(x->slots);
    free(x->d);
}
