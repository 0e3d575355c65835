// SPDX-License-Identifier: MIT
// Unit tests of the .kev writer and decoder (trace/kev_file.c, trace/kev_decode.c): round
// trips through the ring and a host capture in both byte orders, exact events with combine
// reassembly, strings and 64-bit time, loss accounting for every policy, and damaged input
// (truncated, wrong magic/version, byte-swapped, random bytes, unterminated combine events);
// the stream's CRC-32; the header's standard items read back one by one, and refused items.
#define _GNU_SOURCE // memmem
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

#define NBUF 4u
static struct kev_slot mem[NBUF * KEV_BUF_SLOTS];
static struct trace_ring ring;
static struct kev_reader rd;

static void ring_up(unsigned nbufs, unsigned policy)
{
    memset(&trace_host_port, 0, sizeof(trace_host_port));
    assert_int_equal(trace_ring_init(&ring, mem, sizeof(mem), nbufs), 0);
    assert_int_equal(trace_ring_set_policy(&ring, policy), 0);
    trace_filter_all(&ring, 1);
    assert_int_equal(trace_ring_start(&ring), 0);
}

// A workload trace of n events captured by a logger draining every `drain` events.
static uint64_t make_trace(struct kcap *c, int big, unsigned policy, uint64_t n, unsigned drain)
{
    ring_up(NBUF, policy);
    ring.tr_big = (unsigned)big; // strings in the file's byte order, as a big-endian target
    kcap_begin(c, big, 25000000);
    uint64_t emitted = kcap_workload(&ring, c, n, 3, drain);
    kcap_finish(c, &ring);
    return emitted;
}

static int count_cb(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    if (e->cls != KEV_C_CONTROL)
        (*(uint64_t *)user)++;
    return 0;
}

static void check_roundtrip(int big, unsigned policy, unsigned drain)
{
    struct kcap c;
    uint64_t emitted = make_trace(&c, big, policy, 30000, drain);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    uint64_t seen = 0;
    kev_set_user(&rd, &seen);
    kev_on_any(&rd, count_cb);
    int rc = kev_decode(&rd);
    if (rc)
        fail_msg("decode: %s", kev_error(&rd));
    assert_int_equal(rd.kr_big, big);
    assert_int_equal(seen, rd.kr_events);
    assert_true(rd.kr_have_trailer);
    if (policy == TRACE_POLICY_FILL) { // tracing stopped when full: nothing lost
        assert_true(rd.kr_trl_flags & KEV_TRL_FILLED);
        assert_int_equal(kev_lost_total(&rd), 0);
        assert_int_equal(rd.kr_buffers, NBUF);
        assert_true(rd.kr_events < emitted);
    } else {
        assert_int_equal(rd.kr_events + kev_lost_total(&rd), emitted); // recorded + lost
    }
    assert_string_equal(kev_proc_name(&rd, 3), "server");
    assert_string_equal(kev_thread_name(&rd, 5, 1), "main");
    assert_string_equal(rd.kr_board, "mps2-an385");
    assert_int_equal(rd.kr_cycles_per_sec, 25000000);
    unsigned n;
    const char *v = kev_attr(&rd, "SYSNAME", &n);
    assert_non_null(v);
    assert_int_equal(n, 8);
    assert_memory_equal(v, "QNX-like", 8);
    if (policy == TRACE_POLICY_OVERWRITE) // overwritten buffers leave sequence gaps
        assert_true(rd.kr_seq_missing > 0);
    if (policy == TRACE_POLICY_RING) // the oldest buffers are gone: the first seq shows it
        assert_true(rd.kr_first_seq > 0 && kev_lost_total(&rd) > 0);
    if (drain == 500 && policy == TRACE_POLICY_SWITCH)
        assert_int_equal(kev_lost_total(&rd), 0);
    kcap_free(&c);
}

static void test_roundtrip_little_endian(void **st)
{
    (void)st;
    check_roundtrip(0, TRACE_POLICY_SWITCH, 500);
}

static void test_roundtrip_big_endian(void **st)
{
    (void)st;
    check_roundtrip(1, TRACE_POLICY_SWITCH, 500);
}

static void test_loss_accounting_every_policy(void **st)
{
    (void)st;
    check_roundtrip(0, TRACE_POLICY_SWITCH, 6000);    // slow logger: drops
    check_roundtrip(0, TRACE_POLICY_OVERWRITE, 6000); // slow logger: overwrites
    check_roundtrip(1, TRACE_POLICY_RING, 0);         // flight recorder
    check_roundtrip(0, TRACE_POLICY_FILL, 0);         // stops when full
    // A logger that fails to store buffers says so in the trailer.
    struct kcap c;
    ring_up(NBUF, TRACE_POLICY_SWITCH);
    kcap_begin(&c, 0, 1000);
    c.skip_every = 3;
    uint64_t emitted = kcap_workload(&ring, &c, 20000, 5, 300);
    kcap_finish(&c, &ring);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    assert_int_equal(kev_decode(&rd), 0);
    assert_true(rd.kr_seq_missing > 0);
    assert_true(rd.kr_trl_flags & KEV_TRL_LOGGER_LOSS);
    assert_int_equal(rd.kr_events + kev_lost_total(&rd), emitted);
    kcap_free(&c);
}

// ---- exact events ---------------------------------------------------------------------------

struct seen {
    unsigned n;
    struct kev_event ev[32];
    uint32_t words[32][8];
    char str[32][24];
};

static int record_cb(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct seen *s = user;
    if (s->n >= 32)
        return 1;
    s->ev[s->n] = *e;
    for (unsigned i = 0; i < e->nw && i < 8; i++)
        s->words[s->n][i] = e->w[i];
    kev_event_string(r, e, 2, s->str[s->n], sizeof(s->str[0]));
    s->n++;
    return 0;
}

