// SPDX-License-Identifier: MIT
// The probe path's reader (kevhost/kev_probe.h), over any way to read the target's memory
// (struct kev_mem: a file QEMU shares the guest's RAM through, a GDB server's m and M): the
// probe block's checks, and the rounds that take the kernel's buffers where they lie, the
// target running (trace/kev_probe.h, "Hand-over").
// A round: the block read and checked, the buffers' table read, each buffer in sequence order,
// once it is FULL, claimed (its acknowledgement word ~(seq + 1)), checked still FULL and that
// sequence, copied, given back (seq + 1), and kept unless the kernel reused it meanwhile counting
// its events lost (the entry read once more, trace/kev_probe.h), then checked (its slots, its
// count) and written; with the logger keeping the buffers, copied and kept only when its
// sequence and state did not move meanwhile. A buffer that moved is read again (counted: torn); a sequence number the kernel
// reused before it was read is counted as overwritten; a buffer that is not what the table says
// is skipped, counted and said, never written.
#include <kevhost/kev_probe.h>
#include <trace/kev_file.h>
#include <trace/kev_ring_map.h>
#include <trace/kev_stream.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

// ---- the block's checks ----------------------------------------------------------------------

const char *kev_probe_refused(const struct kev_probe_block *b, uint64_t at)
{
    static char why[200];
    if (memcmp(b->pb_magic, KEV_PROBE_MAGIC, KEV_PROBE_MAGIC_LEN) != 0)
        return "no probe block there (its magic is not there: the image running is not the "
               "one given, or the address is wrong)";
    if (b->pb_version != KEV_PROBE_VERSION || b->pb_size != sizeof(*b)) {
        snprintf(why, sizeof(why), "the probe block is version %u of %u bytes, this reader "
                 "knows version %u of %zu (a kernel and tools of different builds)",
                 b->pb_version, b->pb_size, KEV_PROBE_VERSION, sizeof(*b));
        return why;
    }
    if (b->pb_state >= KEV_PROBE_NSTATES) {
        snprintf(why, sizeof(why), "the probe block's state is %u, which the kernel never "
                 "writes (the block is damaged)", b->pb_state);
        return why;
    }
    if (b->pb_state == KEV_PROBE_IDLE)
        return NULL;    // nothing described yet: nothing more to check
    if (b->pb_check != kev_probe_check(b))
        return "the probe block fails its check (damaged, or read while the kernel wrote it)";
    if (b->pb_self != at) {
        snprintf(why, sizeof(why), "the probe block says it is at 0x%llx, not 0x%llx where it "
                 "was read (a copy, or another image's address)", (unsigned long long)b->pb_self,
                 (unsigned long long)at);
        return why;
    }
    if (b->pb_nbufs == 0 || b->pb_nbufs > KEV_PROBE_MAX_BUFS ||
        b->pb_buf_bytes != KEV_BUF_BYTES || b->pb_ncpus == 0 || b->pb_ncpus > KEV_MAX_CPUS ||
        b->pb_buf_stride < 14 || b->pb_buf_stride > 64 || b->pb_cpu_stride < 16 ||
        b->pb_cpu_stride > 512 ||
        b->pb_off_seq + 4u > b->pb_buf_stride || b->pb_off_state >= b->pb_buf_stride ||
        b->pb_off_cpu >= b->pb_buf_stride || b->pb_off_nslots + 2u > b->pb_buf_stride ||
        b->pb_off_lost + 4u > b->pb_buf_stride ||
        b->pb_off_dropped + 8u > b->pb_cpu_stride || b->pb_off_overwritten + 8u > b->pb_cpu_stride ||
        b->pb_head_len == 0 || b->pb_head_len > 65536 || b->pb_page_len > 65536 ||
        (b->pb_flags & ~KEV_PROBE_F_KEEP))
        return "the probe block describes a ring this reader cannot take (a size or an "
               "offset out of range: damaged, or a kernel of another build)";
    return NULL;
}

const char *kev_probe_buffer_refused(const struct kev_slot *s, unsigned n, uint32_t seq)
{
    static char why[160];
    if (n < 3 || n > KEV_BUF_SLOTS) {
        snprintf(why, sizeof(why), "a full buffer of %u slots (a buffer has 3 to %u)", n,
                 KEV_BUF_SLOTS);
        return why;
    }
    const struct kev_slot *e = &s[n - 1];
    if (kev_hdr_class(s[0].header) != KEV_C_CONTROL || kev_hdr_event(s[0].header) != KEV_CTL_BUFFER ||
        s[0].data[1] != seq || kev_hdr_class(e->header) != KEV_C_CONTROL ||
        kev_hdr_event(e->header) != KEV_CTL_BUFFER_END || e->data[1] != seq ||
        kev_hdr_cpu(e->header) != kev_hdr_cpu(s[0].header)) {
        snprintf(why, sizeof(why), "the buffer the table calls sequence %u does not start with "
                 "its BUFFER and end with its BUFFER_END", seq);
        return why;
    }
    return NULL;
}

