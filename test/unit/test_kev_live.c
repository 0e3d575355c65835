// SPDX-License-Identifier: MIT
// Unit tests of the live reader (tools/common/kev_live.c) against the file decoder's reading of
// the same capture: a trace fed in pieces of every size, raw or framed as the tracelogger frames
// it, gives the file byte for byte and the events the decoder gives over the finished file, in
// the same order; each fault a stream can have, injected, is said once and counted as injected
// while the rest decodes; a consumer attached late gets the header and what comes after.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <trace/kev_decode.h>
#include <trace/kev_file.h>
#include <trace/kev_stream.h>
#include <trace/trace_ring.h>
#include <kevhost/kev_capture.h>
#include <kevhost/kev_live.h>

#define NBUF 4u
static struct kev_slot mem[NBUF * KEV_BUF_SLOTS];
static struct trace_ring ring;
static struct kev_reader rd;

// ---- a capture, and what the file decoder makes of it -----------------------------------------

static void make_trace(struct kcap *c, uint64_t n, unsigned drain)
{
    memset(&trace_host_port, 0, sizeof(trace_host_port));
    assert_int_equal(trace_ring_init(&ring, mem, sizeof(mem), NBUF), 0);
    assert_int_equal(trace_ring_set_policy(&ring, TRACE_POLICY_SWITCH), 0);
    trace_filter_all(&ring, 1);
    assert_int_equal(trace_ring_start(&ring), 0);
    kcap_begin(c, 0, 25000000);
    kcap_workload(&ring, c, n, 7, drain);
    kcap_finish(c, &ring);
}

// Events as a consumer sees them: a digest of each, in order.
struct seen {
    uint64_t n, *h;
    size_t cap;
    uint8_t *file;    // the units given, end to end
    size_t flen, fcap;
    unsigned begins, ends, complete;
    unsigned faults[KEV_LIVE_NFAULTS];
    char last_fault[512];
};

static uint64_t digest(const struct kev_event *e)
{
    uint64_t h = 1469598103934665603ull;
    uint64_t v[5] = { e->t64, e->cls, e->ev, e->cpu, e->nw };
    for (unsigned i = 0; i < 5; i++)
        h = (h ^ v[i]) * 1099511628211ull;
    for (unsigned i = 0; i < e->nw; i++)
        h = (h ^ e->w[i]) * 1099511628211ull;
    return h;
}

static void seen_add(struct seen *s, const struct kev_event *e)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        s->h = realloc(s->h, s->cap * sizeof(*s->h));
        assert_non_null(s->h);
    }
    s->h[s->n++] = digest(e);
}

static void seen_free(struct seen *s)
{
    free(s->h);
    free(s->file);
    memset(s, 0, sizeof(*s));
}

static int file_cb(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    seen_add(user, e);
    return 0;
}

// The file decoder's events over the whole file.
static void decode_file(const uint8_t *p, size_t n, struct seen *s)
{
    assert_int_equal(kev_open(&rd, p, n), 0);
    kev_set_user(&rd, s);
    kev_on_any(&rd, file_cb);
    int rc = kev_decode(&rd);
    if (rc)
        fail_msg("decode: %s", kev_error(&rd));
}

// ---- a consumer that keeps everything ---------------------------------------------------------

static void c_begin(void *user, struct kev_reader *r, unsigned seg)
{
    (void)r, (void)seg;
    ((struct seen *)user)->begins++;
}

static void c_unit(void *user, const uint8_t *p, size_t n, enum kev_live_unit kind)
{
    struct seen *s = user;
    (void)kind;
    if (s->flen + n > s->fcap) {
        s->fcap = (s->flen + n) * 2;
        s->file = realloc(s->file, s->fcap);
        assert_non_null(s->file);
    }
    memcpy(s->file + s->flen, p, n);
    s->flen += n;
}

static void c_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    seen_add(user, e);
}

static void c_fault(void *user, enum kev_live_fault f, const char *what)
{
    struct seen *s = user;
    s->faults[f]++;
    if (getenv("LIVE_TEST_SAY"))
        fprintf(stderr, "%s\n", what);
    snprintf(s->last_fault, sizeof(s->last_fault), "%s", what);
}

static void c_end(void *user, struct kev_reader *r, int complete)
{
    struct seen *s = user;
    (void)r;
    s->ends++;
    s->complete += complete != 0;
}

static struct kev_live_consumer consumer(struct seen *s)
{
    return (struct kev_live_consumer){ .user = s, .begin = c_begin, .unit = c_unit,
                                       .event = c_event, .fault = c_fault, .end = c_end };
}

// ---- inputs -----------------------------------------------------------------------------------

// Feed p[0..n) in pieces of pseudo-random sizes from 1 to max.
static void feed(struct kev_live *l, const uint8_t *p, size_t n, size_t max, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t off = 0; off < n;) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        size_t k = 1 + x % max;
        if (k > n - off)
            k = n - off;
        kev_live_feed(l, p + off, k);
        off += k;
    }
}