static void build_exact(struct kcap *c, int big)
{
    ring_up(2, TRACE_POLICY_SWITCH);
    ring.tr_big = (unsigned)big;
    kcap_begin(c, big, 1000000);
    trace_host_port.now = 0x00000001fffffff0ull;
    trace_emit_simple(&ring, KEV_C_PR_TH, KEV_TH_RUNNING, 2, 1);
    uint32_t w[2] = { 1, 9 };
    trace_emit_string(&ring, KEV_C_PR_TH, KEV_PR_CREATE_NAME, w, 2, "a-longer-name");
    trace_host_port.now = 0x0000000200000005ull; // the low word wraps
    uint32_t wide[4] = { 9, 1, 10, 2 };
    trace_emit_words(&ring, KEV_C_PR_TH, KEV_TH_SEM, wide, 4);
    trace_host_port.now = 0x0000000200000009ull;
    trace_emit_simple(&ring, KEV_C_KER_CALL, KEV_KC_EXIT(13), (uint32_t)-22, 0);
    kcap_finish(c, &ring);
}

static void check_exact(int big)
{
    struct kcap c;
    static struct seen s;
    memset(&s, 0, sizeof(s));
    build_exact(&c, big);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    kev_set_user(&rd, &s);
    kev_on_any(&rd, record_cb);
    assert_int_equal(kev_decode(&rd), 0);
    // BUFFER, TIME, RUNNING, CREATE_NAME, TIME (wrap), SEM, KER_EXIT, BUFFER_END
    assert_int_equal(s.n, 8);
    assert_int_equal(s.ev[0].ev, KEV_CTL_BUFFER);
    assert_int_equal(s.ev[2].cls, KEV_C_PR_TH);
    assert_int_equal(s.ev[2].ev, KEV_TH_RUNNING);
    assert_int_equal(s.ev[2].t64, 0x00000001fffffff0ull);
    assert_int_equal(s.words[2][0], 2);
    assert_int_equal(s.words[2][1], 1);
    assert_int_equal(s.ev[3].ev, KEV_PR_CREATE_NAME);
    assert_int_equal(s.ev[3].nslots, 3); // 2 words + 14 bytes of string = 6 words
    assert_int_equal(s.ev[3].nw, 6);
    assert_string_equal(s.str[3], "a-longer-name");
    assert_string_equal(kev_proc_name(&rd, 9), "a-longer-name");
    assert_int_equal(s.ev[4].ev, KEV_CTL_TIME);
    assert_int_equal(s.ev[5].ev, KEV_TH_SEM);
    assert_int_equal(s.ev[5].nw, 4);
    assert_int_equal(s.words[5][2], 10);
    assert_int_equal(s.words[5][3], 2);
    assert_int_equal(s.ev[5].t64, 0x0000000200000005ull);
    assert_int_equal(s.ev[6].cls, KEV_C_KER_CALL);
    assert_int_equal(s.ev[6].ev, 141);
    assert_int_equal(s.words[6][0], (uint32_t)-22);
    assert_int_equal(s.ev[6].t64, 0x0000000200000009ull);
    assert_int_equal(s.ev[7].ev, KEV_CTL_BUFFER_END);
    assert_int_equal(rd.kr_events, 4);
    kcap_free(&c);
}

static void test_exact_events_both_byte_orders(void **st)
{
    (void)st;
    check_exact(0);
    check_exact(1);
}

// Records a process's bad user-event ring had (SYSTEM URING_BAD [pid, n | given up]) are
// rejected, counted apart from losses (a process cannot inflate the loss count): the
// decoder's kev_rejected_total,
// which traceprinter, kevstat and kevreport show, and never in kev_lost_total.
static void test_rejected_apart_from_lost(void **st)
{
    (void)st;
    struct kcap c;
    ring_up(NBUF, TRACE_POLICY_SWITCH);
    kcap_begin(&c, 0, 25000000);
    trace_emit_simple(&ring, KEV_C_USER, 7, 1, 2);
    trace_emit_simple(&ring, KEV_C_SYSTEM, KEV_SYS_URING_BAD, 5, 3);
    trace_emit_simple(&ring, KEV_C_SYSTEM, KEV_SYS_URING_BAD, 5, 8u | KEV_URING_GIVEN_UP);
    kcap_finish(&c, &ring);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    assert_int_equal(kev_decode(&rd), 0);
    assert_int_equal(rd.kr_events, 3);
    assert_int_equal(kev_rejected_total(&rd), 3 + 8);
    assert_int_equal(kev_lost_total(&rd), 0);
    kcap_free(&c);
}

static int stop_cb(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    (void)e;
    return ++*(unsigned *)user == 3;
}

static int class_cb(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    assert_int_equal(e->cls, KEV_C_PR_TH);
    ((unsigned *)user)[1]++;
    return 0;
}

static int event_cb(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    assert_int_equal(e->ev, KEV_TH_SEM);
    ((unsigned *)user)[2]++;
    return 0;
}

static void test_callbacks_by_class_and_event(void **st)
{
    (void)st;
    struct kcap c;
    build_exact(&c, 0);
    unsigned cnt[3] = { 0, 0, 0 };
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    kev_set_user(&rd, cnt);
    kev_on_class(&rd, KEV_C_PR_TH, class_cb);
    assert_int_equal(kev_on_event(&rd, KEV_C_PR_TH, KEV_TH_SEM, event_cb), 0);
    assert_int_equal(kev_decode(&rd), 0);
    assert_int_equal(cnt[1], 2); // RUNNING, CREATE_NAME (SEM goes to its own callback)
    assert_int_equal(cnt[2], 1);
    unsigned calls = 0;
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    kev_set_user(&rd, &calls);
    kev_on_any(&rd, stop_cb);
    assert_int_equal(kev_decode(&rd), KEV_ERR_STOPPED);
    assert_int_equal(calls, 3);
    kcap_free(&c);
}

// ---- damaged input ---------------------------------------------------------------------------

static int decode_copy(const uint8_t *d, size_t n)
{
    uint8_t *copy = malloc(n ? n : 1); // exact size, so ASan sees any overrun
    memcpy(copy, d, n);
    int rc = kev_open(&rd, copy, n);
    if (!rc)
        rc = kev_decode(&rd);
    if (rc)
        assert_true(strlen(kev_error(&rd)) > 10);
    free(copy);
    return rc;
}