static int perr(struct kev_probe *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->p_err, sizeof(p->p_err), fmt, ap);
    va_end(ap);
    return -1;
}

static int mem_fail(struct kev_probe *p)
{
    return perr(p, "%s", p->p_mem.error(p->p_mem.ctx));
}

static int mem_read(struct kev_probe *p, uint64_t a, void *b, size_t n)
{
    return p->p_mem.read(p->p_mem.ctx, a, b, n);
}

static int mem_write(struct kev_probe *p, uint64_t a, const void *b, size_t n)
{
    return p->p_mem.write(p->p_mem.ctx, a, b, n);
}

const char *kev_probe_untrusted(const struct kev_probe_block *b, uint64_t at, uint64_t kram,
                                uint64_t kram_len)
{
    static char why[240];
    if (!kram_len)
        return NULL;    // no map given (-a alone): the address the user named is believed
    uint64_t end = kram + kram_len;
    struct { const char *what; uint64_t a, n; } part[] = {
        { "the block", at, sizeof(*b) },
        { "the buffers' table", b->pb_bufs, (uint64_t)b->pb_nbufs * b->pb_buf_stride },
        { "the CPUs' loss counts", b->pb_cpus, (uint64_t)b->pb_ncpus * b->pb_cpu_stride },
        { "the next sequence number", b->pb_next_seq, 4 },
        { "the host's acknowledgement words", b->pb_acks, (uint64_t)b->pb_nbufs * 4u },
    };
    for (unsigned i = 0; i < sizeof(part) / sizeof(part[0]); i++)
        if (part[i].a < kram || part[i].a >= end || part[i].n > end - part[i].a) {
            snprintf(why, sizeof(why), "%s (0x%llx, %llu bytes) lies outside the kernel's RAM "
                     "0x%llx..0x%llx, where a program may write: not believed, nothing written "
                     "there", part[i].what, (unsigned long long)part[i].a,
                     (unsigned long long)part[i].n, (unsigned long long)kram,
                     (unsigned long long)end);
            return why;
        }
    if (b->pb_bufs < at + sizeof(*b) && at < part[1].a + part[1].n)
        return "the buffers' table overlaps the probe block itself: not believed, nothing "
               "written there";
    return NULL;
}

int kev_probe_desc_moved(const struct kev_probe_block *first, const struct kev_probe_block *b)
{
    return memcmp((const char *)first + KEV_PROBE_CHECK_FROM,
                  (const char *)b + KEV_PROBE_CHECK_FROM,
                  KEV_PROBE_CHECK_TO + sizeof(b->pb_check) - KEV_PROBE_CHECK_FROM) != 0;
}

// The scan, as a probe finds RTT's block: 4 KB at a time, the magic on a 16-byte boundary (the
// kernel aligns the block), only inside the kernel's RAM: a program can plant the magic in its
// own memory (or get it copied into the kernel's: a thread's name), so a block elsewhere is
// never looked at and two candidates are one too many.
static int scan_for(struct kev_probe *p, uint64_t scan, uint64_t scan_len)
{
    uint64_t lo = scan > p->p_kram ? scan : p->p_kram;
    uint64_t hi = scan + scan_len < p->p_kram + p->p_kram_len ? scan + scan_len :
                  p->p_kram + p->p_kram_len;
    lo = (lo + 15u) & ~15ull;
    if (lo >= hi)
        return perr(p, "the scan 0x%llx..0x%llx holds none of the kernel's RAM 0x%llx..0x%llx: "
                    "a block outside it is not believed", (unsigned long long)scan,
                    (unsigned long long)(scan + scan_len), (unsigned long long)p->p_kram,
                    (unsigned long long)(p->p_kram + p->p_kram_len));
    static uint8_t win[4096];
    uint64_t found[2];
    unsigned nfound = 0;
    for (uint64_t a = lo; a < hi; a += 4096) {
        uint64_t n = hi - a < 4096 ? hi - a : 4096;
        if (mem_read(p, a, win, (size_t)n) < 0)
            return mem_fail(p);
        for (uint64_t o = 0; o + KEV_PROBE_MAGIC_LEN <= n; o += 16)
            if (memcmp(win + o, KEV_PROBE_MAGIC, KEV_PROBE_MAGIC_LEN) == 0 &&
                a + o + sizeof(struct kev_probe_block) <= hi && nfound++ < 2)
                found[nfound - 1] = a + o;
    }
    if (nfound == 1) {
        p->p_at = found[0];
        return 0;
    }
    if (nfound > 1)
        return perr(p, "%u probe blocks' magic in the kernel's RAM (0x%llx, 0x%llx%s): the "
                    "kernel publishes one, so none is believed (give the image, -e, for its "
                    "symbol)", nfound, (unsigned long long)found[0],
                    (unsigned long long)found[1], nfound > 2 ? ", ..." : "");
    p->p_unpublished = 1;
    return perr(p, "no probe block in the kernel's RAM 0x%llx..0x%llx (the image has none, or "
                "no capture was published: tracelogger -x probe)", (unsigned long long)lo,
                (unsigned long long)hi);
}