// The units of a file as the tracelogger writes them, one write each: the header, the system
// page, each buffer, and the loss note with the trailer. Offsets into units[0..n].
static size_t units_of(const uint8_t *p, size_t len, size_t *units, size_t max)
{
    assert_int_equal(kev_open(&rd, p, len), 0);
    size_t n = 0;
    units[n++] = 0;
    units[n++] = rd.kr_sp_off;
    size_t off = rd.kr_ev_off;
    while (off < rd.kr_ev_end && n < max - 1) {
        units[n++] = off;
        uint32_t h;
        memcpy(&h, p + off, 4);
        if (kev_hdr_class(h) != KEV_C_CONTROL || kev_hdr_event(h) != KEV_CTL_BUFFER)
            break;          // the loss note: with the trailer
        do {
            memcpy(&h, p + off, 4);
            off += KEV_SLOT_BYTES;
        } while (!(kev_hdr_class(h) == KEV_C_CONTROL && kev_hdr_event(h) == KEV_CTL_BUFFER_END));
    }
    if (units[n - 1] != off)
        units[n++] = off;   // the trailer
    units[n] = len;
    return n;
}

// The stream the tracelogger sends for file p[0..len): each write cut into frames of at most
// KS_MAX_PAYLOAD bytes, then END. Frames are returned one by one in fr[] (malloc'd).
struct frames {
    uint8_t *f[1024];
    size_t n[1024];
    unsigned count;
};

static void frame_file(const uint8_t *p, size_t len, struct frames *fs)
{
    size_t u[600];
    size_t nu = units_of(p, len, u, 590);
    uint16_t seq = 0;
    fs->count = 0;
    for (size_t i = 0; i < nu; i++)
        for (size_t off = u[i]; off < u[i + 1]; off += KS_MAX_PAYLOAD) {
            size_t k = u[i + 1] - off < KS_MAX_PAYLOAD ? u[i + 1] - off : KS_MAX_PAYLOAD;
            assert_true(fs->count < 1023);
            fs->f[fs->count] = malloc(KS_MAX_FRAME);
            fs->n[fs->count] = ks_frame(fs->f[fs->count], KS_DATA, seq++, p + off, k);
            fs->count++;
        }
    uint8_t end[8];
    uint32_t crc = ks_crc32(0, p, len);
    for (int i = 0; i < 4; i++)
        end[i] = (uint8_t)(len >> (8 * i)), end[4 + i] = (uint8_t)(crc >> (8 * i));
    fs->f[fs->count] = malloc(KS_MAX_FRAME);
    fs->n[fs->count] = ks_frame(fs->f[fs->count], KS_END, seq, end, 8);
    fs->count++;
}

static void frames_free(struct frames *fs)
{
    for (unsigned i = 0; i < fs->count; i++)
        free(fs->f[i]);
}

// Frames [a, b) end to end, appended to out.
static size_t cat(uint8_t *out, size_t at, const struct frames *fs, unsigned a, unsigned b)
{
    for (unsigned i = a; i < b && i < fs->count; i++) {
        memcpy(out + at, fs->f[i], fs->n[i]);
        at += fs->n[i];
    }
    return at;
}

// A capture of n events, its stream's frames, and room for a stream made of them (in).
struct framed {
    struct kcap c;
    struct frames fs;
    uint8_t *in;
};

static void framed_make(struct framed *x, uint64_t n)
{
    make_trace(&x->c, n, 300);
    frame_file(x->c.data, x->c.len, &x->fs);
    x->in = malloc(x->c.len * 3);
    assert_non_null(x->in);
}

static void framed_free(struct framed *x)
{
    free(x->in);
    frames_free(&x->fs);
    kcap_free(&x->c);
}

// The live reader over in[0..n) fed in pieces up to max bytes, into s.
static struct kev_live *run(const uint8_t *in, size_t n, size_t max, struct seen *s)
{
    struct kev_live *l = kev_live_new("test");
    assert_non_null(l);
    struct kev_live_consumer c = consumer(s);
    assert_int_equal(kev_live_attach(l, &c), 0);
    feed(l, in, n, max, (unsigned)n);
    if (!kev_live_done(l))
        kev_live_finish(l);
    return l;
}


// ---- streams with frames of the test's own ----------------------------------------------------

// A stream rebuilt from the capture's frames with frames of the test's making among them: the
// DATA payloads of fs in order, each piece (type, payload) inserted before DATA frame at[i];
// the sequence numbered again from 0; END (of the file's length and CRC) last unless no_end.
struct extra {
    unsigned before;                 // the DATA frame it goes before (fs index)
    unsigned type;
    uint8_t p[64];
    size_t n;
};

static size_t restream(uint8_t *out, const struct frames *fs, const struct extra *x, unsigned nx,
                       const uint8_t *file, size_t flen, int no_end)
{
    size_t at = 0;
    uint16_t seq = 0;
    for (unsigned i = 0; i + 1 < fs->count; i++) {
        for (unsigned k = 0; k < nx; k++)
            if (x[k].before == i)
                at += ks_frame(out + at, x[k].type, seq++, x[k].p, x[k].n);
        at += ks_frame(out + at, KS_DATA, seq++, fs->f[i] + KS_HDR_BYTES,
                       fs->n[i] - KS_HDR_BYTES - KS_CRC_BYTES);
    }
    if (!no_end) {
        uint8_t end[8];
        uint32_t crc = ks_crc32(0, file, flen);
        for (int i = 0; i < 4; i++)
            end[i] = (uint8_t)(flen >> (8 * i)), end[4 + i] = (uint8_t)(crc >> (8 * i));
        at += ks_frame(out + at, KS_END, seq, end, 8);
    }
    return at;
}

