// SPDX-License-Identifier: MIT
// Unit tests of the trace producer (trace/trace_ring.c) against the host port
// (test/unit/trace_port.h): exact slots in tiny rings, high-water notifications (direct and
// deferred from interrupts), time wrap, every overrun policy with exact loss counts, combine
// events at buffer boundaries, filters, and a randomised recorded + lost == generated check.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <trace/trace_ring.h>

#define NBUF_MAX 4u
static struct kev_slot mem[NBUF_MAX * KEV_BUF_SLOTS];
static struct trace_ring ring;

#define PR KEV_C_PR_TH
#define CTL(ev) KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, (ev), 0)

static int setup_ring(unsigned nbufs, unsigned policy)
{
    memset(&trace_host_port, 0, sizeof(trace_host_port));
    memset(mem, 0xa5, sizeof(mem));
    if (trace_ring_init(&ring, mem, sizeof(mem), nbufs) != 0)
        return -1;
    if (trace_ring_set_policy(&ring, policy) != 0)
        return -1;
    trace_filter_all(&ring, 1);
    return trace_ring_start(&ring);
}

static void assert_slot(const struct kev_slot *s, uint32_t h, uint32_t t, uint32_t a, uint32_t b)
{
    assert_int_equal(s->header, h);
    assert_int_equal(s->data[0], t);
    assert_int_equal(s->data[1], a);
    assert_int_equal(s->data[2], b);
}

static void emit_n(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        trace_emit_simple(&ring, PR, KEV_TH_READY, i, 1);
}

static unsigned used_now(void)
{
    const struct trace_cpu *c = &ring.tr_cpu[0];
    return (unsigned)(c->tc_wp - (mem + (size_t)c->tc_buf * KEV_BUF_SLOTS));
}

// Take the next buffer; check its frame (BUFFER first, BUFFER_END last with the right count).
// Returns the slots and adds its events and DROPPED counts to *events and *lost.
static const struct kev_slot *take_checked(unsigned *nslots, uint64_t *events, uint64_t *lost)
{
    unsigned idx, n;
    uint32_t seq;
    assert_int_equal(trace_ring_take(&ring, &idx), 0);
    const struct kev_slot *s = trace_ring_buffer(&ring, idx, &n, &seq);
    assert_non_null(s);
    assert_true(n >= 3 && n <= KEV_BUF_SLOTS);
    assert_int_equal(s[0].header, CTL(KEV_CTL_BUFFER));
    assert_int_equal(s[0].data[1], seq);
    assert_int_equal(s[0].data[2], 0); // QNX: num_events, 0 at the start of a buffer
    assert_int_equal(s[n - 1].header, CTL(KEV_CTL_BUFFER_END));
    assert_int_equal(s[n - 1].data[1], seq);
    uint32_t ev = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned cls = kev_hdr_class(s[i].header), type = kev_hdr_type(s[i].header);
        if (cls == KEV_C_CONTROL && kev_hdr_event(s[i].header) == KEV_CTL_DROPPED && lost)
            *lost += s[i].data[1];
        if (cls != KEV_C_CONTROL && (type == KEV_TYPE_S || type == KEV_TYPE_CB))
            ev++;
    }
    assert_int_equal(s[n - 1].data[2], ev);
    if (events)
        *events += ev;
    if (nslots)
        *nslots = n;
    return s;
}

static void release_last_taken(const struct kev_slot *s)
{
    assert_int_equal(trace_ring_release(&ring, (unsigned)((s - mem) / KEV_BUF_SLOTS)), 0);
}

static void test_init_rejects_bad_arguments(void **st)
{
    (void)st;
    struct trace_ring r;
    assert_int_equal(trace_ring_init(&r, NULL, sizeof(mem), 1), -TRACE_EINVAL);
    assert_int_equal(trace_ring_init(&r, mem, sizeof(mem), 0), -TRACE_EINVAL);
    assert_int_equal(trace_ring_init(&r, mem, sizeof(mem), TRACE_MAX_BUFS + 1), -TRACE_EINVAL);
    assert_int_equal(trace_ring_init(&r, mem, KEV_BUF_BYTES - 1, 1), -TRACE_EINVAL);
    assert_int_equal(trace_ring_init(&r, (char *)mem + 2, sizeof(mem) - 2, 1), -TRACE_EINVAL);
    memset(&r, 0, sizeof(r));
    assert_int_equal(trace_ring_start(&r), -TRACE_ECANCELED);
    assert_int_equal(trace_ring_flush(&r, NULL), -TRACE_ECANCELED);
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    assert_int_equal(trace_ring_start(&ring), -TRACE_EBUSY);
    assert_int_equal(trace_ring_set_policy(&ring, TRACE_POLICY_RING), -TRACE_EBUSY);
    assert_int_equal(trace_ring_set_policy(&ring, 9), -TRACE_EINVAL);
    assert_int_equal(trace_ring_release(&ring, 0), -TRACE_EINVAL);
    assert_int_equal(trace_ring_release(&ring, 7), -TRACE_EINVAL);
    assert_int_equal(trace_filter_class(&ring, KEV_C_CONTROL, 0), -TRACE_EINVAL);
    assert_int_equal(trace_filter_class(&ring, 8, 1), -TRACE_EINVAL);
    assert_int_equal(trace_filter_event(&ring, PR, 1024, 1), -TRACE_EINVAL);
}