int kev_probe_find(struct kev_probe *p, const struct kev_mem *m, const struct kev_probe_where *w)
{
    memset(p, 0, sizeof(*p));
    p->p_mem = *m;
    p->p_kram = w->kram;
    p->p_kram_len = w->kram_len;
    p->p_table = malloc(64u * 64u);
    p->p_slots = malloc(KEV_BUF_BYTES);
    if (!p->p_table || !p->p_slots)
        return perr(p, "out of memory");
    if (w->at) {
        p->p_at = w->at;
        return 0;
    }
    if (!w->kram_len)
        return perr(p, "a scan needs the kernel's RAM (the board's map, or the image's)");
    return scan_for(p, w->scan, w->scan_len);
}

static int put_frame(struct kev_probe *p, unsigned type, const void *b, size_t n)
{
    uint8_t f[KS_MAX_FRAME];
    size_t len = ks_frame(f, type, p->p_frame_seq++, b, n);
    if (fwrite(f, 1, len, p->p_out) != len)
        return perr(p, "writing the stream: %s", strerror(errno));
    return 0;
}

// The file's bytes: as they are, or in DATA frames.
static int write_out(struct kev_probe *p, const void *b, size_t n)
{
    if (!p->p_stream) {
        if (n && fwrite(b, 1, n, p->p_out) != n)
            return perr(p, "writing the file: %s", strerror(errno));
        return 0;
    }
    const uint8_t *c = b;
    p->p_file_crc = ks_crc32(p->p_file_crc, b, n);
    p->p_file_bytes += n;
    while (n) {
        size_t k = n < KS_MAX_PAYLOAD ? n : KS_MAX_PAYLOAD;
        if (put_frame(p, KS_DATA, c, k) < 0)
            return -1;
        c += k;
        n -= k;
    }
    return 0;
}

// The newest time of the buffer copied (its n slots' low words, the high word from its TIME
// slots, a low word that goes back being its wrap).
static uint64_t copy_newest(const struct kev_probe *p, unsigned n)
{
    uint32_t hi = 0, prev = 0;
    uint64_t newest = 0;
    for (unsigned k = 0; k < n; k++) {
        const struct kev_slot *s = &p->p_slots[k];
        if (kev_hdr_class(s->header) == KEV_C_CONTROL && kev_hdr_event(s->header) == KEV_CTL_TIME)
            hi = s->data[1];
        else if (k && s->data[0] < prev)
            hi++;
        prev = s->data[0];
        uint64_t t = (uint64_t)hi << 32 | s->data[0];
        if (t > newest)
            newest = t;
    }
    return newest;
}

// The classes of the events in the buffer just written (a tracelogger -F suggestion's basis).
static void count_classes(struct kev_probe *p, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        uint32_t h = p->p_slots[k].header;
        unsigned t = kev_hdr_type(h), c = kev_hdr_class(h);
        if ((t == KEV_TYPE_S || t == KEV_TYPE_CB) && c != KEV_C_CONTROL && c < KEV_NCLASS)
            p->p_class_events[c]++;
    }
}

// The reader's word to the live tools (p_stream; kev_stream.h, READER): how many buffers the
// board had given out that were not written yet as the round began, and what the kernel has
// dropped so far, at
// most every 200 ms while the reader is 2 buffers behind or more or the drops grow, and once
// when it has caught up again, so that a live view says the lag and the drops while they
// happen. Its CPUs' counts read for it (16 bytes a CPU).
static int reader_word(struct kev_probe *p, uint64_t now_ns)
{
    const struct kev_probe_block *b = &p->p_blk;
    if (!p->p_stream || b->pb_state != KEV_PROBE_RUNNING || now_ns - p->p_reader_ns < 200000000u)
        return 0;
    uint32_t behind = p->p_behind;
    uint64_t dropped = 0;
    for (unsigned c = 0; c < b->pb_ncpus; c++) {
        uint64_t d, o, base = b->pb_cpus + (uint64_t)c * b->pb_cpu_stride;
        if (mem_read(p, base + b->pb_off_dropped, &d, 8) < 0 ||
            mem_read(p, base + b->pb_off_overwritten, &o, 8) < 0)
            return mem_fail(p);
        dropped += d + o;
    }
    int late = behind >= 2 || dropped != p->p_reader_dropped;
    if (!late && !p->p_reader_behind)
        return 0;
    struct ks_reader r = { b->pb_flush_time > p->p_newest ? b->pb_flush_time : p->p_newest,
                           p->p_newest, dropped, behind };
    uint8_t pl[KS_READER_BYTES];
    ks_reader_put(pl, &r);
    if (put_frame(p, KS_READER, pl, sizeof(pl)) < 0)
        return -1;
    fflush(p->p_out);
    p->p_reader_ns = now_ns;
    p->p_reader_dropped = dropped;
    p->p_reader_behind = late;
    return 0;
}