// The DATA payload bytes of frames [0, i): where frame i starts in the file.
static size_t file_at(const struct frames *fs, unsigned i)
{
    size_t off = 0;
    for (unsigned k = 0; k < i; k++)
        off += fs->n[k] - KS_HDR_BYTES - KS_CRC_BYTES;
    return off;
}

static struct extra heartbeat_at(unsigned before, uint64_t t, uint64_t offset)
{
    struct extra x = { before, KS_HEARTBEAT, { 0 }, KS_HEARTBEAT_BYTES };
    const struct ks_heartbeat h = { t, offset, 100, 0 };
    ks_heartbeat_put(x.p, &h);
    return x;
}

// The first event's time of the buffer that starts at file offset off.
static uint64_t first_time_at(const uint8_t *file, size_t flen, size_t off, size_t end)
{
    assert_int_equal(kev_open_head(&rd, file, flen), 0);
    struct kev_event e;
    kev_feed(&rd, file + off, end - off);
    uint64_t t = 0;
    while (kev_next(&rd, &e) == 1)
        if (e.cls != KEV_C_CONTROL) {
            t = e.t64;
            break;
        }
    assert_true(t > 0);
    return t;
}

// A consumer that checks the live reader's promise: no event before a time it has given.
struct promise {
    uint64_t given, events, broken;
    int have;
};

static void p_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct promise *p = user;
    (void)r;
    p->events++;
    if (p->have && e->t64 < p->given)
        p->broken++;
}

static void p_time(void *user, struct kev_reader *r, uint64_t t)
{
    struct promise *p = user;
    (void)r;
    if (!p->have || t > p->given)
        p->given = t;
    p->have = 1;
}


// ---- the tests --------------------------------------------------------------------------------

// A .kev file read as it grows, in pieces from 1 byte to 5000: the same bytes and the same
// events in the same order as the file decoder's.
static void test_raw_pieces(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 40000, 300);
    struct seen want = { 0 }, got = { 0 };
    decode_file(c.data, c.len, &want);
    size_t maxes[] = { 1, 7, 16, 1000, 5000, 1u << 20 };
    for (unsigned i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
        struct kev_live *l = run(c.data, c.len, maxes[i], &got);
        assert_true(kev_live_done(l));
        assert_true(kev_live_sound(l));
        assert_int_equal(got.flen, c.len);
        assert_memory_equal(got.file, c.data, c.len);
        assert_int_equal(got.n, want.n);
        assert_memory_equal(got.h, want.h, want.n * sizeof(uint64_t));
        assert_int_equal(got.begins, 1);
        assert_int_equal(got.complete, 1);
        assert_int_equal(kev_live_counts(l)->events, want.n);
        kev_live_free(l);
        seen_free(&got);
    }
    seen_free(&want);
    kcap_free(&c);
}

// The tracelogger's framed stream, in pieces: the same bytes and events; END closes it.
static void test_framed_pieces(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 40000);
    uint8_t *in = x.in;
    size_t n = cat(in, 0, &x.fs, 0, x.fs.count);
    struct seen want = { 0 }, got = { 0 };
    decode_file(x.c.data, x.c.len, &want);
    size_t maxes[] = { 1, 13, 1036, 9000 };
    for (unsigned i = 0; i < 4; i++) {
        struct kev_live *l = run(in, n, maxes[i], &got);
        assert_true(kev_live_sound(l));
        assert_int_equal(got.flen, x.c.len);
        assert_memory_equal(got.file, x.c.data, x.c.len);
        assert_int_equal(got.n, want.n);
        assert_memory_equal(got.h, want.h, want.n * sizeof(uint64_t));
        assert_int_equal(kev_live_counts(l)->frames, x.fs.count - 1);
        kev_live_free(l);
        seen_free(&got);
    }
    seen_free(&want);
    framed_free(&x);
}

static unsigned total_faults(const struct seen *s)
{
    unsigned t = 0;
    for (unsigned f = 0; f < KEV_LIVE_NFAULTS; f++)
        t += s->faults[f];
    return t;
}

// Garbage between two frames: said once, its bytes counted, nothing lost.
static void test_garbage_between_frames(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 20000);
    uint8_t *in = x.in;
    static const char junk[] = "\r\nboot: garbage on the line KS\x01";
    size_t n = cat(in, 0, &x.fs, 0, 9);
    memcpy(in + n, junk, sizeof(junk) - 1);
    n = cat(in, n + sizeof(junk) - 1, &x.fs, 9, x.fs.count);
    struct seen got = { 0 };
    struct kev_live *l = run(in, n, 700, &got);
    assert_int_equal(got.faults[KEV_LIVE_GARBAGE], 1);
    assert_int_equal(total_faults(&got), 1);
    assert_int_equal(kev_live_counts(l)->garbage_bytes, sizeof(junk) - 1);
    assert_true(kev_live_sound(l));            // no byte of the file was lost
    assert_memory_equal(got.file, x.c.data, x.c.len);
    kev_live_free(l);
    seen_free(&got);
    framed_free(&x);
}