static void test_first_event_exact_slots(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    trace_host_port.now = 0x0000000500000100ull;
    trace_emit_simple(&ring, PR, KEV_TH_RUNNING, 2, 1);
    trace_host_port.now = 0x0000000500000180ull;
    trace_emit_simple(&ring, KEV_C_INT, KEV_INT_ENTER, 11, 0);
    trace_host_port.now = 0x0000000500000200ull;
    trace_ring_stop(&ring);
    assert_int_equal(trace_host_port.nnotes, 1); // closed below the mark: told once, at stop

    unsigned n;
    const struct kev_slot *s = take_checked(&n, NULL, NULL);
    assert_int_equal(n, 5);
    assert_ptr_equal(s, mem);
    assert_slot(&s[0], CTL(KEV_CTL_BUFFER), 0x100, 0, 0);
    assert_slot(&s[1], CTL(KEV_CTL_TIME), 0x100, 5, 0x100);
    assert_slot(&s[2], KEV_HEADER(KEV_TYPE_S, PR, KEV_TH_RUNNING, 0), 0x100, 2, 1);
    assert_slot(&s[3], KEV_HEADER(KEV_TYPE_S, KEV_C_INT, KEV_INT_ENTER, 0), 0x180, 11, 0);
    assert_slot(&s[4], CTL(KEV_CTL_BUFFER_END), 0x200, 0, 2);
    assert_int_equal(s[5].header, 0xa5a5a5a5); // nothing written past the end

    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(cnt.recorded, 2);
    assert_int_equal(cnt.dropped + cnt.overwritten, 0);
    assert_int_equal(trace_ring_take(&ring, &n), -TRACE_EAGAIN);
}

static void test_disabled_class_generates_nothing(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    assert_int_equal(trace_filter_class(&ring, KEV_C_INT, 0), 0);
    assert_false(trace_on(&ring, KEV_C_INT));
    assert_true(trace_on(&ring, PR));
    trace_emit_simple(&ring, KEV_C_INT, KEV_INT_ENTER, 1, 2);
    assert_int_equal(ring.tr_cpu[0].tc_buf, -1); // not even a buffer was started
    trace_ring_stop(&ring);
    assert_false(trace_on(&ring, PR));
    trace_emit_simple(&ring, PR, KEV_TH_READY, 1, 2);
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(cnt.recorded + cnt.dropped, 0);
    assert_int_equal(cnt.buffers, 0);
}

static void test_high_water_and_switch_at_full(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    trace_host_port.step = 1;
    emit_n(KEV_HIGH_WATER - 3); // BUFFER + TIME + 712 events = 714 slots
    assert_int_equal(used_now(), KEV_HIGH_WATER - 1);
    assert_int_equal(trace_host_port.nnotes, 0);
    emit_n(1);
    assert_int_equal(used_now(), KEV_HIGH_WATER);
    assert_int_equal(trace_host_port.nnotes, 1);
    assert_int_equal(trace_host_port.notes[0].idx, 0);
    assert_int_equal(trace_host_port.notes[0].seq, 0);
    assert_ptr_equal(trace_host_port.notes[0].r, &ring);
    // The buffer goes on filling to 100% (1021 events + BUFFER, TIME, BUFFER_END).
    emit_n(1021 - (KEV_HIGH_WATER - 2));
    assert_int_equal(used_now(), KEV_BUF_SLOTS - 1);
    assert_int_equal(ring.tr_cpu[0].tc_buf, 0);
    assert_int_equal(trace_host_port.nnotes, 1);
    emit_n(1); // switches to buffer 1
    assert_int_equal(ring.tr_cpu[0].tc_buf, 1);
    assert_int_equal(ring.tr_buf[0].tb_state, TRACE_BUF_FULL);
    assert_int_equal(ring.tr_buf[0].tb_nslots, KEV_BUF_SLOTS);
    assert_int_equal(mem[KEV_BUF_SLOTS - 1].header, CTL(KEV_CTL_BUFFER_END));
    assert_int_equal(mem[KEV_BUF_SLOTS - 1].data[2], 1021);
    assert_int_equal(mem[KEV_BUF_SLOTS].header, CTL(KEV_CTL_BUFFER));
    assert_int_equal(mem[KEV_BUF_SLOTS].data[1], 1);
    assert_int_equal(used_now(), 3);
    assert_int_equal(trace_host_port.nnotes, 1);
}

static void test_high_water_in_interrupt_is_deferred(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    emit_n(KEV_HIGH_WATER - 10);
    trace_host_port.in_irq = 1;
    emit_n(20); // crosses the mark inside the handler
    assert_int_equal(trace_host_port.nnotes, 0);
    trace_ring_irq_exit(&ring); // nested exit: still in interrupt context, stays pending
    assert_int_equal(trace_host_port.nnotes, 0);
    assert_int_equal(ring.tr_cpu[0].tc_npending, 1);
    trace_host_port.in_irq = 0;
    trace_ring_irq_exit(&ring);
    assert_int_equal(trace_host_port.nnotes, 1);
    assert_int_equal(trace_host_port.notes[0].idx, 0);
    assert_int_equal(trace_host_port.notes[0].seq, 0);
    assert_int_equal(trace_host_port.notify_in_irq, 0);
    assert_int_equal(ring.tr_cpu[0].tc_npending, 0);
    trace_ring_irq_exit(&ring);
    assert_int_equal(trace_host_port.nnotes, 1); // delivered once only
    // The buffer kept filling past the mark while pending.
    assert_int_equal(used_now(), KEV_HIGH_WATER + 12);
}

static void test_logger_take_switches_past_high_water(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    unsigned idx;
    emit_n(100);
    assert_int_equal(trace_ring_take(&ring, &idx), -TRACE_EAGAIN); // below the mark
    emit_n(KEV_HIGH_WATER - 102);
    assert_int_equal(trace_host_port.nnotes, 1);
    uint64_t ev = 0;
    unsigned n;
    const struct kev_slot *s = take_checked(&n, &ev, NULL);
    assert_int_equal(n, KEV_HIGH_WATER + 1);
    assert_int_equal(ev, KEV_HIGH_WATER - 2);
    emit_n(1);
    assert_int_equal(ring.tr_cpu[0].tc_buf, 1);
    release_last_taken(s);
    assert_int_equal(ring.tr_buf[0].tb_state, TRACE_BUF_FREE);
}