// When the board outruns the reader (its loss counts grew; looked at once a second while the
// capture runs), p_note says so, and which classes tracelogger -F would turn off so that what
// is left fits the share of the events the reader kept up with: a kernel setting the logger
// makes, passive (-d1, make live's: TL_OPTS) or not, which the program starting the capture
// cannot undo (KTRACE_WITHHOLDCLASSES).
static int watch_losses(struct kev_probe *p, uint64_t now_ns)
{
    static const struct { unsigned cls, f; const char *name; } off[] = {
        { KEV_C_KER_CALL, 1, "kernel calls" }, { KEV_C_INT, 2, "interrupts" },
        { KEV_C_PR_TH, 4, "threads" }, { KEV_C_COMM, 6, "comm" }, { KEV_C_SYSTEM, 7, "system" },
    };
    const struct kev_probe_block *b = &p->p_blk;
    // (looked at each round until the losses grow: the second between sentences, not looks)
    if (now_ns - p->p_watch_ns < 1000000000u || b->pb_state != KEV_PROBE_RUNNING ||
        !p->p_counts.events)
        return 0;
    uint64_t lost = 0;
    for (unsigned c = 0; c < b->pb_ncpus; c++) {
        uint64_t d, o, base = b->pb_cpus + (uint64_t)c * b->pb_cpu_stride;
        if (mem_read(p, base + b->pb_off_dropped, &d, 8) < 0 ||
            mem_read(p, base + b->pb_off_overwritten, &o, 8) < 0)
            return mem_fail(p);
        lost += d + o;
    }
    if (lost <= p->p_lost_seen)
        return 0;
    p->p_watch_ns = now_ns;
    p->p_lost_seen = lost;
    // the biggest classes off, one by one, until the rest is no more than what was kept up with
    double keep = (double)p->p_counts.events / (double)(p->p_counts.events + lost), left = 1;
    char flags[64] = "", *f = flags;
    uint64_t done = 0;
    while (left > keep) {
        int best = -1;
        for (unsigned i = 0; i < sizeof(off) / sizeof(off[0]); i++)
            if (!((done >> i) & 1u) && p->p_class_events[off[i].cls] &&
                (best < 0 || p->p_class_events[off[i].cls] > p->p_class_events[off[best].cls]))
                best = (int)i;
        if (best < 0)
            break;
        done |= 1ull << best;
        left -= (double)p->p_class_events[off[best].cls] / (double)p->p_counts.events;
        f += snprintf(f, (size_t)(flags + sizeof(flags) - f), " -F %u", off[best].f);
    }
    snprintf(p->p_note, sizeof(p->p_note), "kevprobe: the board outruns the reader: %llu events "
             "lost so far, %.0f %% of them read; %s", (unsigned long long)lost,
             100 * keep, flags[0] && left <= keep ? "" : "no class filter keeps that share");
    if (flags[0] && left <= keep)
        snprintf(p->p_note + strlen(p->p_note), sizeof(p->p_note) - strlen(p->p_note),
                 "tracelogger%s (make live TL_OPTS='%s') would leave %.0f %% of the events, "
                 "which fits", flags, flags + 1, 100 * left);
    return 0;
}

// A flush the kernel served at pb_flush_time: every event stamped before that time is in a
// buffer it had closed by then (trace_ring_flush), so once those buffers are written the time
// is the board's for the live reader (kev_live.h: each CPU has passed it). Armed as a round
// sees the answer; sent before the first buffer written after it that holds a later event (one
// that filled after the flush, read in the same round), or at the round's end. A heartbeat is
// the board's time when it is sent (kev_stream.h): one that would be behind an event already
// written (a buffer past the flush read in a round before its answer was seen) is stale, not
// sent, counted.
static void heartbeat_arm(struct kev_probe *p)
{
    const struct kev_probe_block *b = &p->p_blk;
    if (!p->p_stream || b->pb_flush_done == p->p_hb_flush || !b->pb_flush_time)
        return;
    p->p_hb_flush = b->pb_flush_done;
    p->p_hb_time = b->pb_flush_time;
    p->p_hb_armed = 1;
}