// A frame missing in the middle of a buffer, or cut short: one fault, the buffer dropped and
// counted, every other buffer decoded and written (the file is the original less that buffer).
static void check_hole(int cut)
{
    struct framed x;
    framed_make(&x, 20000);
    size_t u[600];
    size_t nu = units_of(x.c.data, x.c.len, u, 590);
    // the frame that holds the second frame of the 4th buffer (units: header, page, buffers)
    unsigned k = 0;
    size_t off = 0, target = u[5] + KS_MAX_PAYLOAD;
    while (off + (x.fs.n[k] - KS_HDR_BYTES - KS_CRC_BYTES) <= target)
        off += x.fs.n[k] - KS_HDR_BYTES - KS_CRC_BYTES, k++;
    uint8_t *in = x.in;
    size_t n = cat(in, 0, &x.fs, 0, k);
    if (cut) { // its first 300 bytes, then the next frame
        memcpy(in + n, x.fs.f[k], 300);
        n += 300;
    }
    n = cat(in, n, &x.fs, k + 1, x.fs.count);
    struct seen got = { 0 };
    struct kev_live *l = run(in, n, 999, &got);
    const struct kev_live_counts *cn = kev_live_counts(l);
    assert_int_equal(got.faults[KEV_LIVE_CUT], 1);
    assert_int_equal(total_faults(&got), 1);
    assert_int_equal(cn->frames_lost, 1);
    assert_int_equal(cn->buffers_lost, 1);
    assert_false(kev_live_sound(l));
    assert_int_equal(got.complete, 0);        // the trailer disagrees: not complete
    // the file: everything but that buffer
    size_t blen = u[6] - u[5];
    assert_int_equal(got.flen, x.c.len - blen);
    assert_memory_equal(got.file, x.c.data, u[5]);
    assert_memory_equal(got.file + u[5], x.c.data + u[6], x.c.len - u[6]);
    (void)nu;
    kev_live_free(l);
    seen_free(&got);
    framed_free(&x);
}

static void test_frame_missing(void **st)
{
    (void)st;
    check_hole(0);
}

static void test_frame_cut(void **st)
{
    (void)st;
    check_hole(1);
}

// A frame again (a transport that sent it twice): dropped, said once; nothing lost.
static void test_frame_repeated(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 20000);
    uint8_t *in = x.in;
    size_t n = cat(in, 0, &x.fs, 0, 12);
    n = cat(in, n, &x.fs, 11, x.fs.count);
    struct seen got = { 0 };
    struct kev_live *l = run(in, n, 3000, &got);
    assert_int_equal(got.faults[KEV_LIVE_REPEAT], 1);
    assert_int_equal(total_faults(&got), 1);
    assert_true(kev_live_sound(l));
    assert_memory_equal(got.file, x.c.data, x.c.len);
    kev_live_free(l);
    seen_free(&got);
    framed_free(&x);
}

// A buffer twice in a growing file (a logger that wrote it again): the second dropped, said
// once; the file and the events are the original's.
static void test_buffer_repeated(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 20000, 300);
    size_t u[600];
    units_of(c.data, c.len, u, 590);
    size_t blen = u[4] - u[3];
    uint8_t *in = malloc(c.len + blen);
    memcpy(in, c.data, u[4]);
    memcpy(in + u[4], c.data + u[3], blen);
    memcpy(in + u[4] + blen, c.data + u[4], c.len - u[4]);
    struct seen want = { 0 }, got = { 0 };
    decode_file(c.data, c.len, &want);
    struct kev_live *l = run(in, c.len + blen, 4096, &got);
    assert_int_equal(got.faults[KEV_LIVE_REPEAT], 1);
    assert_int_equal(total_faults(&got), 1);
    assert_true(kev_live_sound(l));
    assert_memory_equal(got.file, c.data, c.len);
    assert_int_equal(got.n, want.n);
    assert_memory_equal(got.h, want.h, want.n * sizeof(uint64_t));
    kev_live_free(l);
    seen_free(&want);
    seen_free(&got);
    free(in);
    kcap_free(&c);
}

// Two buffers swapped: the late one is said once; its events, older than what was shown, are
// counted and not shown live; it is written where it came.
static void test_buffer_out_of_order(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 20000, 300);
    size_t u[600];
    units_of(c.data, c.len, u, 590);
    uint8_t *in = malloc(c.len);
    size_t a = u[4] - u[3], b = u[5] - u[4];
    memcpy(in, c.data, u[3]);
    memcpy(in + u[3], c.data + u[4], b);
    memcpy(in + u[3] + b, c.data + u[3], a);
    memcpy(in + u[5], c.data + u[5], c.len - u[5]);
    struct seen got = { 0 };
    struct kev_live *l = run(in, c.len, 4096, &got);
    assert_int_equal(got.faults[KEV_LIVE_ORDER], 2); // the buffer, and its late events
    assert_int_equal(total_faults(&got), 2);
    assert_memory_equal(got.file, in, c.len);
    // its events (all but its BUFFER slot's and TIME's: the decoder gives CONTROL too)
    assert_true(kev_live_counts(l)->late_events > 0);
    assert_int_equal(kev_live_counts(l)->events + kev_live_counts(l)->late_events, got.n +
                     kev_live_counts(l)->late_events);
    kev_live_free(l);
    seen_free(&got);
    free(in);
    kcap_free(&c);
}

