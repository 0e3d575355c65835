// SPDX-License-Identifier: MIT
// The producer built for 4 CPUs (-DTRACE_MAX_CPUS=4, see trace/module.mk): each CPU fills its
// own buffer with its number in every header, counters and deferred notifications are per
// CPU, and a captured file decodes with per-CPU totals that add up.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <trace/kev_decode.h>
#include <trace/trace_ring.h>
#include <kevhost/kev_capture.h>

_Static_assert(TRACE_MAX_CPUS == 4, "this test is built for 4 CPUs");
// No cache line holds two CPUs' hot fields, nor one CPU's and the words every hook reads.
_Static_assert(offsetof(struct trace_ring, tr_cpu) % TRACE_CACHE_LINE == 0 &&
               sizeof(struct trace_cpu) % TRACE_CACHE_LINE == 0 &&
               offsetof(struct trace_ring, tr_classes) % TRACE_CACHE_LINE == 0 &&
               _Alignof(struct trace_ring) >= TRACE_CACHE_LINE,
               "each CPU's trace state has cache lines of its own");

static struct kev_slot mem[4 * KEV_BUF_SLOTS];
static struct trace_ring ring;
static struct kev_reader rd;

static void on_cpu(unsigned cpu, unsigned n, uint32_t tag)
{
    trace_host_port.cpu = cpu;
    for (unsigned i = 0; i < n; i++)
        trace_emit_simple(&ring, KEV_C_PR_TH, KEV_TH_READY, tag, i);
}

static void setup(unsigned nbufs)
{
    memset(&trace_host_port, 0, sizeof(trace_host_port));
    assert_int_equal(trace_ring_init(&ring, mem, sizeof(mem), nbufs), 0);
    trace_filter_all(&ring, 1);
    assert_int_equal(trace_ring_start(&ring), 0);
}

static void test_each_cpu_fills_its_own_buffer(void **st)
{
    (void)st;
    setup(4);
    on_cpu(0, 10, 100);
    on_cpu(2, 5, 200);
    on_cpu(0, 1, 101);
    assert_int_equal(ring.tr_cpu[0].tc_buf, 0);
    assert_int_equal(ring.tr_cpu[2].tc_buf, 1);
    assert_int_equal(ring.tr_cpu[1].tc_buf, -1);
    const struct kev_slot *b1 = mem + KEV_BUF_SLOTS;
    assert_int_equal(kev_hdr_cpu(b1[0].header), 2); // BUFFER
    assert_int_equal(kev_hdr_cpu(b1[2].header), 2);
    assert_int_equal(b1[2].data[1], 200);
    assert_int_equal(mem[12].data[1], 101); // cpu 0's 11th event follows its 10th
    struct trace_counts c0, c2;
    trace_ring_counts(&ring, 0, &c0);
    trace_ring_counts(&ring, 2, &c2);
    assert_int_equal(c0.recorded, 11);
    assert_int_equal(c2.recorded, 5);
}

static void test_loss_and_notifications_are_per_cpu(void **st)
{
    (void)st;
    setup(2);
    on_cpu(0, 1, 0);          // cpu 0 takes buffer 0
    trace_host_port.in_irq = 1;
    on_cpu(1, 1021 + 7, 1);   // cpu 1 fills buffer 1 in an interrupt, then finds none: 7 lost
    trace_host_port.in_irq = 0;
    struct trace_counts c0, c1;
    trace_ring_counts(&ring, 0, &c0);
    trace_ring_counts(&ring, 1, &c1);
    assert_int_equal(c0.dropped, 0);
    assert_int_equal(c1.dropped, 7);
    assert_int_equal(c1.recorded, 1021);
    assert_int_equal(trace_host_port.nnotes, 0);
    trace_host_port.cpu = 0;
    trace_ring_irq_exit(&ring); // cpu 0 has nothing pending
    assert_int_equal(trace_host_port.nnotes, 0);
    trace_host_port.cpu = 1;
    trace_ring_irq_exit(&ring);
    assert_int_equal(trace_host_port.nnotes, 1);
    assert_int_equal(trace_host_port.notes[0].idx, 1);
}

static void test_capture_decodes_per_cpu_totals(void **st)
{
    (void)st;
    setup(4);
    struct kcap c;
    kcap_begin(&c, 0, 1000);
    for (unsigned round = 0; round < 50; round++) {
        on_cpu(round % 3, 97, round);
        kcap_drain(&c, &ring);
    }
    kcap_finish(&c, &ring);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    assert_int_equal(kev_decode(&rd), 0);
    assert_int_equal(rd.kr_trl_ncpu, 4);
    assert_int_equal(rd.kr_ncpu_seen, 3);
    assert_int_equal(rd.kr_cpu[0].cs_events, 17 * 97);
    assert_int_equal(rd.kr_cpu[1].cs_events, 17 * 97);
    assert_int_equal(rd.kr_cpu[2].cs_events, 16 * 97);
    assert_int_equal(rd.kr_events, 50 * 97);
    assert_int_equal(kev_lost_total(&rd), 0);
    kcap_free(&c);
}