static int heartbeat(struct kev_probe *p)
{
    if (!p->p_hb_armed)
        return 0;
    p->p_hb_armed = 0;
    if (p->p_hb_time < p->p_newest) {
        p->p_counts.stale_heartbeats++;
        return 0;
    }
    struct ks_heartbeat h = { p->p_hb_time, p->p_file_bytes, p->p_flush_ms,
                              (uint32_t)p->p_counts.buffers };
    uint8_t pl[KS_HEARTBEAT_BYTES];
    ks_heartbeat_put(pl, &h);
    if (put_frame(p, KS_HEARTBEAT, pl, sizeof(pl)) < 0)
        return -1;
    p->p_counts.heartbeats++;
    fflush(p->p_out);
    return 0;
}

// The header and system page the logger published.
static int begin_capture(struct kev_probe *p)
{
    const struct kev_probe_block *b = &p->p_blk;
    size_t n = (size_t)b->pb_head_len + b->pb_page_len;
    uint8_t *h = malloc(n ? n : 1);
    if (!h)
        return perr(p, "out of memory");
    int r = mem_read(p, b->pb_head, h, b->pb_head_len) < 0 ||
            mem_read(p, b->pb_page, h + b->pb_head_len, b->pb_page_len) < 0;
    if (r) {
        free(h);
        return mem_fail(p);
    }
    if (b->pb_head_len < 8 || h[0] != 'T') {
        free(h);
        return perr(p, "the header the probe block names is no .kev header");
    }
    r = write_out(p, h, n);
    free(h);
    if (r < 0)
        return -1;
    p->p_gen = b->pb_gen;
    p->p_next = 0;
    memset(p->p_cpu_events, 0, sizeof(p->p_cpu_events));
    memset(p->p_damaged_events, 0, sizeof(p->p_damaged_events));
    fflush(p->p_out);
    return 0;
}

// The loss note and the trailer, as the tracelogger writes them (tracelogger/main.c).
static int end_capture(struct kev_probe *p)
{
    const struct kev_probe_block *b = &p->p_blk;
    const struct kev_ring_map m = kev_ring_map_probe(b);
    struct kev_cpu_totals tot[KEV_MAX_CPUS];
    uint64_t lost = 0;
    for (unsigned c = 0; c < b->pb_ncpus; c++) {
        uint64_t d, o;
        uint64_t base = b->pb_cpus + (uint64_t)c * m.cpu_stride;
        if (mem_read(p, base + m.off_dropped, &d, 8) < 0 ||
            mem_read(p, base + m.off_overwritten, &o, 8) < 0)
            return mem_fail(p);
        tot[c].events = p->p_cpu_events[c];
        tot[c].lost = d + o + p->p_damaged_events[c];
        lost += tot[c].lost;
    }
    static uint8_t t[4096];
    struct kev_out o;
    kev_out_init(&o, t, sizeof(t), 0);
    if (lost)
        kev_loss_note(&o, (uint32_t)b->pb_stop_time, lost);
    kev_trailer(&o, (uint32_t)p->p_counts.buffers, b->pb_trl_flags, tot, b->pb_ncpus);
    if (o.ko_err)
        return perr(p, "the trailer: %s", o.ko_why);
    if (write_out(p, t, o.ko_len) < 0)
        return -1;
    if (p->p_stream) {
        uint8_t e[8];       // the file's length and CRC-32, little-endian (kev_stream.h)
        for (int i = 0; i < 4; i++) {
            e[i] = (uint8_t)(p->p_file_bytes >> (8 * i));
            e[4 + i] = (uint8_t)(p->p_file_crc >> (8 * i));
        }
        if (put_frame(p, KS_END, e, sizeof(e)) < 0)
            return -1;
    }
    fflush(p->p_out);
    uint32_t gen = b->pb_gen;
    if (mem_write(p, p->p_at + offsetof(struct kev_probe_block, pb_host_done), &gen,
                      4) < 0)
        return mem_fail(p);
    p->p_done = 1;
    return 1;
}

// Buffer idx's entry in the table, read again now: its sequence, state and slot count.
static int entry(struct kev_probe *p, unsigned idx, uint32_t *seq, unsigned *st, unsigned *n)
{
    const struct kev_ring_map m = kev_ring_map_probe(&p->p_blk);
    uint8_t e[64];
    if (mem_read(p, p->p_blk.pb_bufs + (uint64_t)idx * m.buf_stride, e, m.buf_stride) < 0)
        return mem_fail(p);
    *seq = kev_ring_seq(&m, e);
    *st = kev_ring_state(&m, e);
    *n = kev_ring_nslots(&m, e);
    return 0;
}

