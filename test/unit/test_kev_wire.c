// SPDX-License-Identifier: MIT
// Unit tests of the compact wire encoding (trace/kev_wire.c) and its expansion by the live
// reader (tools/common/kev_live.c): each event's encoding is its row's (the board's generated
// table agrees with the host's reading of the table for every header); a capture sent as the
// tracelogger sends it (header DATA, each buffer's KEY and SLOTS frames, trailer DATA, END with
// its length alone) comes back as the capture's file byte for byte, in pieces of every size;
// slots no code fits (more headers than the dictionary, another CPU's, any word) come back
// too; and a damaged stream (every bit of a frame flipped in turn, a SLOTS frame lost or
// refused, a KEY frame lost, a reader that joins in the middle) never crashes, says and counts
// what it lost, and keeps the rest (a buffer that lost a middle frame with a DROPPED event in
// its place).
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
#include <trace/kev_wire.h>
#include <trace/trace_ring.h>
#include <kevhost/kev_capture.h>
#include <kevhost/kev_live.h>
#include <kevhost/kev_wire_stream.h>
#define KEV_WIRE_ROWS
#include <kev_emit_gen.h>

#define NBUF 4u
static struct kev_slot mem[NBUF * KEV_BUF_SLOTS];
static struct trace_ring ring;

static void make_trace(struct kcap *c, uint64_t n)
{
    memset(&trace_host_port, 0, sizeof(trace_host_port));
    assert_int_equal(trace_ring_init(&ring, mem, sizeof(mem), NBUF), 0);
    assert_int_equal(trace_ring_set_policy(&ring, TRACE_POLICY_SWITCH), 0);
    trace_filter_all(&ring, 1);
    assert_int_equal(trace_ring_start(&ring), 0);
    kcap_begin(c, 0, 25000000);
    kcap_workload(&ring, c, n, 7, 300);
    kcap_finish(c, &ring);
}

// ---- the stream the tracelogger sends for a file ----------------------------------------------

struct frame {
    uint8_t *f;
    size_t n;
    unsigned type;
    int buffer;         // the buffer (0, 1, ...) a SLOTS frame is of, else -1
};

struct stream {
    struct frame fr[4096];
    unsigned count;
    size_t bufs[256][2]; // each buffer's bytes in the file: start, end
    unsigned nbufs;
};

static void put(void *user, const uint8_t *fr, size_t n, unsigned type, size_t a, size_t z)
{
    struct stream *s = user;
    assert_true(s->count < 4096);
    struct frame *f = &s->fr[s->count++];
    f->f = malloc(n);
    assert_non_null(f->f);
    memcpy(f->f, fr, n);
    f->n = n;
    f->type = type;
    f->buffer = -1;
    if (type == KS_SLOTS) {
        if (!s->nbufs || s->bufs[s->nbufs - 1][0] != a) {
            assert_true(s->nbufs < 256);
            s->bufs[s->nbufs][0] = a;
            s->bufs[s->nbufs][1] = z;
            s->nbufs++;
        }
        f->buffer = (int)s->nbufs - 1;
    }
}

// As tracelogger/stream.c sends it (kev_wire_stream.h).
static void stream_of(const uint8_t *p, size_t len, struct stream *s)
{
    memset(s, 0, sizeof(*s));
    const char *why = NULL;
    assert_int_equal(kev_wire_stream(p, len, put, s, &why), 0);
}

static void stream_free(struct stream *s)
{
    for (unsigned i = 0; i < s->count; i++)
        free(s->fr[i].f);
}

// Frames [a, b) but those leave_out says, end to end into out; its length.
static size_t cat(uint8_t *out, const struct stream *s, unsigned a, unsigned b,
                  int (*leave_out)(const struct frame *f, unsigned i))
{
    size_t at = 0;
    for (unsigned i = a; i < b && i < s->count; i++)
        if (!leave_out || !leave_out(&s->fr[i], i)) {
            memcpy(out + at, s->fr[i].f, s->fr[i].n);
            at += s->fr[i].n;
        }
    return at;
}

// ---- the live reader over a stream ------------------------------------------------------------

struct seen {
    uint8_t *file;
    size_t flen, fcap;
    unsigned faults[KEV_LIVE_NFAULTS];
};

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