static void test_time_wrap_writes_time_event(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    trace_host_port.now = 0x00000002fffffff0ull;
    trace_emit_simple(&ring, PR, KEV_TH_RUNNING, 1, 1);
    trace_host_port.now = 0x00000002fffffff8ull;
    trace_emit_simple(&ring, PR, KEV_TH_READY, 1, 1);
    trace_host_port.now = 0x0000000300000010ull;
    trace_emit_simple(&ring, PR, KEV_TH_RUNNING, 1, 2);
    trace_host_port.now = 0x0000000300000020ull;
    trace_ring_tick(&ring); // same high word: nothing
    trace_host_port.now = 0x0000000400000001ull;
    trace_ring_tick(&ring); // silent for a whole wrap: restates the time
    trace_ring_stop(&ring);
    unsigned n;
    const struct kev_slot *s = take_checked(&n, NULL, NULL);
    assert_int_equal(n, 8);
    assert_slot(&s[1], CTL(KEV_CTL_TIME), 0xfffffff0, 2, 0xfffffff0);
    assert_slot(&s[3], KEV_HEADER(KEV_TYPE_S, PR, KEV_TH_READY, 0), 0xfffffff8, 1, 1);
    assert_slot(&s[4], CTL(KEV_CTL_TIME), 0x10, 3, 0x10);
    assert_slot(&s[5], KEV_HEADER(KEV_TYPE_S, PR, KEV_TH_RUNNING, 0), 0x10, 1, 2);
    assert_slot(&s[6], CTL(KEV_CTL_TIME), 1, 4, 1);
}

static void test_switch_policy_drops_and_counts(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    emit_n(2 * 1021 + 100); // both buffers full, 100 events find no buffer
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(cnt.recorded, 2 * 1021);
    assert_int_equal(cnt.dropped, 100);
    assert_int_equal(cnt.unreported, 100);
    assert_int_equal(cnt.overwritten, 0);
    uint64_t ev = 0, lost = 0;
    const struct kev_slot *s = take_checked(NULL, &ev, &lost);
    release_last_taken(s);
    emit_n(5); // buffer 0 again, seq 2, starting with DROPPED(100)
    assert_slot(&mem[2], CTL(KEV_CTL_DROPPED), mem[2].data[0], 100, 100);
    assert_int_equal(mem[0].data[1], 2);
    trace_ring_stop(&ring);
    s = take_checked(NULL, &ev, &lost); // seq 1
    assert_int_equal(s[0].data[1], 1);
    s = take_checked(NULL, &ev, &lost); // seq 2
    assert_int_equal(s[0].data[1], 2);
    assert_int_equal(ev + lost, 2 * 1021 + 100 + 5);
    assert_int_equal(lost, 100);
}

// trace_emit_simple_at (the kernel's drain of user-event rings): a time between the last slot
// and now is kept, any other becomes now, so the ring's time never goes back whatever a process
// wrote; trace_ring_count_lost adds to the loss the next buffer's DROPPED event reports.
static void test_emit_at_and_count_lost(void **st)
{
    (void)st;
    const uint32_t user = KEV_HEADER(KEV_TYPE_S, KEV_C_USER, 7, 0);
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    trace_host_port.now = 0x0000000500001000ull;
    trace_emit_simple(&ring, PR, KEV_TH_RUNNING, 2, 1);        // slot 2 (BUFFER, TIME first)
    trace_host_port.now = 0x0000000500002000ull;
    trace_emit_simple_at(&ring, KEV_C_USER, 7, 0x1800, 1, 2); // kept
    trace_emit_simple_at(&ring, KEV_C_USER, 7, 0x1700, 3, 4); // before the last slot: now
    trace_emit_simple_at(&ring, KEV_C_USER, 7, 0x2800, 5, 6); // after now: now
    trace_emit_simple_at(&ring, KEV_C_USER, 7, 0, 7, 8);      // none given: now
    assert_slot(&mem[3], user, 0x1800, 1, 2);
    assert_slot(&mem[4], user, 0x2000, 3, 4);
    assert_slot(&mem[5], user, 0x2000, 5, 6);
    assert_slot(&mem[6], user, 0x2000, 7, 8);
    trace_ring_count_lost(&ring, KEV_C_USER, 3);
    trace_ring_count_lost(&ring, KEV_C_USER, 0);
    trace_filter_class(&ring, KEV_C_INT, 0);
    trace_ring_count_lost(&ring, KEV_C_INT, 5);                // a class not recorded: nothing
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(cnt.recorded, 5);
    assert_int_equal(cnt.dropped, 3);
    assert_int_equal(cnt.unreported, 3);
    assert_int_equal(trace_ring_flush(&ring, NULL), 0);
    assert_int_equal(ring.tr_reopens, 0);
    trace_emit_simple(&ring, PR, KEV_TH_READY, 2, 1);          // the next buffer reports them
    assert_slot(&mem[KEV_BUF_SLOTS + 2], CTL(KEV_CTL_DROPPED), mem[KEV_BUF_SLOTS + 2].data[0], 3, 3);
    assert_int_equal(ring.tr_reopens, 1);       // the flush's buffer start, counted as its own
    trace_ring_stop(&ring);
    uint64_t ev = 0, lost = 0;
    take_checked(NULL, &ev, &lost);
    take_checked(NULL, &ev, &lost);
    assert_int_equal(ev, 6);
    assert_int_equal(lost, 3);
}

static void test_overwrite_policy_skips_logger_buffer(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(3, TRACE_POLICY_OVERWRITE), 0);
    emit_n(1021);
    uint64_t ev = 0, lost = 0;
    emit_n(1); // buffer 0 is full, now in buffer 1
    const struct kev_slot *held = take_checked(NULL, &ev, &lost); // logger holds buffer 0
    assert_ptr_equal(held, mem);
    emit_n(1020 + 1021); // fills 1 and 2
    assert_int_equal(ring.tr_cpu[0].tc_buf, 2);
    emit_n(1); // needs a buffer: skips 0 (logger), overwrites 1 (oldest unsaved)
    assert_int_equal(ring.tr_cpu[0].tc_buf, 1);
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(cnt.overwritten, 1021);
    assert_int_equal(cnt.dropped, 0);
    const struct kev_slot *b1 = mem + KEV_BUF_SLOTS;
    assert_int_equal(b1[0].data[1], 3); // seq 3: seq 1 is gone, the gap shows it
    assert_slot(&b1[2], CTL(KEV_CTL_DROPPED), b1[2].data[0], 1021, 1021);
    release_last_taken(held);
    trace_ring_stop(&ring);
    const struct kev_slot *s = take_checked(NULL, &ev, &lost);
    assert_int_equal(s[0].data[1], 2);
    s = take_checked(NULL, &ev, &lost);
    assert_int_equal(s[0].data[1], 3);
    assert_int_equal(ev + lost, 1021 + 1 + 1020 + 1021 + 1);
    assert_int_equal(lost, 1021);
}