// The board restarted mid-run: a new header before the first trace's trailer. One fault, two
// segments; the second is whole and the same as the second capture.
static void test_reset(void **st)
{
    (void)st;
    struct kcap a, b;
    make_trace(&a, 20000, 300);
    make_trace(&b, 10000, 300);
    size_t u[600];
    units_of(a.data, a.len, u, 590);
    struct frames fa, fb;
    frame_file(a.data, a.len, &fa);
    frame_file(b.data, b.len, &fb);
    uint8_t *in = malloc(a.len * 2 + b.len * 2);
    size_t n = cat(in, 0, &fa, 0, 10);
    memcpy(in + n, fa.f[10], 200);      // cut mid-frame by the reset
    n = cat(in, n + 200, &fb, 0, fb.count);
    struct seen got = { 0 }, want = { 0 };
    decode_file(b.data, b.len, &want);
    struct kev_live *l = run(in, n, 2000, &got);
    assert_int_equal(got.faults[KEV_LIVE_RESET], 1);
    assert_int_equal(got.begins, 2);
    assert_int_equal(got.ends, 2);
    assert_int_equal(got.complete, 1);
    assert_int_equal(kev_live_counts(l)->segments, 2);
    assert_true(kev_live_done(l));
    // the second segment's bytes end the file; its events end the list
    assert_true(got.flen > b.len);
    assert_memory_equal(got.file + got.flen - b.len, b.data, b.len);
    assert_memory_equal(got.h + got.n - want.n, want.h, want.n * sizeof(uint64_t));
    kev_live_free(l);
    seen_free(&got);
    seen_free(&want);
    free(in);
    frames_free(&fa);
    frames_free(&fb);
    kcap_free(&a);
    kcap_free(&b);
}

// A consumer attached after some buffers: the header at once, then the units from the next
// one, and the events of those units only.
static void test_late_attach(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 20000, 300);
    size_t u[600];
    size_t nu = units_of(c.data, c.len, u, 590);
    struct seen first = { 0 }, late = { 0 }, want = { 0 };
    struct kev_live *l = kev_live_new("test");
    struct kev_live_consumer c1 = consumer(&first), c2 = consumer(&late);
    kev_live_attach(l, &c1);
    kev_live_feed(l, c.data, u[5]);          // header, page, 3 buffers
    assert_int_equal(kev_live_attach(l, &c2), 0);
    assert_int_equal(late.begins, 1);
    assert_int_equal(late.flen, u[2]);       // the header and system page
    kev_live_feed(l, c.data + u[5], c.len - u[5]);
    assert_true(kev_live_done(l));
    assert_int_equal(late.flen, u[2] + c.len - u[5]);
    assert_memory_equal(late.file + u[2], c.data + u[5], c.len - u[5]);
    // its events: the file decoder's from the 4th buffer on
    decode_file(c.data, c.len, &want);
    size_t skip = want.n - late.n;
    assert_true(skip > 0 && late.n > 0);
    assert_memory_equal(late.h, want.h + skip, late.n * sizeof(uint64_t));
    assert_int_equal(first.n, want.n);
    (void)nu;
    kev_live_free(l);
    seen_free(&first);
    seen_free(&late);
    seen_free(&want);
    kcap_free(&c);
}

// A stream that stops mid-frame: the end says so once; what came before is whole.
static void test_stream_cut_at_end(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 20000);
    uint8_t *in = x.in;
    size_t n = cat(in, 0, &x.fs, 0, 20);
    memcpy(in + n, x.fs.f[20], 100);
    n += 100;
    struct seen got = { 0 };
    struct kev_live *l = run(in, n, 512, &got);
    assert_int_equal(got.faults[KEV_LIVE_CUT], 1);
    assert_int_equal(total_faults(&got), 1);
    assert_non_null(strstr(got.last_fault, "without its END frame"));
    assert_false(kev_live_sound(l));
    assert_int_equal(got.ends, 1);
    assert_int_equal(got.complete, 0);
    kev_live_free(l);
    seen_free(&got);
    framed_free(&x);
}


// The live reader over in[0..n) with the promise checker beside the keeping consumer.
static struct kev_live *run2(const uint8_t *in, size_t n, size_t max, struct seen *s,
                             struct promise *p)
{
    struct kev_live *l = kev_live_new("test");
    struct kev_live_consumer c = consumer(s);
    const struct kev_live_consumer pc = { .user = p, .event = p_event, .time = p_time };
    kev_live_attach(l, &c);
    kev_live_attach(l, &pc);
    feed(l, in, n, max, (unsigned)n);
    if (!kev_live_done(l))
        kev_live_finish(l);
    return l;
}

// A HEARTBEAT one cycle past the first event of the buffer after it (a logger that read its
// clock after an event it had not sent): the claim fails when that buffer comes; said once,
// counted; no consumer is given an event before a time it was told had passed.
static void test_heartbeat_past_next_buffer(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 20000);
    size_t u[600];
    units_of(x.c.data, x.c.len, u, 590);
    unsigned k = 0;                      // the DATA frame that starts the 5th buffer
    while (file_at(&x.fs, k) < u[6])
        k++;
    assert_int_equal(file_at(&x.fs, k), u[6]);
    uint64_t t = first_time_at(x.c.data, x.c.len, u[6], u[7]);
    struct extra hb = heartbeat_at(k, t + 1, u[6]);
    size_t n = restream(x.in, &x.fs, &hb, 1, x.c.data, x.c.len, 0);
    struct seen got = { 0 };
    struct promise p = { 0 };
    struct kev_live *l = run2(x.in, n, 800, &got, &p);
    assert_int_equal(p.broken, 0);
    assert_int_equal(got.faults[KEV_LIVE_CLAIM], 1);
    assert_int_equal(total_faults(&got), 1);
    assert_non_null(strstr(got.last_fault, "heartbeat"));
    assert_true(kev_live_counts(l)->late_events >= 1);
    assert_true(kev_live_sound(l));      // the file is the board's: only the live view lost
    assert_memory_equal(got.file, x.c.data, x.c.len);
    kev_live_free(l);
    seen_free(&got);
    framed_free(&x);
}