static void test_truncated_files(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 0, TRACE_POLICY_SWITCH, 3000, 400);
    assert_int_equal(decode_copy(c.data, c.len), 0);
    for (size_t n = 0; n < c.len; n += n < 2048 ? 1 : 97) {
        int rc = decode_copy(c.data, n);
        assert_int_not_equal(rc, KEV_OK);
        if (n > 2048 && rc != KEV_ERR_TRUNCATED)
            fail_msg("cut at %zu of %zu: %s", n, c.len, kev_error(&rd));
    }
    // Cut at a slot boundary just before the trailer: the message says what is missing.
    assert_int_equal(decode_copy(c.data, c.len - kev_trailer_len(TRACE_MAX_CPUS)),
                     KEV_ERR_TRUNCATED);
    assert_non_null(strstr(kev_error(&rd), "no trailer"));
    kcap_free(&c);
}

static void patch(uint8_t *d, size_t len, const char *from, const char *to)
{
    size_t fl = strlen(from);
    for (size_t i = 0; i + fl <= len; i++)
        if (memcmp(d + i, from, fl) == 0) {
            memcpy(d + i, to, strlen(to));
            return;
        }
    fail_msg("patch: %s not found", from);
}

// The file c with its system page replaced by page[0..plen) (header's SYSPAGE_LEN rewritten).
static uint8_t *with_page(const struct kcap *c, const uint8_t *page, size_t plen, size_t *len)
{
    const char *key = "TRACE_SYSPAGE_LEN::";
    const uint8_t *k = memmem(c->data, c->len, key, strlen(key));
    const uint8_t *e = memmem(c->data, c->len, KEV_FILE_HEADER_END, strlen(KEV_FILE_HEADER_END));
    assert_non_null(k);
    assert_non_null(e);
    size_t kend = (size_t)(k - c->data) + strlen(key), oldlen = strtoul((const char *)c->data + kend, 0, 10);
    size_t digits = 0;
    while (c->data[kend + digits] >= '0' && c->data[kend + digits] <= '9')
        digits++;
    size_t hend = (size_t)(e - c->data) + strlen(KEV_FILE_HEADER_END);
    char num[24];
    snprintf(num, sizeof(num), "%zu", plen);
    size_t rest = c->len - hend - oldlen;
    uint8_t *d = malloc(c->len + 64 + plen);
    size_t n = 0;
    memcpy(d + n, c->data, kend), n += kend;
    memcpy(d + n, num, strlen(num)), n += strlen(num);
    memcpy(d + n, c->data + kend + digits, hend - kend - digits), n += hend - kend - digits;
    memcpy(d + n, page, plen), n += plen;
    memcpy(d + n, c->data + hend + oldlen, rest), n += rest;
    *len = n;
    return d;
}

// The system page is QNX's syspage_entry with our record list after its total_size; a reader
// also takes a file with the record list alone (before 2026-11) and a page that is QNX's alone
// (as QNX's own tracelogger writes it), decoding the same events from all three.
static void test_system_page_forms(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 0, TRACE_POLICY_SWITCH, 3000, 400);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    assert_int_equal(kev_decode(&rd), 0);
    uint64_t events = rd.kr_events;
    assert_string_equal(rd.kr_board, "mps2-an385");
    const uint8_t *page = c.data + rd.kr_sp_off;
    size_t splen = rd.kr_sp_len, total = (size_t)(page[2] | page[3] << 8);
    assert_int_equal(page[0] | page[1] << 8, 156);        // QNX's sizeof(struct syspage_entry)
    assert_int_equal(page[4] | page[5] << 8, 4);          // SYSPAGE_ARM
    size_t blob = (total + 3u) & ~(size_t)3u;
    assert_memory_equal(page + blob, "KYSP", 4);

    size_t len;
    uint8_t *d = with_page(&c, page + blob, splen - blob, &len); // record list alone
    assert_int_equal(kev_open(&rd, d, len), 0);
    if (kev_decode(&rd))
        fail_msg("old page: %s", kev_error(&rd));
    assert_int_equal(rd.kr_events, events);
    assert_string_equal(rd.kr_board, "mps2-an385");
    free(d);

    d = with_page(&c, page, blob, &len); // QNX's page alone
    assert_int_equal(kev_open(&rd, d, len), 0);
    if (kev_decode(&rd))
        fail_msg("QNX page: %s", kev_error(&rd));
    assert_int_equal(rd.kr_events, events);
    assert_string_equal(rd.kr_board, "");
    free(d);

    uint8_t bad[64];
    memcpy(bad, page, sizeof(bad));
    bad[2] = 0xff, bad[3] = 0x7f; // total_size past SYSPAGE_LEN
    d = with_page(&c, bad, sizeof(bad), &len);
    assert_int_equal(kev_open(&rd, d, len), KEV_ERR_SYSPAGE);
    assert_non_null(strstr(kev_error(&rd), "QNX system page size"));
    free(d);
    kcap_free(&c);
}

// The interrupt devices of the system page (KEV_SP_IRQDEV, D's struct dev_info over a
// capture): each record read back in its order with its line, driver number, instance and
// name (a control byte escaped as any name is); a page with none, and a record too short for
// its words and a name, say so.
static void test_system_page_irqdevs(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 0, TRACE_POLICY_SWITCH, 3000, 400);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    uint32_t line, major, inst;
    char name[KEV_NAME_MAX];
    assert_int_equal(kev_sp_irqdev_at(&rd, 0, &line, &major, &inst, name), -1); // none
    static uint8_t page[512];
    struct kev_out o;
    kev_out_init(&o, page, sizeof(page), 0);
    const struct kev_sp_machine m = { KEV_SP_QNX_ARM, 1, 25000000, 0, 25, "Cortex-M3",
                                      "mps2-an385", "armle" };
    kev_sp_begin(&o, &m);
    kev_sp_board(&o, "mps2-an385", 25000000, 1);
    kev_sp_irqdev(&o, 8, 1, 0, "timer");
    kev_sp_proc(&o, 1, 0, "init");
    kev_sp_irqdev(&o, 3, 0, 1, "ua\x01rt");
    size_t plen = kev_sp_end(&o);
    assert_int_equal(o.ko_err, 0);
    size_t len;
    uint8_t *d = with_page(&c, page, plen, &len);
    assert_int_equal(kev_open(&rd, d, len), 0);
    assert_int_equal(kev_sp_irqdev_at(&rd, 0, &line, &major, &inst, name), 0);
    assert_int_equal(line, 8);
    assert_int_equal(major, 1);
    assert_int_equal(inst, 0);
    assert_string_equal(name, "timer");
    assert_int_equal(kev_sp_irqdev_at(&rd, 1, &line, &major, &inst, name), 0);
    assert_int_equal(line, 3);
    assert_int_equal(inst, 1);
    assert_non_null(strstr(name, "ua"));
    assert_null(strchr(name, 1));
    assert_int_equal(kev_sp_irqdev_at(&rd, 2, &line, &major, &inst, name), -1);
    assert_string_equal(kev_proc_name(&rd, 1), "init");
    free(d);

    // a record of type IRQDEV holding two words: too short
    size_t blob = ((size_t)(page[2] | page[3] << 8) + 3u) & ~(size_t)3u, off = blob + 12;
    while ((page[off + 2] | page[off + 3] << 8) != KEV_SP_IRQDEV)
        off += 4 + (((size_t)(page[off] | page[off + 1] << 8) + 3u) & ~(size_t)3u);
    page[off] = 8, page[off + 1] = 0;
    d = with_page(&c, page, plen, &len);
    assert_int_equal(kev_open(&rd, d, len), KEV_ERR_SYSPAGE);
    assert_non_null(strstr(kev_error(&rd), "too short"));
    free(d);
    kcap_free(&c);
}