static void c_fault(void *user, enum kev_live_fault f, const char *what)
{
    ((struct seen *)user)->faults[f]++;
    if (getenv("LIVE_TEST_SAY"))
        fprintf(stderr, "%s\n", what);
}

static struct kev_live *run(const uint8_t *in, size_t n, size_t max, struct seen *s)
{
    memset(s, 0, sizeof(*s));
    struct kev_live *l = kev_live_new("test");
    assert_non_null(l);
    struct kev_live_consumer c = { .user = s, .unit = c_unit, .fault = c_fault };
    assert_int_equal(kev_live_attach(l, &c), 0);
    uint32_t x = (uint32_t)n * 2654435761u + 1u;
    for (size_t off = 0; off < n;) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        size_t k = 1 + x % max;
        if (k > n - off)
            k = n - off;
        kev_live_feed(l, in + off, k);
        off += k;
    }
    if (!kev_live_done(l))
        kev_live_finish(l);
    return l;
}

static unsigned total_faults(const struct seen *s)
{
    unsigned t = 0;
    for (unsigned f = 0; f < KEV_LIVE_NFAULTS; f++)
        t += s->faults[f];
    return t;
}

// ---- the tests --------------------------------------------------------------------------------

// Each event's encoding is its row's: the board's table (emitgen's, kev_emit_gen.h) answers as
// the host's reading of the table for every header; and a few rows, by their fields' kinds.
static void test_encodings_are_the_rows(void **st)
{
    (void)st;
    for (unsigned type = 0; type < 4; type++)
        for (unsigned cls = 0; cls < KEV_NCLASS; cls++)
            for (unsigned ev = 0; ev <= KEV_EVENT_MASK; ev++) {
                uint32_t h = KEV_HEADER(type, cls, ev, 0);
                if (kev_wire_gen_enc(h) != kev_wire_row_enc(h))
                    fail_msg("type %u class %u event %u: board 0x%02x, table 0x%02x", type, cls,
                             ev, kev_wire_gen_enc(h), kev_wire_row_enc(h));
            }
    // THRUNNING [pid, tid]: ids, as differences
    assert_int_equal(kev_wire_row_enc(KEV_HEADER(0, KEV_C_PR_TH, KEV_TH_RUNNING, 0)),
                     KW_ENC(KW_E_DELTA, KW_E_DELTA));
    // TIME [high, low]: the low word is the slot's own time
    assert_int_equal(kev_wire_row_enc(KEV_HEADER(0, KEV_C_CONTROL, KEV_CTL_TIME, 3)),
                     KW_ENC(KW_E_DELTA, KW_E_TDELTA));
    // BUFFER_END [seq, events]: counts
    assert_int_equal(kev_wire_row_enc(KEV_HEADER(0, KEV_C_CONTROL, KEV_CTL_BUFFER_END, 0)),
                     KW_ENC(KW_E_VAR, KW_E_VAR));
    // REPLY_MESSAGE [rcvid, status]: an id, a signed status
    assert_int_equal(kev_wire_row_enc(KEV_HEADER(0, KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, 0)),
                     KW_ENC(KW_E_DELTA, KW_E_SVAR));
    // ClockCycles' exit [cycles low, high] (its layout "Ccycles"): the low word near the time
    assert_int_equal(kev_wire_row_enc(KEV_HEADER(0, KEV_C_KER_CALL, KEV_KC_EXIT(69), 0)),
                     KW_ENC(KW_E_TDELTA, KW_E_DELTA));
    // an errno-style call's exit [result, 0 | errno]
    assert_int_equal(kev_wire_row_enc(KEV_HEADER(0, KEV_C_KER_CALL, KEV_KC_EXIT(14), 0)),
                     KW_ENC(KW_E_SVAR, KW_E_VAR));
    // a name's later slots: its text as it is
    assert_int_equal(kev_wire_row_enc(KEV_HEADER(KEV_TYPE_CE, KEV_C_PR_TH, KEV_PR_THREAD_NAME, 0)),
                     KW_ENC(KW_E_RAW, KW_E_RAW));
}