static void test_ring_policy_keeps_the_latest(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_RING), 0);
    trace_host_port.step = 3;
    emit_n(5000);
    assert_int_equal(trace_host_port.nnotes, 0);
    unsigned idx;
    assert_int_equal(trace_ring_take(&ring, &idx), -TRACE_EBUSY);
    trace_ring_stop(&ring);
    assert_int_equal(trace_host_port.nnotes, 0);
    uint64_t ev = 0, lost = 0;
    const struct kev_slot *a = take_checked(NULL, &ev, &lost);
    const struct kev_slot *b = take_checked(NULL, &ev, &lost);
    assert_int_equal(b[0].data[1], a[0].data[1] + 1); // oldest first
    assert_true(a[1].data[0] < b[1].data[0]);
    assert_int_equal(trace_ring_take(&ring, &idx), -TRACE_EAGAIN);
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    // Buffers hold 1021 events, 1020 when they start with DROPPED: seq 0..3 took 1021, 1021,
    // 1020, 1020 events; seq 4 the remaining 918. Seq 3 and 4 survive.
    assert_int_equal(a[0].data[1], 3);
    assert_int_equal(cnt.recorded, 1020 + 918);
    assert_int_equal(cnt.overwritten, 5000 - (1020 + 918));
    assert_int_equal(ev, cnt.recorded);
    // The saved buffers' DROPPED events account for every overwritten event: seq 3 reports
    // seq 1's 1021, seq 4 reports seq 2's 1020 plus the 1021 seq 2 itself had reported.
    assert_int_equal(lost, 1021 + 1020 + 1021);
    assert_int_equal(ev + lost, 5000);
}

// A debugger writes buffer 0's CPU byte (200) and buffer 1's state byte (9) in ring mode: the
// kernel never indexes with them; the overwritten events are still counted (on the CPU the
// buffer's own BUFFER slot names) and the two lies are counted.
static void test_table_lies_refused_and_counted(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_RING), 0);
    trace_host_port.step = 3;
    emit_n(1500);                       // buffer 0 FULL (1021 events), buffer 1 filling
    assert_int_equal(ring.tr_buf[0].tb_state, TRACE_BUF_FULL);
    ring.tr_buf[0].tb_cpu = 200;
    emit_n(1000);                       // buffer 1 closes, buffer 0 is reused
    assert_int_equal(ring.tr_refused, 1);
    ring.tr_buf[1].tb_state = 9;
    emit_n(2500);
    assert_int_equal(ring.tr_refused, 2);
    assert_true(ring.tr_buf[0].tb_state <= TRACE_BUF_LOGGER &&
                ring.tr_buf[1].tb_state <= TRACE_BUF_LOGGER);
    trace_ring_stop(&ring);
    uint64_t ev = 0, lost = 0;
    take_checked(NULL, &ev, &lost);
    take_checked(NULL, &ev, &lost);
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(ev, cnt.recorded);
    assert_int_equal(cnt.recorded + cnt.overwritten, 5000);     // nothing vanished
    assert_int_equal(ev + lost, 5000);
}

// The readers outside the target (kevdump, kevprobe) walk the ring's table through the ring map
// (trace/kev_ring_map.h) and kev_ring_walk. The truth: the ring's own struct trace_buf, as the
// compiler lays it out, after a ring wrapped its buffers many times; and, for sequence numbers
// past 2^32, the order they were given out in.
static void test_ring_walk_orders_the_table_by_sequence(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(4, TRACE_POLICY_RING), 0);
    trace_host_port.step = 3;
    emit_n(9000);                       // about nine buffers: every one reused
    const struct kev_ring_map m = {
        .nbufs = ring.tr_nbufs, .ptr_bytes = sizeof(void *),
        .buf_stride = sizeof(struct trace_buf), .off_seq = offsetof(struct trace_buf, tb_seq),
        .off_state = offsetof(struct trace_buf, tb_state),
        .off_cpu = offsetof(struct trace_buf, tb_cpu),
        .off_nslots = offsetof(struct trace_buf, tb_nslots),
    };
    const uint8_t *table = (const uint8_t *)ring.tr_buf;
    unsigned order[NBUF_MAX], n = kev_ring_walk(&m, table, 0, order), in_use = 0;
    for (unsigned i = 0; i < ring.tr_nbufs; i++) {
        const uint8_t *e = kev_ring_entry(&m, table, i);
        assert_int_equal(kev_ring_state(&m, e), ring.tr_buf[i].tb_state);
        assert_int_equal(kev_ring_seq(&m, e), ring.tr_buf[i].tb_seq);
        assert_int_equal(kev_ring_nslots(&m, e), ring.tr_buf[i].tb_nslots);
        in_use += ring.tr_buf[i].tb_state != TRACE_BUF_FREE;
    }
    assert_int_equal(n, in_use);
    assert_true(n >= 2);
    for (unsigned k = 1; k < n; k++)
        assert_true(ring.tr_buf[order[k - 1]].tb_seq < ring.tr_buf[order[k]].tb_seq);
    // From the newest, the older ones come after it, oldest first.
    uint32_t newest = ring.tr_buf[order[n - 1]].tb_seq;
    unsigned again[NBUF_MAX];
    assert_int_equal(kev_ring_walk(&m, table, newest, again), n);
    assert_int_equal(again[0], order[n - 1]);
    for (unsigned k = 1; k < n; k++)
        assert_int_equal(again[k], order[k - 1]);
    // Sequences given out across 2^32, in a table that does not hold them in order; a FREE
    // buffer's stale number is no buffer.
    static const uint32_t seqs[4] = { 1u, 0xfffffffeu, 0u, 0xffffffffu };
    for (unsigned i = 0; i < 4; i++) {
        ring.tr_buf[i].tb_seq = seqs[i];
        ring.tr_buf[i].tb_state = TRACE_BUF_FULL;
    }
    assert_int_equal(kev_ring_walk(&m, table, 0xfffffffeu, again), 4);
    assert_int_equal(again[0], 1);
    assert_int_equal(again[1], 3);
    assert_int_equal(again[2], 2);
    assert_int_equal(again[3], 0);
    ring.tr_buf[3].tb_state = TRACE_BUF_FREE;
    assert_int_equal(kev_ring_walk(&m, table, 0xfffffffeu, again), 3);
    assert_int_equal(again[1], 2);
}