static void test_bad_magic_version_and_byte_order(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 1, TRACE_POLICY_SWITCH, 2000, 400);
    uint8_t *d = malloc(c.len);

    memcpy(d, c.data, c.len);
    d[3] = 'X';
    assert_int_equal(decode_copy(d, c.len), KEV_ERR_MAGIC);

    memcpy(d, c.data, c.len);
    patch(d, c.len, "TRACE_VER_MINOR::02", "TRACE_VER_MINOR::00");
    assert_int_equal(decode_copy(d, c.len), KEV_ERR_VERSION);
    memcpy(d, c.data, c.len);
    patch(d, c.len, "TRACE_VER_MAJOR::1", "TRACE_VER_MAJOR::2");
    assert_int_equal(decode_copy(d, c.len), KEV_ERR_VERSION);
    assert_non_null(strstr(kev_error(&rd), "version 2.2"));

    // A big-endian file whose header claims little-endian (same length key/value).
    memcpy(d, c.data, c.len);
    patch(d, c.len, "TRACE_BIG_ENDIAN::TRUE", "TRACE_LITTLE_ENDIAN::1");
    assert_int_equal(decode_copy(d, c.len), KEV_ERR_BYTEORDER);
    assert_non_null(strstr(kev_error(&rd), "byte-swapped"));

    memcpy(d, c.data, c.len);
    patch(d, c.len, "TRACE_HEADER_END::", "TRACE_HEADER_FIN::");
    assert_int_equal(decode_copy(d, c.len), KEV_ERR_HEADER);
    free(d);
    kcap_free(&c);
}

static void test_random_bytes_in_the_middle(void **st)
{
    (void)st;
    struct kcap c;
    make_trace(&c, 0, TRACE_POLICY_SWITCH, 5000, 400);
    uint8_t *d = malloc(c.len);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    size_t start = rd.kr_ev_off;
    size_t span = rd.kr_ev_end - start;
    srand(11);
    for (unsigned k = 0; k < 200; k++) {
        memcpy(d, c.data, c.len);
        size_t at = start + (size_t)rand() % (span - 64);
        at &= ~(size_t)15;
        for (unsigned i = 0; i < 64; i++)
            d[at + i] = (uint8_t)rand();
        int rc = decode_copy(d, c.len);
        assert_true(rc == KEV_ERR_CORRUPT || rc == KEV_ERR_TRAILER);
    }
    free(d);
    kcap_free(&c);
}

static void test_unterminated_combine_event(void **st)
{
    (void)st;
    struct kcap c;
    build_exact(&c, 0);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    size_t ev = rd.kr_ev_off;
    uint8_t *d = malloc(c.len);
    // Slot 3 is the CB of the name event; make its CE a CC: it then runs into the next event.
    memcpy(d, c.data, c.len);
    uint32_t h;
    memcpy(&h, d + ev + 5 * 16, 4);
    assert_int_equal(kev_hdr_type(h), KEV_TYPE_CE);
    h = (h & 0x3fffffffu) | (KEV_TYPE_CC << KEV_TYPE_SHIFT);
    memcpy(d + ev + 5 * 16, &h, 4);
    assert_int_equal(decode_copy(d, c.len), KEV_ERR_CORRUPT);
    assert_non_null(strstr(kev_error(&rd), "unterminated combine"));
    // A CE without CB.
    memcpy(d, c.data, c.len);
    memcpy(&h, d + ev + 3 * 16, 4);
    h = (h & 0x3fffffffu) | (KEV_TYPE_CE << KEV_TYPE_SHIFT);
    memcpy(d + ev + 3 * 16, &h, 4);
    assert_int_equal(decode_copy(d, c.len), KEV_ERR_CORRUPT);
    // A file of nothing but CC slots after a CB never loops: it ends with an error.
    size_t n = ev + 16 * 4000;
    uint8_t *big = calloc(1, n);
    memcpy(big, c.data, ev);
    struct kev_slot s = { KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, KEV_CTL_BUFFER, 0), { 0, 0, 0 } };
    memcpy(big + ev, &s, 16);
    for (size_t o = ev + 16; o < n; o += 16) {
        s.header = KEV_HEADER(o == ev + 16 ? KEV_TYPE_CB : KEV_TYPE_CC, KEV_C_USER, 1, 0);
        memcpy(big + o, &s, 16);
    }
    int rc = decode_copy(big, n);
    assert_int_equal(rc, KEV_ERR_CORRUPT);
    assert_non_null(strstr(kev_error(&rd), "longer than"));
    free(big);
    free(d);
    kcap_free(&c);
}

// The stream's CRC-32 (kev_crc32.c, table-driven) against the standard check value and
// against the definition, one bit a step, over random data fed in random pieces.
static uint32_t crc32_bitwise(uint32_t crc, const uint8_t *b, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *b++;
        for (int k = 0; k < 8; k++)
            crc = (crc & 1u) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
    }
    return ~crc;
}