// HEARTBEATs far ahead (2^50 cycles, 2^64-1), behind the events shown, or at an offset the
// stream did not send: each refused, said once, counted; the time given never jumps; every
// event is given.
static void test_heartbeat_claims(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 20000);
    struct seen want = { 0 };
    decode_file(x.c.data, x.c.len, &want);
    size_t u[600];
    units_of(x.c.data, x.c.len, u, 590);
    unsigned k[4] = { 0 };
    for (unsigned b = 0; b < 4; b++)
        while (file_at(&x.fs, k[b]) < u[4 + b])
            k[b]++;
    uint64_t t5 = first_time_at(x.c.data, x.c.len, u[5], u[6]);
    struct extra hb[4] = { heartbeat_at(k[0], 1ull << 50, u[4]),
                           heartbeat_at(k[1], UINT64_MAX, u[5]),
                           heartbeat_at(k[2], 5, u[6]),               // behind its events
                           heartbeat_at(k[3], t5 + 1000000, 12345) }; // not the bytes sent
    size_t n = restream(x.in, &x.fs, hb, 4, x.c.data, x.c.len, 0);
    struct seen got = { 0 };
    struct promise p = { 0 };
    struct kev_live *l = run2(x.in, n, 3000, &got, &p);
    assert_int_equal(got.faults[KEV_LIVE_CLAIM], 4);
    assert_int_equal(total_faults(&got), 4);
    assert_int_equal(p.broken, 0);
    assert_true(p.given < (1ull << 40));
    assert_int_equal(got.n, want.n);     // every event given, none held back by a lie
    assert_int_equal(kev_live_counts(l)->late_events, 0);
    assert_true(kev_live_sound(l));
    kev_live_free(l);
    seen_free(&got);
    seen_free(&want);
    framed_free(&x);
}

static struct extra loss_at(unsigned before, uint64_t events, uint64_t total, uint32_t cpu,
                            uint32_t buffers)
{
    struct extra x = { before, KS_LOSS, { 0 }, KS_LOSS_BYTES };
    const struct ks_loss s = { 100, 200, 0, events, total, cpu, KS_LOSS_HOST_STALL, buffers, 3 };
    ks_loss_put(x.p, &s);
    return x;
}

struct losses {
    uint64_t events;
    unsigned n;
};

static void l_loss(void *user, struct kev_reader *r, const struct ks_loss *s)
{
    struct losses *k = user;
    (void)r;
    k->events += s->events;
    k->n++;
}

// LOSS frames whose counts no buffer could hold (2^64-1 events, more than their buffers
// hold, a running total that goes back, a CPU the header does not name): refused, said once,
// counted, never handed on; a sound one beside them is.
static void test_loss_claims(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 20000);
    struct extra lf[5] = { loss_at(5, UINT64_MAX, UINT64_MAX, 0, 1),
                           loss_at(6, 5000, 5000, 0, 2),       // 2 buffers hold 2048 at most
                           loss_at(7, 100, 100, 0, 1),         // sound
                           loss_at(8, 10, 50, 0, 1),           // its total went back
                           loss_at(9, 10, 10, 7, 1) };         // CPU 7 of 1
    size_t n = restream(x.in, &x.fs, lf, 5, x.c.data, x.c.len, 0);
    struct seen got = { 0 };
    struct losses k = { 0 };
    struct kev_live *l = kev_live_new("test");
    struct kev_live_consumer c = consumer(&got);
    const struct kev_live_consumer lc = { .user = &k, .loss = l_loss };
    kev_live_attach(l, &c);
    kev_live_attach(l, &lc);
    feed(l, x.in, n, 4000, 1);
    assert_true(kev_live_done(l));
    assert_int_equal(got.faults[KEV_LIVE_CLAIM], 4);
    assert_int_equal(total_faults(&got), 4);
    assert_int_equal(k.n, 1);
    assert_int_equal(k.events, 100);
    assert_int_equal(kev_live_counts(l)->board_lost, 100);
    kev_live_free(l);
    seen_free(&got);
    framed_free(&x);
}

// A DATA payload changed under a frame CRC made good, after a harmless fault (garbage between
// frames; a frame again): the END frame's whole-file CRC still catches it, said, not sound.
static void test_end_crc_after_harmless_fault(void **st)
{
    (void)st;
    for (int kind = 0; kind < 2; kind++) {
        struct framed x;
        framed_make(&x, 20000);
        uint8_t *in = x.in;
        size_t n = cat(in, 0, &x.fs, 0, 9);
        if (kind == 0) {
            memcpy(in + n, "garbage", 7);
            n += 7;
        } else {
            n = cat(in, n, &x.fs, 8, 9);
        }
        // frame 12's payload: one bit of a payload word flipped, its CRC made good
        uint8_t f[KS_MAX_FRAME];
        size_t len = x.fs.n[12] - KS_HDR_BYTES - KS_CRC_BYTES;
        memcpy(f, x.fs.f[12] + KS_HDR_BYTES, len);
        f[40] ^= 0x10;
        n = cat(in, n, &x.fs, 9, 12);
        n += ks_frame(in + n, KS_DATA, 12, f, len);
        n = cat(in, n, &x.fs, 13, x.fs.count);
        struct seen got = { 0 };
        struct kev_live *l = run(in, n, 1500, &got);
        assert_false(kev_live_sound(l));
        assert_int_equal(got.faults[KEV_LIVE_DAMAGED], 1);
        assert_non_null(strstr(got.last_fault, "END"));
        kev_live_free(l);
        seen_free(&got);
        framed_free(&x);
    }
}

