// SPDX-License-Identifier: MIT
// The incident record's check and writers (trace/kev_incident*.c) on a record built here by
// hand from trace/kev_incident.h's layout: the whole record believed; every byte of every
// header word and every byte of the body flipped, refused with a sentence; a record cut
// (WRITING), one longer than the region, one with no trigger, refused; the .kev the writer makes
// decoded by the project's reader (its one event, its trailer, its INCIDENT sections back
// whole) and the core an ELF core file with a note and a stack segment.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <trace/kev.h>
#include <trace/kev_decode.h>
#include <trace/kev_incident.h>
#include <trace/kev_stream.h>

#define REGION 4096u
static uint8_t region[REGION] __attribute__((aligned(8)));
static uint32_t body_len;

static void put(uint32_t *at, const void *p, uint32_t n)
{
    memcpy(region + sizeof(struct kev_inc_hdr) + *at, p, n);
    *at += n;
}

static void sec(uint32_t *at, uint32_t type, const void *p, uint32_t n)
{
    struct kev_inc_sec s = { type, n };
    put(at, &s, sizeof(s));
    put(at, p, n);
    *at += kev_inc_pad8(n) - n;     // (zeros: the region was cleared)
}

static struct kev_slot slot(unsigned cls, unsigned ev, uint32_t t, uint32_t a, uint32_t b)
{
    struct kev_slot s = { KEV_HEADER(KEV_TYPE_S, cls, ev, 0), { t, a, b } };
    return s;
}

// A record: the trigger, one process, its thread (ARM's 17 registers, 64 stack bytes) and a
// ring of one buffer holding one user event.
static void build(void)
{
    memset(region, 0, sizeof(region));
    uint32_t at = 0;
    struct kev_inc_trigger g;
    memset(&g, 0, sizeof(g));
    g.action = KEV_INC_FREEZE;
    g.probe_id = 344;
    g.clause = 2;
    g.who = 3u << 16 | 1u;
    g.ncpus = 1;
    g.hz = 25000000;
    strcpy(g.probe, "user:::event");
    strcpy(g.board, "mps2-an385");
    strcpy(g.machine, "armv7m");
    sec(&at, KEV_INC_TRIGGER, &g, sizeof(g));
    struct kev_inc_proc p = { 3, 1, "overrun" };
    sec(&at, KEV_INC_PROC, &p, sizeof(p));
    uint8_t th[sizeof(struct kev_inc_thread) + 17 * 8 + 64];
    struct kev_inc_thread t;
    memset(&t, 0, sizeof(t));
    t.pid = 3, t.tid = 1, t.prio = 220, t.flags = KEV_INC_THR_TRIGGER, t.nregs = 17;
    t.stack_lo = 0x20040f00, t.stack_bytes = 64;
    strcpy(t.name, "overrun");
    memcpy(th, &t, sizeof(t));
    for (unsigned k = 0; k < 17; k++) {
        uint32_t w[2] = { k == 15 ? 0x000c0828u : 0x1000u + k, 0 };
        memcpy(th + sizeof(t) + 8 * k, w, 8);
    }
    memset(th + sizeof(t) + 17 * 8, 0xab, 64);
    sec(&at, KEV_INC_THREAD, th, sizeof(th));
    struct { struct kev_inc_ring h; struct kev_inc_buf b; struct kev_slot s[4]; } ring;
    memset(&ring, 0, sizeof(ring));
    ring.h.nbufs = 1, ring.h.ncpus = 1, ring.h.policy = 2;
    ring.b.seq = 7, ring.b.nslots = 4;
    ring.s[0] = slot(KEV_C_CONTROL, KEV_CTL_BUFFER, 100, 7, 0);
    ring.s[1] = slot(KEV_C_CONTROL, KEV_CTL_TIME, 100, 0, 100);
    ring.s[2] = slot(KEV_C_USER, 2, 200, 99, 3001);
    ring.s[3] = slot(KEV_C_CONTROL, KEV_CTL_BUFFER_END, 300, 7, 1);
    sec(&at, KEV_INC_RING, &ring, sizeof(ring));
    body_len = at;
    struct kev_inc_hdr *h = (struct kev_inc_hdr *)(void *)region;
    memcpy(h->magic, KEV_INC_MAGIC, 8);
    h->version = KEV_INC_VERSION;
    h->hdr_bytes = sizeof(*h);
    h->seq = 1;
    h->body_bytes = at;
    h->body_crc = ks_crc32(0, region + sizeof(*h), at);
    h->region_bytes = REGION;
    h->ptr_bytes = 4;
    h->hdr_crc = ks_crc32(0, h, KEV_INC_HDR_CRC_BYTES);
    h->state = KEV_INC_COMMIT;
}

static int rd(void *arg, uint32_t off, void *dst, uint32_t n)
{
    (void)arg;
    if (off > REGION - sizeof(struct kev_inc_hdr) || n > REGION - sizeof(struct kev_inc_hdr) - off)
        return -1;
    memcpy(dst, region + sizeof(struct kev_inc_hdr) + off, n);
    return 0;
}

static struct kev_inc_secref secs[KEV_INC_MAX_SECS];
static struct kev_inc_view v;