// A buffer one CPU filled, saved by a logger on a third CPU, is handed to another CPU: the new
// owner's number is in its headers and its events count for the new owner alone.
static void test_buffer_handed_between_cpus(void **st)
{
    (void)st;
    setup(2);
    on_cpu(0, 1021 + 1, 1);     // cpu 0 fills buffer 0 and goes on in buffer 1
    assert_int_equal(ring.tr_cpu[0].tc_buf, 1);
    unsigned idx = 9;
    trace_host_port.cpu = 3;    // the logger runs on cpu 3
    assert_int_equal(trace_ring_take(&ring, &idx), 0);
    assert_int_equal(idx, 0);
    assert_int_equal(trace_ring_release(&ring, idx), 0);
    on_cpu(1, 5, 2);            // cpu 1 gets buffer 0
    assert_int_equal(ring.tr_cpu[1].tc_buf, 0);
    assert_int_equal(kev_hdr_cpu(mem[0].header), 1);  // BUFFER, now cpu 1's
    assert_int_equal(kev_hdr_cpu(mem[2].header), 1);
    assert_int_equal(mem[2].data[1], 2);
    struct trace_counts c0, c1;
    trace_ring_counts(&ring, 0, &c0);
    trace_ring_counts(&ring, 1, &c1);
    assert_int_equal(c0.recorded, 1022);
    assert_int_equal(c1.recorded, 5);
    assert_int_equal(c0.dropped + c0.overwritten + c1.dropped + c1.overwritten, 0);
}

// Overwrite: cpu 1 takes the oldest unsaved buffer, which cpu 0 filled; the loss is cpu 0's
// (recorded + lost == generated on each CPU).
static void test_overwrite_charges_the_buffers_owner(void **st)
{
    (void)st;
    memset(&trace_host_port, 0, sizeof(trace_host_port));
    assert_int_equal(trace_ring_init(&ring, mem, sizeof(mem), 2), 0);
    trace_filter_all(&ring, 1);
    assert_int_equal(trace_ring_set_policy(&ring, TRACE_POLICY_OVERWRITE), 0);
    assert_int_equal(trace_ring_start(&ring), 0);
    on_cpu(0, 2 * 1021, 1);     // buffer 0 full, buffer 1 full but still cpu 0's current
    on_cpu(1, 1, 2);            // no free buffer: buffer 0 is overwritten for cpu 1
    assert_int_equal(ring.tr_cpu[1].tc_buf, 0);
    struct trace_counts c0, c1;
    trace_ring_counts(&ring, 0, &c0);
    trace_ring_counts(&ring, 1, &c1);
    assert_int_equal(c0.overwritten, 1021);
    assert_int_equal(c0.recorded, 1021);
    assert_int_equal(c0.recorded + c0.dropped + c0.overwritten, 2 * 1021);
    assert_int_equal(c1.recorded, 1);
    assert_int_equal(c1.dropped + c1.overwritten, 0);
}

// Buffers are saved as they fill, not in sequence order: cpu 0 starts buffer 0 and writes a
// little, cpu 1 fills buffer 1, which is saved first. The file holds every sequence number:
// none is missing, though they are out of order.
static void test_buffers_saved_out_of_order_are_not_missing(void **st)
{
    (void)st;
    setup(4);
    struct kcap c;
    kcap_begin(&c, 0, 1000);
    on_cpu(0, 5, 1);
    on_cpu(1, 1021 + 1, 2);
    kcap_drain(&c, &ring);
    on_cpu(0, 5, 3);
    kcap_finish(&c, &ring);
    assert_int_equal(kev_open(&rd, c.data, c.len), 0);
    assert_int_equal(kev_decode(&rd), 0);
    assert_int_equal(rd.kr_buffers, 3);
    assert_true(rd.kr_seq_reorder > 0);
    assert_int_equal(rd.kr_seq_missing, 0);
    kcap_free(&c);
}

// The panic path (kernel/kpanic.c): a fault inside an emit leaves this CPU's lock held by code
// that never runs again. trace_ring_panic_writable lets it go, so the KPANIC event still goes
// in (without it, the emit below takes a held lock: the port traps, a hang on a real CPU); a
// pool lock that stays held, or an inline hook's busy mark in the write pointer, say no.
static void test_panic_lets_go_of_its_own_cpus_lock(void **st)
{
    (void)st;
    setup(4);
    trace_host_port.cpu = 1;
    on_cpu(1, 3, 300);
    ring.tr_cpu[1].tc_lock = 1;         // the fault came inside an emit on CPU 1
    assert_true(trace_ring_panic_writable(&ring, 1000));
    assert_int_equal(ring.tr_cpu[1].tc_lock, 0);
    trace_emit_string(&ring, KEV_C_SYSTEM, KEV_SYS_KPANIC, NULL, 0, "x");
    const struct kev_slot *b = mem + KEV_BUF_SLOTS * (unsigned)ring.tr_cpu[1].tc_buf;
    assert_int_equal(b[4].data[1], 300);    // BUFFER, TIME, CPU 1's three events,
    assert_int_equal(b[4].data[2], 2);
    assert_int_equal(kev_hdr_class(b[5].header), KEV_C_SYSTEM);     // then the panic's
    assert_int_equal(kev_hdr_event(b[5].header), KEV_SYS_KPANIC);

    ring.tr_pool_lock = 1;              // held through the wait: a buffer switch never ended
    assert_false(trace_ring_panic_writable(&ring, 1000));
    ring.tr_pool_lock = 0;
    struct kev_slot *wp = ring.tr_cpu[1].tc_wp;
    ring.tr_cpu[1].tc_wp = (struct kev_slot *)(void *)&ring.tr_cpu[1];  // the busy mark
    assert_false(trace_ring_panic_writable(&ring, 1000));
    ring.tr_cpu[1].tc_wp = wp;
    assert_true(trace_ring_panic_writable(&ring, 1000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_cpu_fills_its_own_buffer),
        cmocka_unit_test(test_loss_and_notifications_are_per_cpu),
        cmocka_unit_test(test_capture_decodes_per_cpu_totals),
        cmocka_unit_test(test_buffer_handed_between_cpus),
        cmocka_unit_test(test_overwrite_charges_the_buffers_owner),
        cmocka_unit_test(test_buffers_saved_out_of_order_are_not_missing),
        cmocka_unit_test(test_panic_lets_go_of_its_own_cpus_lock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