static void test_stream_crc32(void **st)
{
    (void)st;
    assert_int_equal(ks_crc32(0, "123456789", 9), 0xcbf43926u);
    assert_int_equal(ks_crc32(0, "", 0), 0);
    static uint8_t data[4096];
    srand(7);
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)rand();
    uint32_t want = crc32_bitwise(0, data, sizeof(data)), got = 0;
    for (size_t off = 0, len; off < sizeof(data); off += len) {
        len = 1 + (size_t)rand() % 300;
        if (len > sizeof(data) - off)
            len = sizeof(data) - off;
        got = ks_crc32(got, data + off, len);
    }
    assert_int_equal(got, want);
    // Joining two pieces' CRCs, at every split; and the logger's fold of a frame into the
    // file's CRC from the frame's CRC (header, then payload P) and its header's alone:
    // crc(F P) = mult(x8n(len P), crc(F) ^ crc(H)) ^ crc(H P).
    for (size_t cut = 0; cut <= 600; cut += 37) {
        uint32_t a = crc32_bitwise(0, data, cut), b = crc32_bitwise(0, data + cut, 1024);
        assert_int_equal(ks_crc32_mult(ks_crc32_x8n(1024), a) ^ b,
                         crc32_bitwise(0, data, cut + 1024));
        const uint8_t *f = data + 2048, *h = data, *pl = data + 6;
        uint32_t file = crc32_bitwise(0, f, cut), hd = crc32_bitwise(0, h, 6);
        uint32_t frame = crc32_bitwise(0, h, 6 + cut);
        uint8_t joined[1200];
        memcpy(joined, f, cut);
        memcpy(joined + cut, pl, cut);
        assert_int_equal(ks_crc32_mult(ks_crc32_x8n(cut), file ^ hd) ^ frame,
                         crc32_bitwise(0, joined, 2 * cut));
    }
    assert_int_equal(ks_crc32_mult(ks_crc32_x8n(0), 0x12345678u), 0x12345678u);
}

// The stream's HEARTBEAT and LOSS frames (kev_stream.h): their payloads byte for byte as the
// header's layout comment draws them, and a decoder that hands them on between DATA frames
// without letting them into the file, counts a sequence gap across frame types, and refuses a
// LOSS frame too short for its layout.
struct stream_seen {
    uint8_t data[64];
    size_t ndata;
    struct ks_heartbeat hb;
    struct ks_loss loss;
    int nhb, nloss, problems[8];
};

static void seen_data(void *arg, const uint8_t *p, size_t n)
{
    struct stream_seen *s = arg;
    memcpy(s->data + s->ndata, p, n);
    s->ndata += n;
}

static void seen_hb(void *arg, const struct ks_heartbeat *h)
{
    struct stream_seen *s = arg;
    s->hb = *h;
    s->nhb++;
}

static void seen_loss(void *arg, const struct ks_loss *l)
{
    struct stream_seen *s = arg;
    s->loss = *l;
    s->nloss++;
}

static void seen_problem(void *arg, enum ks_problem what, uint64_t off, uint32_t detail)
{
    (void)off;
    (void)detail;
    ((struct stream_seen *)arg)->problems[what]++;
}

static void test_stream_heartbeat_and_loss(void **st)
{
    (void)st;
    const struct ks_heartbeat hb = { 0x1122334455667788ull, 40000, 100, 7 };
    const struct ks_loss loss = { 0x100000005ull, 0x100000900ull, 40000, 1433, 2866, 1,
                                  KS_LOSS_HOST_STOP, 2, 31 };
    uint8_t hp[KS_HEARTBEAT_BYTES], lp[KS_LOSS_BYTES];
    ks_heartbeat_put(hp, &hb);
    ks_loss_put(lp, &loss);
    static const uint8_t hb_bytes[KS_HEARTBEAT_BYTES] = {
        0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x40, 0x9c, 0, 0, 0, 0, 0, 0,
        100, 0, 0, 0, 7, 0, 0, 0 };
    assert_memory_equal(hp, hb_bytes, sizeof(hb_bytes));
    static const uint8_t loss_bytes[KS_LOSS_BYTES] = {
        5, 0, 0, 0, 1, 0, 0, 0, 0, 9, 0, 0, 1, 0, 0, 0, 0x40, 0x9c, 0, 0, 0, 0, 0, 0,
        0x99, 5, 0, 0, 0, 0, 0, 0, 0x32, 0x0b, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
        2, 0, 0, 0, 31, 0, 0, 0 };
    assert_memory_equal(lp, loss_bytes, sizeof(loss_bytes));

    // DATA "abc", HEARTBEAT, LOSS, DATA "def", (frame 4 missing), DATA "g", a short LOSS, END.
    static uint8_t s[8 * KS_MAX_FRAME];
    size_t n = 0;
    n += ks_frame(s + n, KS_DATA, 0, "abc", 3);
    n += ks_frame(s + n, KS_HEARTBEAT, 1, hp, sizeof(hp));
    n += ks_frame(s + n, KS_LOSS, 2, lp, sizeof(lp));
    n += ks_frame(s + n, KS_DATA, 3, "def", 3);
    n += ks_frame(s + n, KS_DATA, 5, "g", 1);
    n += ks_frame(s + n, KS_LOSS, 6, lp, sizeof(lp) - 1);
    uint8_t end[8] = { 7, 0, 0, 0 };
    uint32_t crc = ks_crc32(0, "abcdefg", 7);
    for (int i = 0; i < 4; i++)
        end[4 + i] = (uint8_t)(crc >> (8 * i));
    n += ks_frame(s + n, KS_END, 7, end, sizeof(end));

    struct stream_seen seen = { 0 };
    static struct ks_decoder d;
    ks_decoder_init(&d);
    d.on_data = seen_data;
    d.on_heartbeat = seen_hb;
    d.on_loss = seen_loss;
    d.on_problem = seen_problem;
    d.arg = &seen;
    for (size_t off = 0; off < n; off += 5)      // in small pieces, as a serial line gives it
        ks_decode(&d, s + off, n - off < 5 ? n - off : 5);
    assert_int_equal(seen.ndata, 7);
    assert_memory_equal(seen.data, "abcdefg", 7);
    assert_int_equal(seen.nhb, 1);
    assert_memory_equal(&seen.hb, &hb, sizeof(hb));
    assert_int_equal(seen.nloss, 1);
    assert_true(seen.loss.t_first == loss.t_first && seen.loss.t_last == loss.t_last &&
                seen.loss.offset == loss.offset && seen.loss.events == loss.events &&
                seen.loss.total == loss.total && seen.loss.cpu == 1 &&
                seen.loss.reason == KS_LOSS_HOST_STOP && seen.loss.buffers == 2 &&
                seen.loss.first_seq == 31);
    assert_int_equal(d.heartbeats, 1);
    assert_int_equal(d.loss_frames, 1);
    assert_int_equal(d.lost_events, 1433);
    assert_int_equal(seen.problems[KS_P_GAP], 1);
    assert_int_equal(seen.problems[KS_P_BADLEN], 1);
    assert_int_equal(seen.problems[KS_P_CRC] + seen.problems[KS_P_JUNK], 0);
    assert_true(d.ended && d.end_len == 7 && d.end_crc == crc);
    assert_int_not_equal(ks_decoder_finish(&d), 0);  // the gap and the short frame: damaged
}