static int check(const char **why)
{
    v.sec = secs;
    v.cap = KEV_INC_MAX_SECS;
    *why = "";
    return kev_incident_check(region, REGION, rd, NULL, &v, why);
}

static void whole_believed(void **state)
{
    (void)state;
    const char *why;
    build();
    assert_int_equal(check(&why), 0);
    assert_int_equal(v.nsecs, 4);
    assert_string_equal(v.trig.probe, "user:::event");
    memset(region, 0, sizeof(region));
    assert_int_equal(check(&why), 1);      // RAM after power-on: no record, nothing said
}

// Every byte of every header word (the pad aside) and every body byte, one bit flipped.
static void each_byte_refused(void **state)
{
    (void)state;
    const char *why;
    build();
    for (uint32_t i = 0; i < sizeof(struct kev_inc_hdr) + body_len; i++) {
        if (i >= offsetof(struct kev_inc_hdr, pad) && i < sizeof(struct kev_inc_hdr))
            continue;
        region[i] ^= 0x01;
        int r = check(&why);
        if (r != -1 || !why[0])
            fail_msg("byte %u flipped: %d (%s), not refused", i, r, why);
        region[i] ^= 0x01;
    }
    assert_int_equal(check(&why), 0);
}

static void cut_long_untriggered_refused(void **state)
{
    (void)state;
    const char *why;
    struct kev_inc_hdr *h = (struct kev_inc_hdr *)(void *)region;
    build();
    h->state = KEV_INC_WRITING;
    assert_int_equal(check(&why), -1);
    assert_non_null(strstr(why, "writing was cut"));
    build();
    assert_int_equal(kev_incident_check(region, REGION / 4u, rd, NULL, &v, &why), -1);
    assert_non_null(strstr(why, "does not fit"));
    build();    // no trigger: the first section's type rewritten, both CRCs made again
    ((struct kev_inc_sec *)(void *)(region + sizeof(*h)))->type = 99;
    h->body_crc = ks_crc32(0, region + sizeof(*h), h->body_bytes);
    h->hdr_crc = ks_crc32(0, h, KEV_INC_HDR_CRC_BYTES);
    assert_int_equal(check(&why), -1);
    assert_non_null(strstr(why, "no trigger"));
}

static uint8_t file[65536];
static size_t file_len;

static int sink(void *arg, const void *p, size_t n)
{
    (void)arg;
    if (file_len + n > sizeof(file))
        return -1;
    memcpy(file + file_len, p, n);
    file_len += n;
    return 0;
}

// The record built and checked, then written by one of the writers (core or not) into file.
static struct kev_inc_sum written(int core)
{
    const char *why = "";
    static uint8_t scratch[KEV_INC_SCRATCH];
    build();
    assert_int_equal(check(&why), 0);
    struct kev_inc_io io = { rd, NULL, sink, NULL, scratch };
    struct kev_inc_sum sum = { 0, 0, 0, 0 };
    file_len = 0;
    int r = core ? kev_incident_core(&v, &io, &sum, &why)
                 : kev_incident_kev(&v, &io, "incident.kev", NULL, &sum, &why);
    if (r != 0)
        fail_msg("the writer failed: %s", why);
    return sum;
}

static void kev_written_and_read(void **state)
{
    (void)state;
    struct kev_inc_sum sum = written(0);
    assert_int_equal(sum.events, 1);
    static struct kev_reader r;
    assert_int_equal(kev_open(&r, file, file_len), 0);
    assert_int_equal(kev_decode(&r), 0);
    assert_int_equal(r.kr_events, 1);
    unsigned len;
    const char *inc = kev_attr(&r, "INCIDENT", &len);
    assert_non_null(inc);
    assert_memory_equal(inc, "freeze( ) at user:::event, clause 2", len);
    uint32_t type;
    struct kev_inc_trigger g;
    assert_int_equal(kev_sp_incident_at(&r, 0, &type, &g, sizeof(g)), (long)sizeof(g));
    assert_int_equal(type, KEV_INC_TRIGGER);
    assert_int_equal(g.clause, 2);
    assert_int_equal(kev_sp_incident_at(&r, 1, &type, NULL, 0), -1);
}

static void core_written(void **state)
{
    (void)state;
    struct kev_inc_sum sum = written(1);
    assert_int_equal(sum.nthreads, 1);
    assert_memory_equal(file, "\x7f" "ELF\x01\x01\x01", 7);
    assert_int_equal(file[16], 4);                  // ET_CORE
    assert_int_equal(file[18], 40);                 // EM_ARM
    assert_int_equal(file[44], 2);                  // a note and a stack
    assert_int_equal(file_len, 52 + 2 * 32 + 20 + 148 + 64);
    uint32_t pc, lwp;
    memcpy(&lwp, file + 52 + 64 + 20 + 24, 4);      // pr_pid: the thread's who
    memcpy(&pc, file + 52 + 64 + 20 + 72 + 15 * 4, 4);
    assert_int_equal(lwp, 3u << 16 | 1u);
    assert_int_equal(pc, 0x000c0828u);
    assert_int_equal(file[file_len - 1], 0xab);     // its stack, last
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_believed),
        cmocka_unit_test(each_byte_refused),
        cmocka_unit_test(cut_long_untriggered_refused),
        cmocka_unit_test(kev_written_and_read),
        cmocka_unit_test(core_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
