// SPDX-License-Identifier: MIT
// An incident record written out as a .kev (trace/kev_incident.h, docs/incidents.md), by the
// next boot's tracelogger and by kevdump over a probe alike, so that both files are the same
// bytes: the header (the standard items, then TRACE_INCIDENT naming the trigger), the system
// page (the board, the record's processes and threads, then its trigger and D sections as
// INCIDENT records, which dtrace -i reads back), the frozen buffers oldest first, and the
// trailer (each CPU's events and the ring's losses, plus the buffers the record had no room
// for). Streamed in two passes through the record (the page's length first, then the bytes),
// in a few KB of scratch: a board's logger runs it. Little-endian, as every board.
// Freestanding: no libc.
#include <trace/kev_incident.h>
#include <trace/kev_file.h>
#include <trace/kev_ident.h>
#include <trace/kev_digits.h>
#include <trace/kev.h>

// The scratch's parts.
#define HEAD_BYTES  640u    // the header (about 500 bytes), then the trailer (at most 416)
#define PAGE_BYTES  768u    // the first piece of the page: QNX's page (about 600 bytes on 8
                            // CPUs), the list's start, BOARD
#define REC_BYTES   320u    // one PROC or THREAD record, or an INCIDENT record's head
#define CHUNK_BYTES 320u    // body bytes read at a time (20 slots)
_Static_assert(HEAD_BYTES + PAGE_BYTES + REC_BYTES + CHUNK_BYTES <= KEV_INC_SCRATCH, "scratch");

// One pass: counting the bytes (count) or writing them.
struct pass {
    const struct kev_inc_io *io;
    int count, err;
    uint64_t n;
};

static void emit(struct pass *p, const void *b, size_t n)
{
    p->n += n;
    if (!p->count && !p->err && n && p->io->wr(p->io->wr_arg, b, n) < 0)
        p->err = 1;
}

// Body bytes [off, off + n) emitted, read through the scratch's chunk.
static void emit_body(struct pass *p, uint32_t off, uint32_t n)
{
    uint8_t *chunk = p->io->buf + HEAD_BYTES + PAGE_BYTES + REC_BYTES;
    if (p->count) {
        p->n += n;
        return;
    }
    while (n && !p->err) {
        uint32_t k = n < CHUNK_BYTES ? n : CHUNK_BYTES;
        if (p->io->rd(p->io->rd_arg, off, chunk, k) < 0) {
            p->err = 1;
            return;
        }
        emit(p, chunk, k);
        off += k;
        n -= k;
    }
}

static int rd(const struct kev_inc_view *v, const struct kev_inc_io *io, uint32_t i,
              uint32_t at, void *dst, uint32_t n)
{
    if (at > v->sec[i].bytes || n > v->sec[i].bytes - at)
        return -1;
    return io->rd(io->rd_arg, v->sec[i].off + at, dst, n);
}

static unsigned qnx_type(const char *machine)
{
    return machine[0] == 'x' ? KEV_SP_QNX_X86 : machine[0] == 'a' && machine[1] == 'a'
                                                    ? KEV_SP_QNX_AARCH64 : KEV_SP_QNX_ARM;
}