// A quiet ring (a probe reads it, around the data cache on a Cortex-A) cleans what it gives the
// probe: when it turns quiet, what a capture already running wrote; a closed buffer's slots
// before its table entry says FULL, then the entry; the CPUs' loss counts at a flush. The
// port's record of its publications is the truth. A ring that is not quiet cleans nothing.
static void test_quiet_ring_publishes_what_a_probe_reads(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    emit_n(1021 + 1);                   // buffer 0 closed, buffer 1 begun
    assert_int_equal(trace_host_port.npub, 0);
    trace_ring_set_quiet(&ring, 1);     // the table, the counts, the next sequence, buffer 0
    assert_int_equal(trace_host_port.npub, 4);
    assert_ptr_equal(trace_host_port.pubs[3].p, mem);
    assert_int_equal(trace_host_port.pubs[3].n, KEV_BUF_BYTES);
    emit_n(1020 + 1);                   // buffer 1 closed (its 1021 events), the next dropped
    assert_int_equal(trace_host_port.npub, 6);
    assert_ptr_equal(trace_host_port.pubs[4].p, mem + KEV_BUF_SLOTS);     // its slots first
    assert_int_equal(trace_host_port.pubs[4].n, KEV_BUF_BYTES);
    assert_ptr_equal(trace_host_port.pubs[5].p, &ring.tr_buf[1]);         // then FULL
    assert_int_equal(trace_host_port.pubs[5].n, sizeof(struct trace_buf));
    assert_int_equal(trace_ring_flush(&ring, NULL), 0);
    assert_int_equal(trace_host_port.npub, 7);                  // the loss counts (1 dropped)
    assert_ptr_equal(trace_host_port.pubs[6].p, ring.tr_cpu);
}

// The owner's withheld classes (a passive logger's -F) stay off whatever the class filters say
// afterwards (the program that starts the capture adds every class): nothing recorded, nothing
// counted generated, the other classes as before.
static void test_withheld_class_stays_off(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    trace_filter_withhold(&ring, 1u << PR);
    trace_filter_all(&ring, 1);
    assert_int_equal(trace_filter_class(&ring, PR, 1), 0);
    assert_false(trace_on(&ring, PR));
    assert_true(trace_on(&ring, KEV_C_COMM));
    emit_n(10);
    trace_emit_simple(&ring, KEV_C_COMM, 1, 0, 0);
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(cnt.recorded + cnt.dropped, 1);
    trace_filter_withhold(&ring, 0);
    assert_true(trace_on(&ring, PR));
}

// The host's acknowledgement words (trace/kev_probe.h, "Hand-over") are untrusted: a word that
// names no life of its buffer is refused and counted once a life while the ring goes on by
// its policy (here: switch, the buffer no one's to reuse); a word left from an earlier life is
// no lie; the host's done, once it comes, is believed.
static uint32_t acks[NBUF_MAX];

static void setup_host_ring(unsigned nbufs, unsigned policy)
{
    assert_int_equal(setup_ring(nbufs, policy), 0);
    memset(acks, 0, sizeof(acks));
    trace_ring_set_quiet(&ring, 1);
    trace_ring_set_acks(&ring, acks);
}

static void test_host_word_garbage_refused_and_counted(void **st)
{
    (void)st;
    setup_host_ring(2, TRACE_POLICY_SWITCH);
    emit_n(1021 + 1);           // buffer 0 (sequence 0) FULL, buffer 1 (sequence 1) begun
    acks[0] = 0x12345678;       // no sequence buffer 0 has had
    emit_n(1020 + 100);         // buffer 1 FULL; buffer 0 is not the host's to give back
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(ring.tr_refused, 1);       // once, though looked at at 101 picks
    assert_int_equal(cnt.dropped, 100);
    acks[0] = 0u + 1u;          // the host's done for sequence 0: believed
    emit_n(5);
    assert_int_equal(ring.tr_cpu[0].tc_buf, 0);
    assert_int_equal(ring.tr_buf[0].tb_seq, 2);
    acks[1] = ~(0u + 1u);       // a claim of sequence 0, below buffer 1's: left behind, no lie
    emit_n(1015 + 1);           // buffer 0 FULL (3 control slots), no buffer free: 1 dropped
    assert_int_equal(ring.tr_refused, 1);
    acks[1] = 6u + 1u;          // a done for sequence 6, which the ring never gave out
    emit_n(1);
    assert_int_equal(ring.tr_refused, 2);
    trace_ring_stop(&ring);
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(cnt.recorded, 1021 + 1021 + 1020);
    assert_int_equal(cnt.dropped, 100 + 1 + 1);
    assert_int_equal(cnt.recorded + cnt.dropped, 1022 + 1120 + 5 + 1016 + 1);
}

// A host that claims every FULL buffer the moment it is FULL and never finishes: in the ring
// and overwrite policies a claim holds its buffer for TRACE_CLAIM_PASSES picks that wanted it,
// then is refused (counted) and the buffer reused: the writers lose at most that many events a
// buffer switch, everything else is kept or counted overwritten, and the newest event is kept,
// as the policy says. In the switch policy no FULL buffer is reused unless given back, claim or
// none: the ring fills and drops, counted, as it would with no reader. Never a stall.
static void claim_every_full(void)
{
    for (unsigned i = 0; i < ring.tr_nbufs; i++)
        if (ring.tr_buf[i].tb_state == TRACE_BUF_FULL)
            acks[i] = ~(ring.tr_buf[i].tb_seq + 1u);
}