// A READER frame (a reader's lag and the board's drops): its bytes as the layout says, handed to
// its callback, never file bytes; one too short for its layout refused.
static struct ks_reader seen_rd;
static int nrd;

static void seen_reader(void *arg, const struct ks_reader *r)
{
    (void)arg;
    seen_rd = *r;
    nrd++;
}

static void test_stream_reader(void **st)
{
    (void)st;
    const struct ks_reader r = { 0x1122334455667788ull, 0x99aabbccull, 34372, 32 };
    uint8_t rp[KS_READER_BYTES];
    ks_reader_put(rp, &r);
    static const uint8_t want[KS_READER_BYTES] = {
        0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0xcc, 0xbb, 0xaa, 0x99, 0, 0, 0, 0,
        0x44, 0x86, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0 };
    assert_memory_equal(rp, want, sizeof(want));
    static uint8_t s[4 * KS_MAX_FRAME];
    size_t n = 0;
    n += ks_frame(s + n, KS_DATA, 0, "ab", 2);
    n += ks_frame(s + n, KS_READER, 1, rp, sizeof(rp));
    n += ks_frame(s + n, KS_READER, 2, rp, sizeof(rp) - 1);
    n += ks_frame(s + n, KS_DATA, 3, "c", 1);
    struct stream_seen seen = { 0 };
    static struct ks_decoder d;
    ks_decoder_init(&d);
    d.on_data = seen_data;
    d.on_reader = seen_reader;
    d.on_problem = seen_problem;
    d.arg = &seen;
    nrd = 0;
    ks_decode(&d, s, n);
    assert_int_equal(seen.ndata, 3);
    assert_memory_equal(seen.data, "abc", 3);
    assert_int_equal(nrd, 1);
    assert_true(seen_rd.board_time == r.board_time && seen_rd.written_time == r.written_time &&
                seen_rd.dropped == 34372 && seen_rd.behind == 32);
    assert_int_equal(seen.problems[KS_P_BADLEN], 1);
}

static void test_writer_rejects_bad_items(void **st)
{
    (void)st;
    uint8_t buf[64];
    struct kev_out o;
    kev_out_init(&o, buf, sizeof(buf), 0);
    kev_hdr_item(&o, "BAD KEY", "x");
    assert_int_equal(o.ko_err, KEV_OUT_EINVAL);
    assert_string_equal(o.ko_key, "BAD KEY");
    assert_non_null(strstr(o.ko_why, "A-Z, 0-9 and _"));
    kev_out_init(&o, buf, sizeof(buf), 0);
    kev_hdr_item(&o, "KEY", "two\nlines");
    assert_int_equal(o.ko_err, KEV_OUT_EINVAL);
    assert_string_equal(o.ko_key, "KEY");
    assert_non_null(strstr(o.ko_why, "newline"));
    kev_out_init(&o, buf, sizeof(buf), 0);
    kev_hdr_item(&o, "KEY", "a TRACE_X::inside");
    assert_int_equal(o.ko_err, KEV_OUT_EINVAL);
    assert_non_null(strstr(o.ko_why, "\"TRACE_\""));
    kev_out_init(&o, buf, sizeof(buf), 0);
    kev_out_bytes(&o, KEV_FILE_MAGIC, sizeof(KEV_FILE_MAGIC) - 1);
    kev_hdr_item(&o, "FILE_NAME", "a-name-long-enough-to-overflow-a-64-byte-buffer");
    assert_int_equal(o.ko_err, KEV_OUT_ENOSPC);
    assert_string_equal(o.ko_key, "");
    assert_non_null(strstr(o.ko_why, "too small"));
    size_t len = o.ko_len;
    kev_out_u32(&o, 1); // sticky: nothing more is written
    assert_int_equal(o.ko_len, len);
    kev_out_init(&o, buf, sizeof(buf), 1);
    kev_out_u32(&o, 0x01020304u);
    assert_memory_equal(buf, "\x01\x02\x03\x04", 4);
}

// A header QNX's traceparser reads to its end (its 99-byte window: trace/kev_file.c). The
// layouts are ones QNX's own traceprinter (../shared/qnx-tools) was seen to loop on for ever:
// the tracelogger test's header with its -A TEST=demo attribute last (every file-name length
// from 1 to 95 looped), and a file name of 83 characters or more. kev_hdr_end pads the first,
// kev_hdr_item refuses the second's value and kev_hdr_standard keeps FILE_NAME's end.
static size_t demo_header(uint8_t *buf, size_t cap, const char *file, int attr)
{
    struct kev_out o;
    kev_out_init(&o, buf, cap, 0);
    const struct kev_hdr_std std = {
        .hs_file_name = file, .hs_date = "Thu Nov 26 13:47:27 UTC 2026",
        .hs_boot_date = "Thu Nov 26 13:47:27 UTC 2026", .hs_cycles_per_sec = 25000000,
        .hs_cpu_num = 1, .hs_sysname = "kev-microkernel", .hs_nodename = "mps2-an385",
        .hs_sys_release = "0.1", .hs_sys_version = "Nov 26 2026", .hs_machine = "armv7m",
        .hs_syspage_len = 604,
    };
    kev_hdr_standard(&o, &std);
    if (attr)
        kev_hdr_item(&o, "TEST", "demo");
    kev_hdr_end(&o);
    assert_int_equal(o.ko_err, 0);
    return o.ko_len;
}