// The host's word of buffer idx (trace/kev_probe.h, "Hand-over"): ~(seq + 1) claims it,
// seq + 1 gives it back.
static int ack(struct kev_probe *p, unsigned idx, uint32_t v)
{
    if (p->p_blk.pb_flags & KEV_PROBE_F_KEEP)
        return 0;
    if (mem_write(p, p->p_blk.pb_acks + 4u * (uint64_t)idx, &v, 4) < 0)
        return mem_fail(p);
    return 0;
}

// Why buffer idx's copy (n slots, sequence seq) cannot be written, or NULL: its structure
// (kev_probe_buffer_refused), and a closing count no buffer of n slots can hold.
static const char *copy_refused(const struct kev_probe *p, unsigned n, uint32_t seq)
{
    static char why[160];
    const char *w = kev_probe_buffer_refused(p->p_slots, n, seq);
    if (w)
        return w;
    uint32_t events = p->p_slots[n - 1].data[2];
    if (events > n - 3u) {      // BUFFER, TIME and BUFFER_END are no events
        snprintf(why, sizeof(why), "the buffer of sequence %u says it holds %u events in %u "
                 "slots", seq, events, n);
        return why;
    }
    return NULL;
}

// Buffer idx's copy in p_slots (n slots, sequence p_next), whole: written to the file (or
// skipped as damaged: counted, said). 0, or -1 on an error.
static int keep_copy(struct kev_probe *p, unsigned idx, unsigned n)
{
    const struct kev_probe_block *b = &p->p_blk;
    uint32_t seq = p->p_next;
    const char *why = copy_refused(p, n, seq);
    if (why) {
        p->p_counts.damaged++;     // its events (at most its slots but three) are lost
        p->p_damaged_events[kev_hdr_cpu(p->p_slots[0].header) % b->pb_ncpus] += n - 3u;
        snprintf(p->p_damage, sizeof(p->p_damage), "buffer %u: %s", idx, why);
    } else {
        uint64_t newest = copy_newest(p, n);
        if (p->p_hb_armed && newest > p->p_hb_time && heartbeat(p) < 0)
            return -1;      // (the flush's heartbeat before the first buffer past it)
        if (write_out(p, p->p_slots, (size_t)n * sizeof(struct kev_slot)) < 0)
            return -1;
        fflush(p->p_out);
        if (newest > p->p_newest)
            p->p_newest = newest;
        count_classes(p, n);
        unsigned cpu = kev_hdr_cpu(p->p_slots[0].header) % KEV_MAX_CPUS;
        p->p_cpu_events[cpu] += p->p_slots[n - 1].data[2];
        p->p_counts.events += p->p_slots[n - 1].data[2];
        p->p_counts.buffers++;
    }
    p->p_next++;
    return 0;
}

// The verdict on buffer idx's copy, given back (done) after it was copied (trace/kev_probe.h,
// "Hand-over"): its entry read again, a few times while a pick is deciding on it. 1 kept
// (written), 1 dropped (the kernel reused it counting its events lost: counted overwritten
// here too), 0 still undecided (p_pending: the next round asks again), -1 an error.
static int settle(struct kev_probe *p, unsigned idx, unsigned n)
{
    const struct kev_ring_map m = kev_ring_map_probe(&p->p_blk);
    uint32_t seq = p->p_next, s2, lost;
    unsigned st, n2;
    for (unsigned k = 0;; k++) {
        uint8_t e[64];
        if (mem_read(p, p->p_blk.pb_bufs + (uint64_t)idx * m.buf_stride, e, m.buf_stride) < 0)
            return mem_fail(p);
        s2 = kev_ring_seq(&m, e);
        st = kev_ring_state(&m, e);
        n2 = kev_ring_nslots(&m, e);
        lost = kev_ring_lost(&m, e);
        if (s2 != seq || st != TRACE_BUF_FILLING)
            break;
        if (k == 8) {       // (a pick takes a few instructions; a halted target, longer)
            p->p_pending = 1;
            p->p_pend_idx = idx;
            p->p_pend_n = n;
            return 0;
        }
    }
    p->p_pending = 0;
    if (s2 == seq && (st != TRACE_BUF_FULL || n2 != n))
        return perr(p, "buffer %u of sequence %u went from FULL to state %u with %u slots "
                    "while the host held it: the kernel never does that", idx, seq, st, n2);
    if (s2 != seq && lost == seq + 1u) {
        p->p_counts.overwritten++;  // refused while copied: counted lost by the kernel
        p->p_next++;
        return 1;
    }
    return keep_copy(p, idx, n) < 0 ? -1 : 1;
}