static void test_host_claims_for_ever_cost_the_policy_only(void **st)
{
    (void)st;
    const unsigned policies[] = { TRACE_POLICY_RING, TRACE_POLICY_OVERWRITE, TRACE_POLICY_SWITCH };
    const uint32_t n = 20000;
    for (unsigned k = 0; k < 3; k++) {
        setup_host_ring(4, policies[k]);
        for (uint32_t i = 0; i < n; i++) {
            trace_emit_simple(&ring, PR, KEV_TH_READY, i, 1);
            claim_every_full();
        }
        struct trace_counts cnt;
        trace_ring_counts(&ring, 0, &cnt);
        assert_int_equal(cnt.recorded + cnt.dropped + cnt.overwritten, n);   // nothing vanished
        if (policies[k] == TRACE_POLICY_SWITCH) {
            assert_int_equal(cnt.recorded, 4 * 1021);   // the four buffers, then only drops
            assert_int_equal(cnt.overwritten, 0);
            assert_int_equal(ring.tr_refused, 0);       // a claim is no lie
            continue;
        }
        assert_true(cnt.overwritten > 0);
        assert_true(ring.tr_refused > 0);
        assert_true(cnt.dropped <= (uint64_t)TRACE_CLAIM_PASSES * cnt.buffers);
        assert_true(cnt.dropped * 100 < n);
        trace_ring_stop(&ring);     // the newest events are kept (the last few may be lost)
        uint32_t newest = 0;
        for (unsigned b = 0; b < 4; b++) {
            const struct kev_slot *sl = mem + (size_t)b * KEV_BUF_SLOTS;
            for (unsigned i = 0; i < ring.tr_buf[b].tb_nslots; i++)
                if (kev_hdr_class(sl[i].header) == PR && sl[i].data[1] > newest)
                    newest = sl[i].data[1];
        }
        assert_true(newest + TRACE_CLAIM_PASSES >= n - 1);
    }
}

static void test_fill_policy_stops_when_full(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_FILL), 0);
    emit_n(3000);
    assert_false(trace_on(&ring, PR));
    assert_int_equal(ring.tr_filled, 1);
    assert_int_equal(trace_host_port.nstopped, 1);  // the port heard of it, once
    struct trace_counts cnt;
    trace_ring_counts(&ring, 0, &cnt);
    assert_int_equal(cnt.recorded, 2 * 1021);
    assert_int_equal(cnt.dropped + cnt.overwritten, 0);
    assert_int_equal(trace_host_port.nnotes, 2);
    uint64_t ev = 0;
    take_checked(NULL, &ev, NULL);
    take_checked(NULL, &ev, NULL);
    assert_int_equal(ev, 2042);
    // A new start makes a new pass (over the buffers the logger released).
    assert_int_equal(trace_ring_start(&ring), 0);
    emit_n(1);
    assert_int_equal(ring.tr_filled, 1); // buffer 0 still held by the logger: stops at once
}