// A capture sent compact comes back byte for byte, in pieces of every size, in about a third of
// the bytes; the END frame's length is checked.
static void test_capture_comes_back(void **st)
{
    (void)st;
    static struct stream s;
    struct kcap c;
    make_trace(&c, 40000);
    stream_of(c.data, c.len, &s);
    uint8_t *in = malloc(c.len);
    size_t n = cat(in, &s, 0, s.count, NULL);
    assert_true(n * 5 < c.len * 2);    // (under 40% of the file)
    size_t maxes[] = { 1, 13, 1036, 9000 };
    for (unsigned i = 0; i < 4; i++) {
        struct seen got;
        struct kev_live *l = run(in, n, maxes[i], &got);
        assert_int_equal(total_faults(&got), 0);
        assert_true(kev_live_sound(l));
        assert_int_equal(got.flen, c.len);
        assert_memory_equal(got.file, c.data, c.len);
        kev_live_free(l);
        free(got.file);
    }
    // the END frame's length wrong by one: said, not sound
    struct frame *end = &s.fr[s.count - 1];
    uint8_t pl[8] = { 0 };
    for (int i = 0; i < 4; i++)
        pl[i] = (uint8_t)((c.len + 1) >> (8 * i));
    end->n = ks_frame_flags(end->f, KS_END, KS_END_LEN_ONLY, (uint16_t)(s.count - 1), pl, 8);
    n = cat(in, &s, 0, s.count, NULL);
    struct seen got;
    struct kev_live *l = run(in, n, 4096, &got);
    assert_false(kev_live_sound(l));
    assert_int_equal(got.faults[KEV_LIVE_DAMAGED], 1);
    kev_live_free(l);
    free(got.file);
    free(in);
    stream_free(&s);
    kcap_free(&c);
}

// Slots no code fits or no encoding expects: more distinct headers than the encoder's
// dictionary holds, another CPU's header, words of every size, time that goes back, a frame
// of any size: each comes back as it was.
static void test_any_slots_come_back(void **st)
{
    (void)st;
    static struct kev_slot in[KEV_BUF_SLOTS + 1], out[KEV_BUF_SLOTS + 1];
    static struct kw_encoder e;
    static struct kw_decoder d;
    static uint8_t pl[KS_MAX_PAYLOAD];
    uint32_t x = 12345u;
    for (unsigned round = 0; round < 40; round++) {
        unsigned n = 1 + round * 25u;
        kw_encoder_init(&e, round & 1 ? kev_wire_row_enc : NULL);
        kw_decoder_init(&d);
        uint32_t t = x;
        for (unsigned i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            unsigned ev = round < 20 ? x % 300u : x % 8u;    // up to 300 headers: RAW past 128
            in[i].header = KEV_HEADER(x >> 30, 1u + x % 7u, ev, i % 97u == 5u ? 9u : 2u);
            t += x % 5u == 0 ? (uint32_t)-(int32_t)(x % 1000u) : x % 3u ? x % 200u : x;
            in[i].data[0] = t;
            in[i].data[1] = x % 3u ? x % 100u : x * 2654435761u;
            in[i].data[2] = x % 4u ? t + x % 9u : (uint32_t)-(int32_t)(x % 7u);
        }
        size_t cap = KW_HDR_BYTES + KW_SLOT_MAX + round * 25u;
        if (cap > sizeof(pl))
            cap = sizeof(pl);
        for (unsigned first = 0; first < n;) {
            size_t len;
            unsigned k = kw_encode(&e, in, first, n, round, pl, cap, &len);
            assert_true(k > 0);
            assert_true(len <= cap);
            struct kw_frame f;
            assert_int_equal(kw_expand(&d, pl, len, &f, out, KEV_BUF_SLOTS + 1), KW_OK);
            assert_int_equal(f.first, first);
            assert_int_equal(f.nslots, k);
            assert_int_equal(f.bseq, round);
            assert_int_equal(!!(f.flags & KW_F_LAST), first + k == n);
            assert_memory_equal(out, in + first, k * sizeof(in[0]));
            first += k;
        }
    }
}