// The page's records after its first piece: each PROC and THREAD, the trigger and D sections
// as INCIDENT records (pieces of at most KEV_SP_PIECE_MAX), then END.
static void page_tail(struct pass *p, const struct kev_inc_view *v)
{
    const struct kev_inc_io *io = p->io;
    uint8_t *rec = io->buf + HEAD_BYTES + PAGE_BYTES;
    for (uint32_t i = 0; i < v->nsecs && !p->err; i++) {
        uint32_t type = v->sec[i].type;
        struct kev_out o;
        kev_out_init(&o, rec, REC_BYTES, 0);
        if (type == KEV_INC_PROC) {
            struct kev_inc_proc e;
            if (rd(v, io, i, 0, &e, sizeof(e)) < 0) {
                p->err = 1;
                return;
            }
            e.name[sizeof(e.name) - 1] = 0;
            kev_sp_proc(&o, e.pid, e.ppid, e.name);
            emit(p, rec, o.ko_len);
        } else if (type == KEV_INC_THREAD) {
            struct kev_inc_thread e;
            if (rd(v, io, i, 0, &e, sizeof(e)) < 0) {
                p->err = 1;
                return;
            }
            e.name[sizeof(e.name) - 1] = 0;
            kev_sp_thread(&o, e.pid, e.tid, e.state, e.prio, e.name);
            emit(p, rec, o.ko_len);
        } else if (type == KEV_INC_TRIGGER || type == KEV_INC_DOBJ || type == KEV_INC_DBUF ||
                   type == KEV_INC_DAGG) {
            uint32_t total = v->sec[i].bytes, at = 0;
            do {
                uint32_t n = total - at < KEV_SP_PIECE_MAX ? total - at : KEV_SP_PIECE_MAX;
                kev_out_init(&o, rec, REC_BYTES, 0);
                kev_out_u32(&o, KEV_SP_INCIDENT << 16 | (12u + n));
                kev_out_u32(&o, type);
                kev_out_u32(&o, total);
                kev_out_u32(&o, at);
                emit(p, rec, o.ko_len);
                emit_body(p, v->sec[i].off + at, n);
                static const uint8_t zeros[4] = { 0, 0, 0, 0 };
                emit(p, zeros, (4u - n % 4u) % 4u);
                at += n;
            } while (at < total && !p->err);
        }
    }
    static const uint8_t end[4] = { 0, 0, 0, 0 };   // KEV_SP_END << 16
    emit(p, end, sizeof(end));
}

static int ring_sec(const struct kev_inc_view *v)
{
    for (uint32_t i = 0; i < v->nsecs; i++)
        if (v->sec[i].type == KEV_INC_RING)
            return (int)i;
    return -1;
}

// The frozen buffers, as the ring closed them, each CPU's events counted from its slots; the
// last slot's time in *t_last (the loss note's).
static void buffers(struct pass *p, const struct kev_inc_view *v, int ri,
                    const struct kev_inc_ring *h, struct kev_cpu_totals *tot, uint32_t *t_last)
{
    const struct kev_inc_io *io = p->io;
    uint32_t at = (uint32_t)sizeof(*h);
    struct kev_slot *s = (struct kev_slot *)(void *)(io->buf + HEAD_BYTES + PAGE_BYTES + REC_BYTES);
    const uint32_t per = CHUNK_BYTES / KEV_SLOT_BYTES;
    for (uint32_t k = 0; k < h->nbufs && !p->err; k++) {
        struct kev_inc_buf b;
        if (rd(v, io, (uint32_t)ri, at, &b, sizeof(b)) < 0 || b.nslots > KEV_BUF_SLOTS) {
            p->err = 1;
            return;
        }
        at += (uint32_t)sizeof(b);
        for (uint32_t done = 0; done < b.nslots && !p->err;) {
            uint32_t n = b.nslots - done < per ? b.nslots - done : per;
            if (rd(v, io, (uint32_t)ri, at, s, n * KEV_SLOT_BYTES) < 0) {
                p->err = 1;
                return;
            }
            for (uint32_t j = 0; j < n; j++) {
                unsigned t = kev_hdr_type(s[j].header), c = kev_hdr_cpu(s[j].header);
                if (kev_hdr_class(s[j].header) != KEV_C_CONTROL &&
                    (t == KEV_TYPE_S || t == KEV_TYPE_CB) && c < KEV_INC_MAX_CPUS)
                    tot[c].events++;
                *t_last = s[j].data[0];
            }
            emit(p, s, n * KEV_SLOT_BYTES);
            at += n * KEV_SLOT_BYTES;
            done += n;
        }
    }
}

// The record's RING section's header into *ring (one with no buffers when it has none).
static int ring_of(const struct kev_inc_view *v, const struct kev_inc_io *io,
                   struct kev_inc_ring *ring)
{
    int ri = ring_sec(v);
    if (ri < 0 || rd(v, io, (uint32_t)ri, 0, ring, sizeof(*ring)) < 0) {
        ring->nbufs = 0;
        ring->ncpus = v->trig.ncpus;
        ring->policy = 0;
        for (unsigned c = 0; c < KEV_INC_MAX_CPUS; c++)
            ring->lost[c][0] = ring->lost[c][1] = 0;
        return -1;
    }
    return ri;
}