static void test_combine_event_at_buffer_boundary(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    trace_host_port.now = 1000;
    emit_n(1018); // slots 0..1019 used, 1020..1022 free, 1023 reserved
    assert_int_equal(used_now(), 1020);
    uint32_t w[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    trace_host_port.now = 2000;
    trace_emit_words(&ring, KEV_C_USER, 77, w, 7); // 4 slots: does not fit in 3
    assert_int_equal(ring.tr_buf[0].tb_nslots, 1021);
    assert_int_equal(mem[1020].header, CTL(KEV_CTL_BUFFER_END));
    assert_int_equal(mem[1020].data[2], 1018);
    const struct kev_slot *s = mem + KEV_BUF_SLOTS + 2;
    assert_slot(&s[0], KEV_HEADER(KEV_TYPE_CB, KEV_C_USER, 77, 0), 2000, 1, 2);
    assert_slot(&s[1], KEV_HEADER(KEV_TYPE_CC, KEV_C_USER, 77, 0), 2000, 3, 4);
    assert_slot(&s[2], KEV_HEADER(KEV_TYPE_CC, KEV_C_USER, 77, 0), 2000, 5, 6);
    assert_slot(&s[3], KEV_HEADER(KEV_TYPE_CE, KEV_C_USER, 77, 0), 2000, 7, 0);
    trace_emit_words(&ring, KEV_C_USER, 78, w, 2); // 2 words: a simple slot
    assert_slot(&s[4], KEV_HEADER(KEV_TYPE_S, KEV_C_USER, 78, 0), 2000, 1, 2);
    trace_ring_stop(&ring);
    uint64_t ev = 0;
    take_checked(NULL, &ev, NULL);
    take_checked(NULL, &ev, NULL);
    assert_int_equal(ev, 1020);
}

// trace_emit_words_stamped: the time an event was written with, on the inline path and the
// general one (a new high word restated), and no time when nothing was written (class off).
static void test_words_stamped_reads_the_time_back(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    uint32_t w[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    uint32_t ts = 7;
    trace_host_port.now = 1000;
    trace_emit_simple(&ring, PR, KEV_TH_READY, 1, 1);                              // slot 2
    trace_host_port.now = 1500;
    assert_int_equal(trace_emit_words_stamped(&ring, KEV_C_SYSTEM, KEV_SYS_STACK, w, 3, &ts), 1);
    assert_int_equal(ts, 1500);                                                   // slots 3-4
    trace_host_port.now = 0x100000010ull;                                         // general path
    assert_int_equal(trace_emit_words_stamped(&ring, KEV_C_SYSTEM, KEV_SYS_STACK, w, 12, &ts), 1);
    assert_int_equal(ts, 0x10);                                                   // TIME, 5-10
    trace_filter_class(&ring, KEV_C_SYSTEM, 0);
    ts = 7;
    trace_host_port.now = 0x100000020ull;
    assert_int_equal(trace_emit_words_stamped(&ring, KEV_C_SYSTEM, KEV_SYS_STACK, w, 3, &ts), 0);
    assert_int_equal(ts, 7);
    const struct kev_slot *s = mem;
    assert_slot(&s[3], KEV_HEADER(KEV_TYPE_CB, KEV_C_SYSTEM, KEV_SYS_STACK, 0), 1500, 1, 2);
    assert_slot(&s[5], CTL(KEV_CTL_TIME), 0x10, 1, 0x10);
    assert_slot(&s[6], KEV_HEADER(KEV_TYPE_CB, KEV_C_SYSTEM, KEV_SYS_STACK, 0), 0x10, 1, 2);
    assert_int_equal(used_now(), 12);
}

static void test_string_event_packing(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(1, TRACE_POLICY_SWITCH), 0);
    uint32_t w[2] = { 1, 42 };
    trace_emit_string(&ring, PR, KEV_PR_CREATE_NAME, w, 2, "hello world!");
    const struct kev_slot *s = mem + 2;
    assert_int_equal(kev_hdr_type(s[0].header), KEV_TYPE_CB);
    assert_int_equal(kev_hdr_type(s[1].header), KEV_TYPE_CC);
    assert_int_equal(kev_hdr_type(s[2].header), KEV_TYPE_CE);
    assert_int_equal(s[0].data[1], 1);
    assert_int_equal(s[0].data[2], 42);
    char txt[16];
    memcpy(txt, &s[1].data[1], 8);
    memcpy(txt + 8, &s[2].data[1], 8);
    assert_memory_equal(txt, "hello world!\0\0\0\0", 16);
    // An oversized string is cut to fit KEV_MAX_COMBINE_SLOTS and stays NUL terminated.
    static char big[10000];
    memset(big, 'x', sizeof(big) - 1);
    trace_ring_flush(&ring, NULL);
    unsigned idx, n;
    assert_int_equal(trace_ring_take(&ring, &idx), 0);
    assert_int_equal(trace_ring_release(&ring, idx), 0);
    trace_emit_string(&ring, KEV_C_USER, 5, NULL, 0, big);
    s = mem + 2;
    assert_int_equal(kev_hdr_type(s[KEV_MAX_COMBINE_SLOTS - 1].header), KEV_TYPE_CE);
    assert_int_equal(s[KEV_MAX_COMBINE_SLOTS - 1].data[2] >> 24, 0);
    trace_ring_stop(&ring);
    take_checked(&n, NULL, NULL);
    assert_int_equal(n, 2 + KEV_MAX_COMBINE_SLOTS + 1);
}

static unsigned dyn_calls;
static int dyn_even_only(void *arg, unsigned cls, unsigned ev, const uint32_t *w, unsigned n)
{
    (void)cls;
    (void)ev;
    dyn_calls++;
    assert_ptr_equal(arg, &dyn_calls);
    return n >= 1 && (w[0] & 1u) == 0;
}

static void test_filters(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(2, TRACE_POLICY_SWITCH), 0);
    trace_filter_all(&ring, 0);
    assert_int_equal(trace_filter_event(&ring, KEV_C_KER_CALL, KEV_KC_ENTRY(5), 1), 0);
    trace_emit_simple(&ring, KEV_C_KER_CALL, KEV_KC_ENTRY(5), 1, 0);  // kept
    trace_emit_simple(&ring, KEV_C_KER_CALL, KEV_KC_ENTRY(6), 2, 0);  // event off
    trace_emit_simple(&ring, PR, KEV_TH_READY, 3, 0);                 // class off
    assert_int_equal(trace_filter_class(&ring, PR, 1), 0);
    assert_int_equal(trace_filter_event(&ring, PR, KEV_TH_READY, 0), 0); // all but READY
    trace_emit_simple(&ring, PR, KEV_TH_READY, 4, 0);                 // dropped by filter
    trace_emit_simple(&ring, PR, KEV_TH_RUNNING, 5, 0);               // kept
    // PID filter on a class, TID filter on one event.
    assert_int_equal(trace_filter_class(&ring, KEV_C_COMM, 1), 0);
    assert_int_equal(trace_filter_class_pid(&ring, KEV_C_COMM, 7), 0);
    assert_int_equal(trace_filter_event_tid(&ring, KEV_C_USER, 9, 3), 0);
    assert_int_equal(trace_filter_class(&ring, KEV_C_USER, 1), 0);
    trace_ring_set_current(&ring, 7, 2);
    trace_emit_simple(&ring, KEV_C_COMM, KEV_COMM_SND_MESSAGE, 6, 0); // pid 7: kept
    trace_emit_simple(&ring, KEV_C_USER, 9, 7, 0);                    // tid 2: dropped
    trace_emit_simple(&ring, KEV_C_USER, 10, 8, 0);                   // other event: kept
    trace_ring_set_current(&ring, 8, 3);
    trace_emit_simple(&ring, KEV_C_COMM, KEV_COMM_SND_MESSAGE, 9, 0); // pid 8: dropped
    trace_emit_simple(&ring, KEV_C_USER, 9, 10, 0);                   // tid 3: kept
    assert_int_equal(trace_filter_class_pid(&ring, KEV_C_COMM, 0), 0);
    trace_emit_simple(&ring, KEV_C_COMM, KEV_COMM_SND_MESSAGE, 11, 0); // filter cleared: kept
    // Dynamic filter on USER events: keeps even first words only.
    trace_filter_dynamic(&ring, 1u << KEV_C_USER, dyn_even_only, &dyn_calls);
    trace_emit_simple(&ring, KEV_C_USER, 10, 13, 0); // odd: dropped
    trace_emit_simple(&ring, KEV_C_USER, 10, 14, 0); // even: kept
    assert_int_equal(dyn_calls, 2);
    trace_filter_dynamic(&ring, 0, NULL, NULL);
    trace_emit_simple(&ring, KEV_C_USER, 10, 15, 0); // detached: kept
    assert_int_equal(dyn_calls, 2);
    // Per-event filter table is bounded.
    for (unsigned i = 0; i < TRACE_EV_FILTERS - 1; i++)
        assert_int_equal(trace_filter_event_pid(&ring, KEV_C_SYSTEM, i, 1), 0);
    assert_int_equal(trace_filter_event_pid(&ring, KEV_C_SYSTEM, 99, 1), -TRACE_ENOSPC);

    trace_ring_stop(&ring);
    unsigned n;
    const struct kev_slot *s = take_checked(&n, NULL, NULL);
    static const uint32_t kept[] = { 1, 5, 6, 8, 10, 11, 14, 15 };
    assert_int_equal(n, 3 + sizeof(kept) / sizeof(kept[0]));
    for (unsigned i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
        assert_int_equal(s[2 + i].data[1], kept[i]);
}

static void test_wide_mode_settings(void **st)
{
    (void)st;
    assert_int_equal(setup_ring(1, TRACE_POLICY_SWITCH), 0);
    assert_false(trace_is_wide(&ring, PR, KEV_TH_READY));
    assert_int_equal(trace_mode_class(&ring, PR, 1), 0);
    assert_true(trace_is_wide(&ring, PR, KEV_TH_READY));
    assert_false(trace_is_wide(&ring, KEV_C_COMM, 0));
    assert_int_equal(trace_mode_event(&ring, PR, KEV_TH_READY, 0), 0);
    assert_false(trace_is_wide(&ring, PR, KEV_TH_READY));
    assert_true(trace_is_wide(&ring, PR, KEV_TH_RUNNING));
    // one wide event in an otherwise fast class, then none (the class summary follows)
    assert_int_equal(trace_mode_event(&ring, KEV_C_COMM, 7, 1), 0);
    assert_true(trace_is_wide(&ring, KEV_C_COMM, 7));
    assert_false(trace_is_wide(&ring, KEV_C_COMM, 6));
    assert_int_equal(trace_mode_event(&ring, KEV_C_COMM, 7, 0), 0);
    assert_false(trace_is_wide(&ring, KEV_C_COMM, 7));
    assert_int_equal(ring.tr_wide & (1u << KEV_C_COMM), 0);
    trace_mode_all(&ring, 1);
    assert_true(trace_is_wide(&ring, KEV_C_COMM, 3));
    trace_mode_all(&ring, 0);
    assert_false(trace_is_wide(&ring, PR, KEV_TH_RUNNING));
    assert_int_equal(trace_mode_class(&ring, 0, 1), -TRACE_EINVAL);
}

// Random events and a random, sometimes slow logger, under every policy: the saved buffers'
// events plus the losses they report in DROPPED events (plus the loss still unreported at the
// end) equal what was emitted, and agree with the ring's own counters.
static void drain(uint64_t *ev, uint64_t *lost)
{
    unsigned idx;
    while (trace_ring_take(&ring, &idx) == 0) {
        ring.tr_buf[idx].tb_state = TRACE_BUF_FULL; // let take_checked take it again
        release_last_taken(take_checked(NULL, ev, lost));
    }
}

static void test_random_accounting_all_policies(void **st)
{
    (void)st;
    for (unsigned policy = 0; policy <= TRACE_POLICY_FILL; policy++) {
        for (unsigned seed = 1; seed <= 4; seed++) {
            assert_int_equal(setup_ring(1 + seed % 4, policy), 0);
            srand(seed * 7 + policy);
            trace_host_port.step = 5;
            uint64_t generated = 0, ev = 0, lost = 0;
            uint32_t w[40] = { 0 };
            for (unsigned i = 0; i < 20000 && trace_on(&ring, PR); i++) {
                unsigned k = (unsigned)rand() % 100;
                trace_host_port.in_irq = k < 10;
                if (k < 80)
                    trace_emit_simple(&ring, PR, KEV_TH_READY, i, 0);
                else
                    trace_emit_words(&ring, PR, KEV_TH_CREATE, w, 1 + k % 40);
                if (!ring.tr_filled) // fill mode: the event that found no room stops tracing
                    generated++;
                trace_host_port.in_irq = 0;
                trace_ring_irq_exit(&ring);
                if (policy != TRACE_POLICY_RING && rand() % 700 == 0)
                    drain(&ev, &lost);
                if (rand() % 5000 == 0)
                    trace_host_port.now += 0x100000000ull; // time jumps a whole wrap
            }
            trace_ring_stop(&ring);
            drain(&ev, &lost);
            assert_int_equal(trace_host_port.notify_in_irq, 0);
            struct trace_counts cnt;
            trace_ring_counts(&ring, 0, &cnt);
            assert_int_equal(cnt.recorded + cnt.dropped + cnt.overwritten, generated);
            assert_int_equal(ev, cnt.recorded);
            assert_int_equal(ev + lost + cnt.unreported, generated);
            if (policy == TRACE_POLICY_SWITCH || policy == TRACE_POLICY_FILL)
                assert_int_equal(cnt.overwritten, 0);
            else
                assert_int_equal(cnt.dropped, 0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_rejects_bad_arguments),
        cmocka_unit_test(test_first_event_exact_slots),
        cmocka_unit_test(test_disabled_class_generates_nothing),
        cmocka_unit_test(test_high_water_and_switch_at_full),
        cmocka_unit_test(test_high_water_in_interrupt_is_deferred),
        cmocka_unit_test(test_logger_take_switches_past_high_water),
        cmocka_unit_test(test_time_wrap_writes_time_event),
        cmocka_unit_test(test_switch_policy_drops_and_counts),
        cmocka_unit_test(test_emit_at_and_count_lost),
        cmocka_unit_test(test_overwrite_policy_skips_logger_buffer),
        cmocka_unit_test(test_ring_policy_keeps_the_latest),
        cmocka_unit_test(test_table_lies_refused_and_counted),
        cmocka_unit_test(test_host_word_garbage_refused_and_counted),
        cmocka_unit_test(test_host_claims_for_ever_cost_the_policy_only),
        cmocka_unit_test(test_quiet_ring_publishes_what_a_probe_reads),
        cmocka_unit_test(test_withheld_class_stays_off),
        cmocka_unit_test(test_fill_policy_stops_when_full),
        cmocka_unit_test(test_combine_event_at_buffer_boundary),
        cmocka_unit_test(test_words_stamped_reads_the_time_back),
        cmocka_unit_test(test_string_event_packing),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_wide_mode_settings),
        cmocka_unit_test(test_random_accounting_all_policies),
        cmocka_unit_test(test_ring_walk_orders_the_table_by_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