// Every bit of a SLOTS frame flipped in turn (the frame's CRC aside): never a crash, and the
// expansion refused but for the flips its sum cannot see (under 1%).
static void test_bit_flips(void **st)
{
    (void)st;
    static struct stream s;
    static struct kev_slot out[KEV_BUF_SLOTS + 1], want[KEV_BUF_SLOTS + 1];
    struct kcap c;
    make_trace(&c, 3000);
    stream_of(c.data, c.len, &s);
    // the dictionary a reader has at the second buffer's second SLOTS frame
    struct kw_decoder d0, d;
    kw_decoder_init(&d0);
    unsigned target = 0, seen_slots = 0;
    for (unsigned i = 0; i < s.count && !target; i++) {
        struct frame *f = &s.fr[i];
        const uint8_t *p = f->f + KS_HDR_BYTES;
        size_t n = f->n - KS_HDR_BYTES - KS_CRC_BYTES;
        if (f->type == KS_KEY)
            assert_int_equal(kw_take_key(&d0, p, n), KW_OK);
        else if (f->type == KS_SLOTS && f->buffer == 1 && ++seen_slots == 2)
            target = i;
    }
    assert_true(target > 0);
    struct frame *f = &s.fr[target];
    uint8_t *p = f->f + KS_HDR_BYTES;
    size_t n = f->n - KS_HDR_BYTES - KS_CRC_BYTES;
    struct kw_frame fw, fg;
    d = d0;
    assert_int_equal(kw_expand(&d, p, n, &fw, want, KEV_BUF_SLOTS + 1), KW_OK);
    unsigned refused = 0, passed = 0;
    for (size_t bit = 0; bit < n * 8; bit++) {
        p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        d = d0;
        enum kw_error r = kw_expand(&d, p, n, &fg, out, KEV_BUF_SLOTS + 1);
        if (r != KW_OK)
            refused++;
        else if (fg.nslots != fw.nslots || memcmp(out, want, fw.nslots * sizeof(out[0])))
            passed++;
    // (else a flip in a field the slots do not depend on: bseq, first, the LAST flag)
        p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    // The sum checks the expansion against the encoder's slots, not the line (the frame's CRC
    // does): a 32-bit sum lets a flip through when its changes cancel (t0's top bit moves an
    // even number of words by 2^31), about 1 in 700 here.
    assert_true(refused > n * 8 * 9 / 10);
    assert_true(passed * 100 < n * 8);
    // cut short at every length: refused
    for (size_t k = 0; k < n; k++) {
        d = d0;
        assert_int_not_equal(kw_expand(&d, p, k, &fg, out, KEV_BUF_SLOTS + 1), KW_OK);
    }
    stream_free(&s);
    kcap_free(&c);
}

static unsigned drop_frame;
static int skip_one(const struct frame *f, unsigned i)
{
    (void)f;
    return i == drop_frame;
}

// Events (not the ring's own CONTROL slots, nor a combine event's later slots) of the slots
// p[0..n) (little-endian words).
static uint32_t events_in(const uint8_t *p, size_t n)
{
    uint32_t e = 0;
    for (size_t off = 0; off + KEV_SLOT_BYTES <= n; off += KEV_SLOT_BYTES) {
        uint32_t h;
        memcpy(&h, p + off, 4);
        e += kev_hdr_class(h) != KEV_C_CONTROL && kev_hdr_type(h) <= KEV_TYPE_CB;
    }
    return e;
}

// A SLOTS frame lost in the middle of a buffer (missing, or its bytes refused): one fault, the
// frame counted lost and its events counted; the buffer kept with a DROPPED event where its
// slots were (at the last lost slot's time, its count the frame's events, its BUFFER_END counting what remains, as the
// kernel's own buffer after a loss), the file decoding; every other byte the file's.
static void check_slots_lost(int damaged)
{
    static struct stream s;
    static struct kw_decoder d;
    static struct kev_slot slots[KEV_BUF_SLOTS + 1];
    struct kcap c;
    make_trace(&c, 20000);
    stream_of(c.data, c.len, &s);
    unsigned k = 0, in_buf = 0;
    for (unsigned i = 0; i < s.count && !k; i++)
        if (s.fr[i].buffer == 3 && ++in_buf == 2)
            k = i;
    // the frame's slots and events, from its own expansion
    kw_decoder_init(&d);
    struct kw_frame f;
    for (unsigned i = 0; i <= k; i++) {
        const uint8_t *p = s.fr[i].f + KS_HDR_BYTES;
        size_t n = s.fr[i].n - KS_HDR_BYTES - KS_CRC_BYTES;
        if (s.fr[i].type == KS_KEY)
            kw_take_key(&d, p, n);
        else if (s.fr[i].type == KS_SLOTS)
            assert_int_equal(kw_expand(&d, p, n, &f, slots, KEV_BUF_SLOTS + 1), KW_OK);
    }
    size_t lost_at = s.bufs[3][0] + (size_t)f.first * KEV_SLOT_BYTES;
    size_t lost_len = (size_t)f.nslots * KEV_SLOT_BYTES;
    uint32_t lost_events = events_in(c.data + lost_at, lost_len);
    assert_true(lost_events > 0);
    if (damaged) {  // its payload changed under a CRC made good: it does not add up
        struct frame *fr = &s.fr[k];
        fr->f[KS_HDR_BYTES + 20] ^= 0x40;
        size_t n = fr->n - KS_HDR_BYTES - KS_CRC_BYTES;
        uint32_t crc = ks_crc32(0, fr->f + 2, KS_HDR_BYTES - 2 + n);
        for (int i = 0; i < 4; i++)
            fr->f[KS_HDR_BYTES + n + i] = (uint8_t)(crc >> (8 * i));
    }
    drop_frame = damaged ? s.count : k;
    uint8_t *in = malloc(c.len);
    size_t n = cat(in, &s, 0, s.count, skip_one);
    struct seen got;
    struct kev_live *l = run(in, n, 999, &got);
    const struct kev_live_counts *cn = kev_live_counts(l);
    assert_int_equal(total_faults(&got), 1);
    assert_int_equal(got.faults[damaged ? KEV_LIVE_DAMAGED : KEV_LIVE_CUT], 1);
    assert_int_equal(cn->frames_lost, 1);
    assert_int_equal(cn->buffers_lost, 0);
    assert_int_equal(cn->wire_lost_events, lost_events);
    assert_false(kev_live_sound(l));
    // the file: the same up to the lost slots, then one DROPPED slot in their place
    size_t z = s.bufs[3][1];
    assert_int_equal(got.flen, c.len - lost_len + KEV_SLOT_BYTES);
    assert_memory_equal(got.file, c.data, lost_at);
    uint32_t w[4];
    memcpy(w, got.file + lost_at, sizeof(w));
    assert_int_equal(w[0], KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, KEV_CTL_DROPPED, f.cpu));
    uint32_t t_last;    // (its time: the last lost slot's, the next frame's t0)
    memcpy(&t_last, c.data + lost_at + lost_len - KEV_SLOT_BYTES + 4, 4);
    assert_int_equal(w[1], t_last);
    assert_int_equal(w[2], lost_events);
    size_t after = lost_at + lost_len, got_after = lost_at + KEV_SLOT_BYTES;
    assert_memory_equal(got.file + got_after, c.data + after, z - after - 8);
    memcpy(w, got.file + got_after + (z - after) - KEV_SLOT_BYTES, sizeof(w));
    uint32_t board_events;
    memcpy(&board_events, c.data + z - 4, 4);
    assert_int_equal(w[3], board_events - lost_events);     // BUFFER_END: what remains
    size_t trl = c.len - kev_trailer_len(1);    // (the trailer moves them to the lost)
    assert_memory_equal(got.file + got_after + (z - after), c.data + z, trl - z);
    // and the file decodes, the loss counted where it happened and in the trailer
    static struct kev_reader rd;
    assert_int_equal(kev_open(&rd, got.file, got.flen), 0);
    if (kev_decode(&rd) != 0)
        fail_msg("the file does not decode: %s", kev_error(&rd));
    kev_live_free(l);
    free(got.file);
    free(in);
    stream_free(&s);
    kcap_free(&c);
}