static int holds(const uint8_t *b, size_t n, const char *s)
{
    size_t m = strlen(s);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(b + i, s, m) == 0)
            return 1;
    return 0;
}

static void test_header_qnx_reads_to_its_end(void **st)
{
    (void)st;
    static uint8_t buf[2048];
    size_t n = demo_header(buf, sizeof(buf), "build/mps2-an385/test-tracelogger/demo.kev", 1);
    assert_true(holds(buf, n, "TRACE_TEST::demoTRACE_PAD::-TRACE_HEADER_END::"));
    n = demo_header(buf, sizeof(buf), "build/mps2-an385/test-tracelogger/demo.kev", 0);
    assert_false(holds(buf, n, "TRACE_PAD::"));     // read as it is: no padding
    assert_true(holds(buf, n, "TRACE_SYSPAGE_LEN::604TRACE_HEADER_END::"));
    char name[200];
    memset(name, 'd', sizeof(name) - 1);
    name[sizeof(name) - 1] = '\0';
    memcpy(name + sizeof(name) - 9, "/cap.kev", 8);
    n = demo_header(buf, sizeof(buf), name, 0);     // 82 characters kept: "..." and the end
    assert_true(holds(buf, n, "TRACE_FILE_NAME::...ddd"));
    assert_true(holds(buf, n, "d/cap.kevTRACE_DATE::"));
    const uint8_t *v = (const uint8_t *)strstr((const char *)buf, "FILE_NAME::") + 11;
    assert_int_equal((const uint8_t *)strstr((const char *)v, "TRACE_") - v, 82);
    struct kev_out o;
    kev_out_init(&o, buf, sizeof(buf), 0);
    kev_hdr_item(&o, "FILE_NAME", name);             // kev_hdr_item refuses it
    assert_int_equal(o.ko_err, KEV_OUT_EINVAL);
}

// A whole file around kev_hdr_standard's header (no buffers), in the given byte order.
static size_t standard_file(uint8_t *buf, size_t cap, int big, const struct kev_hdr_std *std)
{
    uint8_t page[1024];
    struct kev_out sp, o;
    kev_out_init(&sp, page, sizeof(page), big);
    const struct kev_sp_machine m = { KEV_SP_QNX_ARM, 1, std->hs_cycles_per_sec, 0, 25,
                                      "Cortex-M3", "mps2-an385", "armle" };
    kev_sp_begin(&sp, &m);
    kev_sp_board(&sp, "mps2-an385", 25000000, 1);
    size_t splen = kev_sp_end(&sp);
    assert_int_equal(sp.ko_err, 0);
    struct kev_hdr_std s = *std;
    s.hs_syspage_len = splen;
    kev_out_init(&o, buf, cap, big);
    kev_hdr_standard(&o, &s);
    kev_hdr_item(&o, "GENERATOR", "unit test");  // a writer's own item, after the standard
    kev_hdr_end(&o);
    kev_out_bytes(&o, page, splen);
    const struct kev_cpu_totals tot[1] = { { 0, 0 } };
    kev_trailer(&o, 0, 0, tot, 1);
    assert_int_equal(o.ko_err, 0);
    return o.ko_len;
}

// The items the decoder's header reader found, in file order, against the list written here
// from docs/kev-format.md (QNX's tracelogger's order: the file's name and date, the format's
// items, then the machine's). kev_hdr_end's padding item, when it put one, comes last.
static void check_items(const char *const want[][2], unsigned n)
{
    unsigned got = rd.kr_nattr;
    const struct kev_attr *last = &rd.kr_attr[got - 1];
    if (got == n + 1 && last->ka_klen == 3 && memcmp(last->ka_key, "PAD", 3) == 0) {
        for (unsigned k = 0; k < last->ka_vlen; k++)
            assert_int_equal(last->ka_val[k], '-');
        got--;
    }
    assert_int_equal(got, n);
    for (unsigned i = 0; i < n; i++) {
        const struct kev_attr *a = &rd.kr_attr[i];
        if (a->ka_klen != strlen(want[i][0]) || memcmp(a->ka_key, want[i][0], a->ka_klen) ||
            a->ka_vlen != strlen(want[i][1]) || memcmp(a->ka_val, want[i][1], a->ka_vlen))
            fail_msg("item %u: TRACE_%.*s::%.*s, not TRACE_%s::%s", i, (int)a->ka_klen,
                     a->ka_key, (int)a->ka_vlen, a->ka_val, want[i][0], want[i][1]);
    }
}

// Opens the file standard_file makes of std; its SYSPAGE_LEN value (the page's size, which
// the file's writer knows) in splen.
static void open_standard(uint8_t *buf, size_t size, int big, const struct kev_hdr_std *std,
                          char *splen, size_t splen_size)
{
    size_t n = standard_file(buf, size, big, std);
    if (kev_open(&rd, buf, n))
        fail_msg("kev_open: %s", kev_error(&rd));
    unsigned vlen;
    const char *v = kev_attr(&rd, "SYSPAGE_LEN", &vlen);
    assert_non_null(v);
    snprintf(splen, splen_size, "%.*s", (int)vlen, v);
}