// An END frame early, true to the bytes before it, then the rest of the stream: said as a
// claim the stream contradicts, and the reader goes on: every event, the whole file.
static void test_early_end(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 20000);
    struct seen want = { 0 };
    decode_file(x.c.data, x.c.len, &want);
    unsigned k = 10;
    size_t at = file_at(&x.fs, k);
    struct extra e = { k, KS_END, { 0 }, 8 };
    uint32_t crc = ks_crc32(0, x.c.data, at);
    for (int i = 0; i < 4; i++)
        e.p[i] = (uint8_t)(at >> (8 * i)), e.p[4 + i] = (uint8_t)(crc >> (8 * i));
    size_t n = restream(x.in, &x.fs, &e, 1, x.c.data, x.c.len, 0);
    struct seen got = { 0 };
    struct kev_live *l = run(x.in, n, 2000, &got);
    assert_int_equal(got.faults[KEV_LIVE_CLAIM], 1);
    assert_int_equal(total_faults(&got), 1);
    assert_int_equal(got.n, want.n);
    assert_int_equal(got.flen, x.c.len);
    assert_true(kev_live_done(l));
    assert_true(kev_live_sound(l));
    kev_live_free(l);
    // the stream ends there: said, with why
    seen_free(&got);
    n = 0;
    for (unsigned i = 0; i < k; i++)
        n += x.fs.n[i];
    n += ks_frame(x.in + n, KS_END, (uint16_t)k, e.p, 8);
    l = run(x.in, n, 2000, &got);
    assert_false(kev_live_sound(l));
    assert_non_null(strstr(got.last_fault, "trailer"));
    kev_live_free(l);
    seen_free(&got);
    seen_free(&want);
    framed_free(&x);
}

// A LOSS frame damaged on the way (its CRC fails) between two buffers: no file byte was lost,
// the END frame's length and CRC agree with the file written: sound (the damage said).
static void test_damaged_loss_frame(void **st)
{
    (void)st;
    struct framed x;
    framed_make(&x, 20000);
    size_t u[600];
    units_of(x.c.data, x.c.len, u, 590);
    unsigned k = 0;
    while (file_at(&x.fs, k) < u[5])
        k++;
    struct extra lf = loss_at(k, 100, 100, 0, 1);
    size_t n = restream(x.in, &x.fs, &lf, 1, x.c.data, x.c.len, 0);
    // the LOSS frame's first payload byte flipped (frames before it: k DATA frames)
    size_t off = 0;
    for (unsigned i = 0; i < k; i++)
        off += x.fs.n[i];
    assert_int_equal(x.in[off + 2], KS_LOSS);
    x.in[off + KS_HDR_BYTES] ^= 1;
    struct seen got = { 0 };
    struct kev_live *l = run(x.in, n, 1000, &got);
    assert_int_equal(got.faults[KEV_LIVE_CUT], 1);
    assert_memory_equal(got.file, x.c.data, x.c.len);
    assert_true(kev_live_sound(l));
    kev_live_free(l);
    seen_free(&got);
    framed_free(&x);
}

// ---- the rows of the reader's state table that no stream above reaches ------------------------

// The events the file decoder gives for units [from, to) of file (u: units_of's offsets).
static uint64_t events_in(const uint8_t *file, size_t flen, const size_t *u, size_t from,
                          size_t to)
{
    assert_int_equal(kev_open_head(&rd, file, flen), 0);
    uint64_t n = 0;
    struct kev_event e;
    for (size_t i = from; i < to; i++) {
        kev_feed(&rd, file + u[i], u[i + 1] - u[i]);
        while (kev_next(&rd, &e) == 1)
            n++;
    }
    return n;
}

static const size_t row_pieces[] = { 1, 7, 1000, 1u << 20 };

// UNITS, HEADER: a raw file cut after its 4th buffer, then another whole: a reset, two
// segments; every byte of both given as units, the first's events its 4 buffers' (the
// decoder's over them), then the second's, the same as the decoder's over it.
static void test_raw_reset_at_unit(void **st)
{
    (void)st;
    struct kcap a, b;
    make_trace(&a, 20000, 300);
    make_trace(&b, 10000, 300);
    size_t u[600];
    units_of(a.data, a.len, u, 590);
    size_t cut = u[6];
    uint8_t *in = malloc(cut + b.len);
    memcpy(in, a.data, cut);
    memcpy(in + cut, b.data, b.len);
    struct seen want_a = { 0 }, want_b = { 0 };
    decode_file(a.data, a.len, &want_a);
    decode_file(b.data, b.len, &want_b);
    uint64_t n1 = events_in(a.data, a.len, u, 2, 6);
    assert_true(n1 > 0 && n1 < want_a.n);
    for (unsigned i = 0; i < sizeof(row_pieces) / sizeof(row_pieces[0]); i++) {
        struct seen got = { 0 };
        struct kev_live *l = run(in, cut + b.len, row_pieces[i], &got);
        assert_int_equal(got.faults[KEV_LIVE_RESET], 1);
        assert_int_equal(total_faults(&got), 1);
        assert_int_equal(got.begins, 2);
        assert_int_equal(got.ends, 2);
        assert_int_equal(got.complete, 1);
        assert_int_equal(got.flen, cut + b.len);
        assert_memory_equal(got.file, in, cut + b.len);
        assert_int_equal(got.n, n1 + want_b.n);
        assert_memory_equal(got.h, want_a.h, n1 * sizeof(uint64_t));
        assert_memory_equal(got.h + n1, want_b.h, want_b.n * sizeof(uint64_t));
        kev_live_free(l);
        seen_free(&got);
    }
    seen_free(&want_a);
    seen_free(&want_b);
    free(in);
    kcap_free(&a);
    kcap_free(&b);
}