static void test_slots_frame_lost(void **st)
{
    (void)st;
    check_slots_lost(0);
}

static void test_slots_frame_refused(void **st)
{
    (void)st;
    check_slots_lost(1);
}

// The first buffer's frames (which define its codes inline) and the KEY frame after them
// lost: the frames that use those codes do not expand (said once, each counted, each buffer
// counted lost), until the next whole KEY, from which every buffer is kept.
static unsigned drop_from, drop_to;
static int skip_range(const struct frame *f, unsigned i)
{
    (void)f;
    return i >= drop_from && i <= drop_to;
}

static void test_key_lost(void **st)
{
    (void)st;
    static struct stream s;
    struct kcap c;
    make_trace(&c, 60000);
    stream_of(c.data, c.len, &s);
    assert_true(s.nbufs > KW_KEY_EVERY + 1);
    drop_from = drop_to = 0;
    for (unsigned i = 0; i < s.count && !drop_to; i++) {
        if (!drop_from && s.fr[i].buffer == 0)
            drop_from = i;
        if (drop_from && s.fr[i].type == KS_KEY)
            drop_to = i;
    }
    assert_true(drop_to > drop_from && s.fr[drop_to + 1].buffer == 1);
    uint8_t *in = malloc(c.len);
    size_t n = cat(in, &s, 0, s.count, skip_range);
    struct seen got;
    struct kev_live *l = run(in, n, 4000, &got);
    const struct kev_live_counts *cn = kev_live_counts(l);
    assert_int_equal(got.faults[KEV_LIVE_CUT], 2); // the gap, the codes that are missing
    assert_false(kev_live_sound(l));
    // the header kept; every buffer before the whole KEY (buffer KW_KEY_EVERY) lost, counted
    // (buffer 0 with the gap), every one from it on kept
    size_t from = s.bufs[KW_KEY_EVERY][0];
    assert_int_equal(got.flen, s.bufs[0][0] + c.len - from);
    assert_memory_equal(got.file, c.data, s.bufs[0][0]);
    assert_memory_equal(got.file + s.bufs[0][0], c.data + from, c.len - from);
    assert_int_equal(cn->buffers_lost, KW_KEY_EVERY - 1);
    unsigned slots_frames = 0;
    for (unsigned i = drop_to + 1; i < s.count; i++)
        slots_frames += s.fr[i].buffer >= 1 && s.fr[i].buffer < (int)KW_KEY_EVERY;
    assert_int_equal(cn->frames_lost, drop_to - drop_from + 1 + slots_frames);
    kev_live_free(l);
    free(got.file);
    free(in);
    stream_free(&s);
    kcap_free(&c);
}