// "freeze( ) at proc:::fault, clause 2": the header's INCIDENT item.
static void what_fired(const struct kev_inc_trigger *g, char *what, size_t size)
{
    unsigned n = 0;
    const char *parts[] = { kev_incident_action_name(g->action), "( ) at ", g->probe,
                            ", clause " };
    for (unsigned k = 0; k < 4; k++)
        for (const char *c = parts[k]; *c && n + 1 < size; c++)
            what[n++] = *c;
    char d[20];
    unsigned dl = kev_put_dec(d, g->clause);
    for (unsigned k = 0; k < dl && n + 1 < size; k++)
        what[n++] = d[k];
    what[n] = 0;
}

// The header and the page's first piece, for a page whose records after it take `tail`
// bytes, into the scratch: 0, or -1 with *why.
static int head_make(const struct kev_inc_view *v, const struct kev_inc_io *io, const char *name,
                     const char *date, unsigned ncpu, uint64_t tail, struct kev_out *h,
                     struct kev_out *sp, const char **why)
{
    const struct kev_inc_trigger *g = &v->trig;
    kev_out_init(sp, io->buf + HEAD_BYTES, PAGE_BYTES, 0);
    const struct kev_sp_machine m = { qnx_type(g->machine), ncpu, g->hz, 0, 0, g->machine,
                                      g->board, g->machine };
    kev_sp_begin(sp, &m);
    kev_sp_board(sp, g->board, g->hz, ncpu);
    size_t splen = kev_sp_end_tail(sp, (size_t)tail);
    char what[96], seq[24];
    what_fired(g, what, sizeof(what));
    seq[kev_put_dec(seq, v->hdr.seq)] = 0;
    kev_out_init(h, io->buf, HEAD_BYTES, 0);
    const struct kev_hdr_std std = {
        .hs_file_name = name, .hs_date = date, .hs_cycles_per_sec = g->hz, .hs_cpu_num = ncpu,
        .hs_sysname = KEV_IDENT_SYSNAME, .hs_nodename = g->board, .hs_machine = g->machine,
        .hs_syspage_len = splen,
    };
    kev_hdr_standard(h, &std);
    kev_hdr_item(h, "INCIDENT", what);
    kev_hdr_item(h, "INCIDENT_RECORD", seq);
    kev_hdr_end(h);
    if (h->ko_err || sp->ko_err) {
        *why = h->ko_err ? h->ko_why : "its system page does not fit the writer's scratch";
        return -1;
    }
    return 0;
}

int kev_incident_kev(const struct kev_inc_view *v, const struct kev_inc_io *io, const char *name,
                     const char *date, struct kev_inc_sum *sum, const char **why)
{
    struct kev_inc_ring ring;
    int ri = ring_of(v, io, &ring);
    unsigned ncpu = ring.ncpus && ring.ncpus <= KEV_INC_MAX_CPUS ? ring.ncpus : 1u;
    // Pass 1: the page's tail, to know the page's length; then the header and the page's start.
    struct pass p = { io, 1, 0, 0 };
    page_tail(&p, v);
    struct kev_out sp, h;
    if (head_make(v, io, name, date, ncpu, p.n, &h, &sp, why) < 0)
        return -1;
    // Pass 2: the bytes.
    p = (struct pass){ io, 0, 0, 0 };
    emit(&p, io->buf, h.ko_len);
    emit(&p, io->buf + HEAD_BYTES, sp.ko_len);
    page_tail(&p, v);
    struct kev_cpu_totals tot[KEV_INC_MAX_CPUS];
    for (unsigned c = 0; c < KEV_INC_MAX_CPUS; c++) {
        tot[c].events = 0;
        tot[c].lost = c < ncpu ? ((uint64_t)ring.lost[c][1] << 32 | ring.lost[c][0]) : 0;
    }
    uint32_t t_last = 0;
    if (ri >= 0)
        buffers(&p, v, ri, &ring, tot, &t_last);
    uint64_t lost = 0, events = 0;
    for (unsigned c = 0; c < ncpu; c++) {
        lost += tot[c].lost;
        events += tot[c].events;
    }
    struct kev_out t;
    kev_out_init(&t, io->buf, HEAD_BYTES, 0);
    if (lost)
        kev_loss_note(&t, t_last, lost);
    kev_trailer(&t, ring.nbufs, ring.policy == 2u ? KEV_TRL_RING : 0u, tot, ncpu);
    emit(&p, io->buf, t.ko_len);
    if (p.err || t.ko_err) {
        *why = "the record could not be read, or the file written";
        return -1;
    }
    sum->events = events;
    sum->lost = lost;
    sum->nbufs = ring.nbufs;
    return 0;
}