static void test_standard_header_read_back(void **st)
{
    (void)st;
    static uint8_t buf[4096];
    char splen[16];
    for (int big = 0; big <= 1; big++) {
        const struct kev_hdr_std std = {
            .hs_file_name = "/tmp/cap.kev", .hs_date = "Thu Nov 26 13:47:27 UTC 2026",
            .hs_boot_date = "Thu Nov 26 13:40:00 UTC 2026", .hs_cycles_per_sec = 25000000,
            .hs_cpu_num = 1, .hs_sysname = "kev-microkernel", .hs_nodename = "mps2-an385",
            .hs_sys_release = "0.1", .hs_sys_version = "Nov 26 2026", .hs_machine = "armv7m",
        };
        open_standard(buf, sizeof(buf), big, &std, splen, sizeof(splen));
        const char *const want[][2] = {
            { "FILE_NAME", "/tmp/cap.kev" }, { "DATE", "Thu Nov 26 13:47:27 UTC 2026" },
            { "VER_MAJOR", "1" }, { "VER_MINOR", "02" },
            { big ? "BIG_ENDIAN" : "LITTLE_ENDIAN", "TRUE" }, { "ENCODING", "16 byte events" },
            { "BOOT_DATE", "Thu Nov 26 13:40:00 UTC 2026" }, { "CYCLES_PER_SEC", "25000000" },
            { "CPU_NUM", "1" }, { "SYSNAME", "kev-microkernel" }, { "NODENAME", "mps2-an385" },
            { "SYS_RELEASE", "0.1" }, { "SYS_VERSION", "Nov 26 2026" }, { "MACHINE", "armv7m" },
            { "SYSPAGE_LEN", splen }, { "GENERATOR", "unit test" },
        };
        check_items(want, sizeof(want) / sizeof(want[0]));
        assert_int_equal(rd.kr_big, big);
        assert_int_equal(rd.kr_cycles_per_sec, 25000000);
        assert_string_equal(rd.kr_board, "mps2-an385");   // the system page, after the header
    }
    // kevdump's form: no boot date, node, release, version or machine; those items are absent.
    const struct kev_hdr_std dump = {
        .hs_file_name = "dump.kev", .hs_date = "Thu Nov 26 13:47:27 UTC 2026",
        .hs_cycles_per_sec = 62500000, .hs_cpu_num = 4, .hs_sysname = "kev-microkernel",
    };
    open_standard(buf, sizeof(buf), 0, &dump, splen, sizeof(splen));
    const char *const want[][2] = {
        { "FILE_NAME", "dump.kev" }, { "DATE", "Thu Nov 26 13:47:27 UTC 2026" },
        { "VER_MAJOR", "1" }, { "VER_MINOR", "02" }, { "LITTLE_ENDIAN", "TRUE" },
        { "ENCODING", "16 byte events" }, { "CYCLES_PER_SEC", "62500000" }, { "CPU_NUM", "4" },
        { "SYSNAME", "kev-microkernel" }, { "SYSPAGE_LEN", splen }, { "GENERATOR", "unit test" },
    };
    check_items(want, sizeof(want) / sizeof(want[0]));
    assert_int_equal(rd.kr_cycles_per_sec, 62500000);
}

// QNX's 99-byte window: "TRACE_DATE::" and the next "TRACE_" leave a DATE value 87 bytes. One
// byte more is refused, with the key and the reason; FILE_NAME keeps its end instead.
static void test_too_long_value_refused(void **st)
{
    (void)st;
    static uint8_t buf[2048];
    char v[120];
    struct kev_out o;
    memset(v, 'x', sizeof(v));
    v[87] = '\0';
    kev_out_init(&o, buf, sizeof(buf), 0);
    kev_hdr_item(&o, "DATE", v);
    assert_int_equal(o.ko_err, 0);
    v[87] = 'x';
    v[88] = '\0';
    kev_out_init(&o, buf, sizeof(buf), 0);
    kev_hdr_item(&o, "DATE", v);
    assert_int_equal(o.ko_err, KEV_OUT_EINVAL);
    assert_non_null(o.ko_why);
    assert_string_equal(o.ko_key, "DATE");
    assert_non_null(strstr(o.ko_why, "longer than QNX's traceparser reads"));
    // Through the standard writer: the item named is the one refused, and the error sticks.
    const struct kev_hdr_std std = {
        .hs_file_name = v, .hs_date = "Thu Nov 26 13:47:27 UTC 2026", .hs_cpu_num = 1,
        .hs_sysname = v, .hs_machine = "a TRACE_ in it",
    };
    kev_out_init(&o, buf, sizeof(buf), 0);
    kev_hdr_standard(&o, &std);
    assert_int_equal(o.ko_err, KEV_OUT_EINVAL);
    assert_string_equal(o.ko_key, "SYSNAME");
    assert_non_null(strstr(o.ko_why, "longer than QNX's traceparser reads"));
    assert_true(holds(buf, o.ko_len, "TRACE_FILE_NAME::...xxx"));   // not refused: its end kept
}

// kev_hdr_item_refused, which a writer asks before it opens anything (tracelogger -A): the
// same answer, word for word, as kev_hdr_item gives in ko_why for each of the header's rules,
// and none for an item it writes.
static void test_item_refused_before_writing(void **st)
{
    (void)st;
    static uint8_t buf[2048];
    char long_value[100];
    memset(long_value, 'v', sizeof(long_value) - 1);
    long_value[sizeof(long_value) - 1] = '\0';
    static const struct { const char *key, *value; } items[] = {
        { "TEST", "demo" }, { "MY-KEY", "1" }, { "lower", "1" }, { "", "1" },
        { "KEY", "two\nlines" }, { "KEY", "a TRACE_X::inside" }, { "DATE", NULL },
    };
    for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
        const char *value = items[i].value ? items[i].value : long_value;
        struct kev_out o;
        kev_out_init(&o, buf, sizeof(buf), 0);
        kev_hdr_item(&o, items[i].key, value);
        const char *why = kev_hdr_item_refused(items[i].key, value);
        if (i == 0) {
            assert_int_equal(o.ko_err, 0);
            assert_null(why);
        } else {
            assert_int_equal(o.ko_err, KEV_OUT_EINVAL);
            assert_non_null(why);
            assert_string_equal(why, o.ko_why);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_little_endian),
        cmocka_unit_test(test_roundtrip_big_endian),
        cmocka_unit_test(test_loss_accounting_every_policy),
        cmocka_unit_test(test_exact_events_both_byte_orders),
        cmocka_unit_test(test_callbacks_by_class_and_event),
        cmocka_unit_test(test_rejected_apart_from_lost),
        cmocka_unit_test(test_truncated_files),
        cmocka_unit_test(test_system_page_forms),
        cmocka_unit_test(test_system_page_irqdevs),
        cmocka_unit_test(test_bad_magic_version_and_byte_order),
        cmocka_unit_test(test_random_bytes_in_the_middle),
        cmocka_unit_test(test_unterminated_combine_event),
        cmocka_unit_test(test_writer_rejects_bad_items),
        cmocka_unit_test(test_stream_crc32),
        cmocka_unit_test(test_stream_heartbeat_and_loss),
        cmocka_unit_test(test_stream_reader),
        cmocka_unit_test(test_header_qnx_reads_to_its_end),
        cmocka_unit_test(test_standard_header_read_back),
        cmocka_unit_test(test_too_long_value_refused),
        cmocka_unit_test(test_item_refused_before_writing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