// HEAD, HEAD_BAD: a header of a format version no decoder knows, its file after it, then a
// sound file: the bad header said once, nothing of its file given; the sound file given
// byte for byte with the decoder's events.
static void test_raw_bad_header(void **st)
{
    (void)st;
    struct kcap a, b;
    make_trace(&a, 5000, 300);
    make_trace(&b, 10000, 300);
    uint8_t *in = malloc(a.len + b.len);
    memcpy(in, a.data, a.len);
    memcpy(in + a.len, b.data, b.len);
    const char *major = "TRACE_VER_MAJOR::";
    size_t at = 0, k = strlen(major);
    while (at + k < a.len && memcmp(in + at, major, k) != 0)
        at++;
    assert_true(at + k < a.len);
    in[at + k] = '9';
    struct seen want = { 0 };
    decode_file(b.data, b.len, &want);
    for (unsigned i = 0; i < sizeof(row_pieces) / sizeof(row_pieces[0]); i++) {
        struct seen got = { 0 };
        struct kev_live *l = run(in, a.len + b.len, row_pieces[i], &got);
        assert_int_equal(got.faults[KEV_LIVE_DAMAGED], 1);
        assert_int_equal(got.begins, 1);
        assert_int_equal(got.complete, 1);
        assert_true(kev_live_done(l));
        assert_int_equal(got.flen, b.len);
        assert_memory_equal(got.file, b.data, b.len);
        assert_int_equal(got.n, want.n);
        assert_memory_equal(got.h, want.h, want.n * sizeof(uint64_t));
        kev_live_free(l);
        seen_free(&got);
    }
    seen_free(&want);
    free(in);
    kcap_free(&a);
    kcap_free(&b);
}

// UNITS, BAD: a buffer of a raw file whose BUFFER_END slot was overwritten: said once, that
// buffer lost (counted), the reader goes on at the next buffer; every other event is the
// decoder's over the sound file, in order.
static void test_raw_buffer_without_end(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 20000, 300);
    size_t u[600];
    size_t nu = units_of(c.data, c.len, u, 590);
    assert_true(nu > 8);
    struct seen want = { 0 };
    decode_file(c.data, c.len, &want);
    uint64_t before = events_in(c.data, c.len, u, 2, 5), lost = events_in(c.data, c.len, u, 5, 6);
    uint8_t *in = malloc(c.len);
    memcpy(in, c.data, c.len);
    memset(in + u[6] - KEV_SLOT_BYTES, 0, KEV_SLOT_BYTES);   // the 4th buffer's BUFFER_END
    for (unsigned i = 0; i < sizeof(row_pieces) / sizeof(row_pieces[0]); i++) {
        struct seen got = { 0 };
        struct kev_live *l = run(in, c.len, row_pieces[i], &got);
        assert_int_equal(got.faults[KEV_LIVE_DAMAGED], 1);
        assert_non_null(strstr(got.last_fault, "starts no whole unit (a buffer damaged"));
        assert_int_equal(kev_live_counts(l)->buffers_lost, 1);
        assert_int_equal(got.n, want.n - lost);
        assert_memory_equal(got.h, want.h, before * sizeof(uint64_t));
        assert_memory_equal(got.h + before, want.h + before + lost,
                            (want.n - before - lost) * sizeof(uint64_t));
        assert_int_equal(got.flen, c.len - (u[6] - u[5]));   // the file without that buffer
        assert_memory_equal(got.file, c.data, u[5]);
        kev_live_free(l);
        seen_free(&got);
    }
    seen_free(&want);
    free(in);
    kcap_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_pieces),
        cmocka_unit_test(test_framed_pieces),
        cmocka_unit_test(test_garbage_between_frames),
        cmocka_unit_test(test_frame_missing),
        cmocka_unit_test(test_frame_cut),
        cmocka_unit_test(test_frame_repeated),
        cmocka_unit_test(test_buffer_repeated),
        cmocka_unit_test(test_buffer_out_of_order),
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_late_attach),
        cmocka_unit_test(test_stream_cut_at_end),
        cmocka_unit_test(test_heartbeat_past_next_buffer),
        cmocka_unit_test(test_heartbeat_claims),
        cmocka_unit_test(test_loss_claims),
        cmocka_unit_test(test_end_crc_after_harmless_fault),
        cmocka_unit_test(test_early_end),
        cmocka_unit_test(test_damaged_loss_frame),
        cmocka_unit_test(test_raw_reset_at_unit),
        cmocka_unit_test(test_raw_bad_header),
        cmocka_unit_test(test_raw_buffer_without_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