// A reader that joins in the middle (the header frames, as kevrelay gives a late reader, then
// the stream from a frame of buffer 2): nothing expands before the next whole KEY; from it on
// every buffer is the file's.
static void test_join_late(void **st)
{
    (void)st;
    static struct stream s;
    struct kcap c;
    make_trace(&c, 60000);
    stream_of(c.data, c.len, &s);
    unsigned head = 0, k = 0;
    while (s.fr[head].type == KS_DATA)
        head++;
    for (unsigned i = 0; i < s.count && !k; i++)
        if (s.fr[i].buffer == 2)
            k = i + 1;
    uint8_t *in = malloc(c.len);
    size_t n = cat(in, &s, 0, head, NULL);
    n += cat(in + n, &s, k, s.count, NULL);
    struct seen got;
    struct kev_live *l = run(in, n, 3000, &got);
    size_t from = s.bufs[KW_KEY_EVERY][0];
    assert_true(got.flen >= c.len - from);
    assert_memory_equal(got.file + got.flen - (c.len - from), c.data + from, c.len - from);
    assert_memory_equal(got.file, c.data, s.bufs[0][0]);    // the header
    assert_true(kev_live_counts(l)->frames_lost > 0);
    assert_false(kev_live_sound(l));
    kev_live_free(l);
    free(got.file);
    free(in);
    stream_free(&s);
    kcap_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encodings_are_the_rows),
        cmocka_unit_test(test_capture_comes_back),
        cmocka_unit_test(test_any_slots_come_back),
        cmocka_unit_test(test_bit_flips),
        cmocka_unit_test(test_slots_frame_lost),
        cmocka_unit_test(test_slots_frame_refused),
        cmocka_unit_test(test_key_lost),
        cmocka_unit_test(test_join_late),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