// Takes buffer idx (FULL, sequence p_next): 1 written (or skipped as damaged, or counted lost),
// 0 it moved while it was read (torn: the caller reads the table again) or its verdict waits
// (p_pending), -1 an error.
static int take_buffer(struct kev_probe *p, unsigned idx)
{
    const struct kev_probe_block *b = &p->p_blk;
    uint32_t seq = p->p_next, s2;
    unsigned st, n, n2;
    if (ack(p, idx, ~(seq + 1u)) < 0 || entry(p, idx, &s2, &st, &n) < 0)
        return -1;
    // reused before the claim was seen: not ours any more
    if (st != TRACE_BUF_FULL || s2 != seq) {
        p->p_counts.torn++;
        return 0;
    }
    if (n < 3 || n > KEV_BUF_SLOTS)
        n = 3;      // (a count the kernel never writes: the copy is refused below)
    if (mem_read(p, b->pb_mem + (uint64_t)idx * b->pb_buf_bytes, p->p_slots,
                 (size_t)n * sizeof(struct kev_slot)) < 0)
        return mem_fail(p);
    if (!(b->pb_flags & KEV_PROBE_F_KEEP))      // given back first, then the verdict read
        return ack(p, idx, seq + 1u) < 0 ? -1 : settle(p, idx, n);
    if (entry(p, idx, &s2, &st, &n2) < 0)
        return -1;
    if (st != TRACE_BUF_FULL || s2 != seq || n2 != n) {     // (the logger keeps it: none)
        p->p_counts.torn++;
        return 0;
    }
    return keep_copy(p, idx, n) < 0 ? -1 : 1;
}

// The table just read, checked: every state one the kernel writes, every buffer in use of a
// CPU the block counts; and, stopped, the kernel gives out no sequence: one in the table past
// its next (*given) is a lie (counted), and the table's buffers are read all the same.
// (Running, newer buffers begin while the table is read.) 0, or -1 with p_err.
static int table_check(struct kev_probe *p, const struct kev_ring_map *m, uint32_t *given)
{
    for (unsigned i = 0; i < m->nbufs; i++) {
        const uint8_t *e = kev_ring_entry(m, p->p_table, i);
        unsigned st = kev_ring_state(m, e);
        if (st >= TRACE_BUF_NSTATES)
            return perr(p, "buffer %u's state is %u, which the kernel never writes (%u free, %u "
                        "filling, %u full, %u the logger's): the ring is damaged or not this "
                        "block's", i, st, TRACE_BUF_FREE, TRACE_BUF_FILLING, TRACE_BUF_FULL,
                        TRACE_BUF_LOGGER);
        if (st != TRACE_BUF_FREE && kev_ring_buf_cpu(m, e) >= p->p_blk.pb_ncpus)
            return perr(p, "buffer %u's CPU is %u of %u: the ring is damaged", i,
                        kev_ring_buf_cpu(m, e), p->p_blk.pb_ncpus);
        uint32_t q = kev_ring_seq(m, e);
        if (p->p_blk.pb_state == KEV_PROBE_STOPPED && st != TRACE_BUF_FREE &&
            (int32_t)(q + 1u - *given) > 0 && (int32_t)(q - p->p_next) >= 0) {
            p->p_counts.seq_lies++;
            *given = q + 1u;
        }
    }
    if ((int32_t)(*given - p->p_next) > (1 << 24))
        return perr(p, "the ring's next sequence number is %u, %u past the last one read: "
                    "damaged, or not this block's ring", *given, *given - p->p_next);
    return 0;
}

// The buffers in sequence order from p_next (kev_ring_walk): 1 when every sequence number
// given out has been written (or counted overwritten or damaged), 0 when the next is still
// filling, -1 on a refusal. The next sequence the kernel names is believed no lower than the
// table's newest.
static int take_buffers(struct kev_probe *p)
{
    const struct kev_ring_map m = kev_ring_map_probe(&p->p_blk);
    uint32_t given;
    unsigned torn = 0, order[KEV_PROBE_MAX_BUFS];
    if (p->p_pending) {     // a verdict the last round could not read yet
        int r = settle(p, p->p_pend_idx, p->p_pend_n);
        if (r <= 0)
            return r;
    }
again:
    // The next sequence first: every one below it has its entry in the table read after (the
    // kernel stores a buffer's sequence before the next, trace_ring.c), or was reused.
    if (mem_read(p, p->p_blk.pb_next_seq, &given, 4) < 0 ||
        mem_read(p, p->p_blk.pb_bufs, p->p_table, (size_t)m.nbufs * m.buf_stride) < 0)
        return mem_fail(p);
    if (table_check(p, &m, &given) < 0)
        return -1;
    if (!torn)      // (the round's first look: how far behind it began)
        p->p_behind = (int32_t)(given - p->p_next) > 0 ? given - p->p_next : 0;
    unsigned n = kev_ring_walk(&m, p->p_table, p->p_next, order);
    for (unsigned k = 0; k < n && (int32_t)(given - p->p_next) > 0; k++) {
        const uint8_t *e = kev_ring_entry(&m, p->p_table, order[k]);
        uint32_t q = kev_ring_seq(&m, e);
        if ((int32_t)(q - p->p_next) < 0)
            continue;           // behind the reader: one written already (the walk's last)
        if (q != p->p_next) {
            // Not in the table: reused by the kernel (ring or overwrite policy) before it was
            // read. The oldest newer one is next; those between were reused.
            p->p_counts.overwritten += q - p->p_next;
            p->p_next = q;
            if ((int32_t)(given - p->p_next) <= 0)
                break;
        }
        unsigned st = kev_ring_state(&m, e);
        if (st != TRACE_BUF_FULL)   // filling; or the logger's (keep: it saves them at the end)
            return 0;
        int r = take_buffer(p, order[k]);
        if (r < 0)
            return -1;
        if (r == 0) {
            if (++torn > 8)
                return 0;   // (the next round tries again)
            goto again;
        }
    }
    if ((int32_t)(given - p->p_next) > 0) {
        if (p->p_blk.pb_state != KEV_PROBE_STOPPED)
            return 0;   // (the kernel may be between a buffer's number and its entry)
        p->p_counts.overwritten += given - p->p_next;   // stopped: what the table does not
        p->p_next = given;                              // hold is lost, counted
    }
    return 1;
}

// The kernel writes the magic last, once, in pieces (kernel/ktrace_probe.c): a block whose
// magic holds none or only some of its bytes, the rest zero, is not published yet (the caller
// waits), not damaged.
static int publishing(const struct kev_probe_block *b)
{
    for (unsigned i = 0; i < KEV_PROBE_MAGIC_LEN; i++)
        if (b->pb_magic[i] && b->pb_magic[i] != KEV_PROBE_MAGIC[i])
            return 0;
    return memcmp(b->pb_magic, KEV_PROBE_MAGIC, KEV_PROBE_MAGIC_LEN) != 0;
}

int kev_probe_poll(struct kev_probe *p, uint64_t now_ns)
{
    struct kev_probe_block *b = &p->p_blk;
    p->p_counts.polls++;
    if (mem_read(p, p->p_at, b, sizeof(*b)) < 0)
        return mem_fail(p);
    p->p_unpublished = publishing(b);   // (all zero too: the magic not begun)
    if (p->p_unpublished)
        return 0;   // the kernel's block before the first capture publishes it (the caller waits)
    const char *why = kev_probe_refused(b, p->p_at);
    if (!why && b->pb_state != KEV_PROBE_IDLE)
        why = kev_probe_untrusted(b, p->p_at, p->p_kram, p->p_kram_len);
    if (why)
        return perr(p, "at 0x%llx: %s", (unsigned long long)p->p_at, why);
    if (b->pb_state == KEV_PROBE_IDLE)
        return p->p_done ? 1 : 0;
    if (p->p_gen == b->pb_gen && kev_probe_desc_moved(&p->p_first, b))
        return perr(p, "at 0x%llx: the probe block's description changed within capture %u "
                    "(the same generation, a new check): the kernel never does that, not "
                    "believed", (unsigned long long)p->p_at, b->pb_gen);
    if (p->p_gen != b->pb_gen) {
        if (p->p_gen && !p->p_done)
            return perr(p, "a new capture began before the last one ended");
        if (p->p_done)
            return 1;       // one capture a file
        if (begin_capture(p) < 0)
            return -1;
        p->p_first = *b;    // the description, fixed while this capture lasts
    }
    if (p->p_done)
        return 1;
    heartbeat_arm(p);
    int all = take_buffers(p);
    if (all < 0)
        return -1;
    if (b->pb_state == KEV_PROBE_STOPPED && all == 1)
        return end_capture(p);
    if (heartbeat(p) < 0 || watch_losses(p, now_ns) < 0 || reader_word(p, now_ns) < 0)
        return -1;
    if (b->pb_state == KEV_PROBE_RUNNING && p->p_flush_ms &&
        now_ns - p->p_last_flush_ns >= (uint64_t)p->p_flush_ms * 1000000u) {
        p->p_last_flush_ns = now_ns;
        if (b->pb_flush_done == b->pb_flush_req) {  // else the last is not served yet
            uint32_t req = b->pb_flush_req + 1u;
            if (mem_write(p, p->p_at + offsetof(struct kev_probe_block, pb_flush_req),
                              &req, 4) < 0)
                return mem_fail(p);
            p->p_counts.flushes++;
        }
    }
    return 0;
}

void kev_probe_free(struct kev_probe *p)
{
    free(p->p_table);
    free(p->p_slots);
    p->p_table = NULL;
    p->p_slots = NULL;
}
