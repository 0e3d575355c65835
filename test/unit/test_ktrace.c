// SPDX-License-Identifier: MIT
// The kernel's trace glue on the host: buffers from the contiguous allocator (ENOMEM when no
// block is large enough, EEXIST twice), the per-class hook flags following the ring, the
// dynamic filter entry point the D engine uses, user events, the user-event rings' checks
// (kernel/kuring.c), and the snapshot at START.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/ktrace.h>
#include <kernel/pmem.h>
#include <kernel/kuring.h>
#include <uapi/ktrace.h>

static uint8_t ram[4096] __attribute__((aligned(4096)));
static struct kapp_header trace_app;
static struct proc *p;
static struct thread *t;
static uint8_t *pool;
#define POOL (768u << 10)

static int setup(void **state)
{
    (void)state;
    kstub_reset();
    pool = aligned_alloc(4096, POOL);
    assert_non_null(pool);
    pmem_init(&k_pmem, (uintptr_t)pool, POOL);      // 768 KB: 32 buffers fit, 64 do not
    kstub_thread(NULL, 0);
    p = kstub_proc(1, ram, sizeof(ram), KAPP_F_TRACE);
    trace_app = *p->app;
    p->app = &trace_app;
    t = kstub_thread(p, 50);
    kstub_run(t);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(pool);
    return 0;
}

static int te(uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    return ktrace_call(t, cmd, a, b, c);
}

static void test_alloc_errors(void **state)
{
    (void)state;
    assert_int_equal(te(KTRACE_START, 0, 0, 0), -ECANCELED);
    assert_int_equal(te(KTRACE_ALLOCBUFFER, 64, 0, 0), -ENOMEM);    // 1 MB > the pool
    assert_int_equal(te(KTRACE_ALLOCBUFFER, 32, 0, 0), 32);
    assert_int_equal(te(KTRACE_ALLOCBUFFER, 2, 0, 0), -EEXIST);
    assert_int_equal(p->map_len, 32 * 16384);
    assert_int_equal(te(KTRACE_DEALLOCBUFFER, 0, 0, 0), 0);
    assert_int_equal(p->map_len, 0);
    assert_int_equal(pmem_free_bytes(&k_pmem), POOL);
    // Without KAPP_F_TRACE: EPERM, but user events are allowed.
    trace_app.flags = 0;
    assert_int_equal(te(KTRACE_ALLOCBUFFER, 2, 0, 0), -EPERM);
    assert_int_equal(te(KTRACE_INSERTSUSEREVENT, 3, 1, 2), 0);
}

// Another KAPP_F_TRACE process may not throw the owner's buffers away, and
// a ring's memory is cleared when it is freed: the next one holds none of its words.
static void test_dealloc_owner_and_clear(void **state)
{
    (void)state;
    static uint8_t ram2[4096] __attribute__((aligned(4096)));
    assert_int_equal(te(KTRACE_ALLOCBUFFER, 2, 0, 0), 2);
    uint8_t *mem = pool + (p->map_base - (uint32_t)(uintptr_t)pool);  // (32-bit addresses)
    memset(mem, 0xa5, 2 * 16384);       // as a capture leaves it
    struct proc *q = kstub_proc(2, ram2, sizeof(ram2), KAPP_F_TRACE);
    struct thread *u = kstub_thread(q, 40);
    kstub_run(u);
    assert_int_equal(ktrace_call(u, KTRACE_DEALLOCBUFFER, 0, 0, 0), -EPERM);
    assert_int_equal(ktrace_call(u, KTRACE_ALLOCBUFFER, 2, 0, 0), -EEXIST);
    kstub_run(t);
    assert_int_equal(te(KTRACE_DEALLOCBUFFER, 0, 0, 0), 0);
    for (unsigned i = 0; i < 2 * 16384; i++)
        if (mem[i] != 0)
            fail_msg("byte %u of the freed ring is %#x, not cleared", i, mem[i]);
}

static void test_hook_flags_follow_the_ring(void **state)
{
    (void)state;
    te(KTRACE_ALLOCBUFFER, 2, 0, 0);
    te(KTRACE_ADDCLASS, KEV_C_COMM, 0, 0);
    assert_int_equal(ktrace_cls_on[KEV_C_COMM], 0);     // not running yet
    assert_int_equal(ktrace_kernel_on, 0);
    te(KTRACE_STARTNOSTATE, 0, 0, 0);
    assert_int_equal(ktrace_cls_on[KEV_C_COMM], 1);
    assert_int_equal(ktrace_cls_on[KEV_C_PR_TH], 0);
    assert_int_not_equal(ktrace_kernel_on, 0);
    te(KTRACE_STOP, 0, 0, 0);
    assert_int_equal(ktrace_cls_on[KEV_C_COMM], 0);
    assert_int_equal(ktrace_kernel_on, 0);
}

static int filter_calls, filter_keep_value;
static int keep_odd(void *arg, unsigned cls, unsigned ev, const uint32_t *w, unsigned n)
{
    (void)arg;
    (void)cls;
    (void)ev;
    filter_calls++;
    return n >= 1 && (w[0] & 1u) == (unsigned)filter_keep_value;
}

static uint64_t recorded(void)
{
    struct ktrace_query q;
    assert_int_equal(te(KTRACE_QUERYEVENTS, kstub_addr(ram), 0, 0), 0);
    memcpy(&q, ram, sizeof(q));
    return q.recorded;
}

static void test_dynamic_filter(void **state)
{
    (void)state;
    te(KTRACE_ALLOCBUFFER, 2, 0, 0);
    te(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    filter_keep_value = 1;
    ktrace_set_filter(1u << KEV_C_USER, keep_odd, NULL);
    te(KTRACE_STARTNOSTATE, 0, 0, 0);
    for (uint32_t i = 0; i < 10; i++)
        te(KTRACE_INSERTSUSEREVENT, 5, i, 0);
    assert_int_equal(filter_calls, 10);
    assert_int_equal(recorded(), 5);
    ktrace_set_filter(0, NULL, NULL);
    for (uint32_t i = 0; i < 10; i++)
        te(KTRACE_INSERTSUSEREVENT, 5, i, 0);
    assert_int_equal(filter_calls, 10);
    assert_int_equal(recorded(), 15);
}

static void test_user_event_errors(void **state)
{
    (void)state;
    te(KTRACE_ALLOCBUFFER, 2, 0, 0);
    assert_int_equal(te(KTRACE_INSERTSUSEREVENT, 1024, 0, 0), -EINVAL);
    // A thread's own ring exists on several CPUs only: one CPU refuses it (the process's
    // ring serves every thread there).
    assert_int_equal(te(KTRACE_USERRING, kstub_addr(ram), 8, KTRACE_USERRING_THREAD), -EINVAL);
    assert_int_equal(te(KTRACE_INSERTCUSEREVENT, 1, kstub_addr(ram), 65), -EINVAL);
    assert_int_equal(te(KTRACE_INSERTCUSEREVENT, 1, kstub_addr(ram) + 1, 2), -EFAULT);
    assert_int_equal(te(KTRACE_INSERTCUSEREVENT, 1, kstub_addr(ram) + 4090, 4), -EFAULT);
    assert_int_equal(te(KTRACE_INSERTUSRSTREVENT, 1, 0x10, 0), -EFAULT);
    memset(ram, 'x', 300);
    ram[300] = 0;
    assert_int_equal(te(KTRACE_INSERTUSRSTREVENT, 1, kstub_addr(ram), 0), 0); // cut, not refused
}

// The user-event ring (kernel/kuring.c): registration checks; the drain stops at a record not
// committed yet (the first one of a zeroed ring too), rejects a bad code, gives up a ring
// whose head is past its size (rejected: at most its size), each with a URING_BAD event naming
// the pid and never counted lost ("lost" is only what the system could not keep, so a
// process cannot inflate it); a new capture skips what was written before it, without
// touching the ring at START.
static void test_user_ring(void **state)
{
    (void)state;
    struct trace_counts c0, c;
    struct kuser_ring *u = (struct kuser_ring *)(ram + 1024);
    uint32_t ua = kstub_addr(u);
    memset(u, 0, sizeof(*u) + 8 * sizeof(struct kuser_rec));
    te(KTRACE_ALLOCBUFFER, 2, 0, 0);
    te(KTRACE_ADDALLCLASSES, 0, 0, 0);
    te(KTRACE_STARTNOSTATE, 0, 0, 0);
    assert_int_equal(te(KTRACE_USERRING, ua, 3, 0), -EINVAL);
    assert_int_equal(te(KTRACE_USERRING, ua, 2 * KUSER_RING_MAX, 0), -EINVAL);
    assert_int_equal(te(KTRACE_USERRING, ua + 2, 8, 0), -EINVAL);
    assert_int_equal(te(KTRACE_USERRING, kstub_addr(ram) + 4000, 8, 0), -EFAULT);
    assert_int_equal(te(KTRACE_USERRING, ua, 8, 0), 0);
    assert_int_equal(u->nrec, 8);
    trace_ring_counts(&ktrace, 0, &c0);

    // A zeroed ring: record 0 reserved, its tag not stored yet. Registration marked it
    // uncommitted, so the drain waits for it (a zero tag would read as sequence 0, code 0).
    u->head = 1;
    kuring_drain_current(p);
    trace_ring_counts(&ktrace, 0, &c);
    assert_int_equal(u->tail, 0);
    assert_int_equal(c.recorded, c0.recorded);
    u->head = 0;

    u->rec[0] = (struct kuser_rec){ .tag = 0u << 16 | 5u, .a = 1, .b = 2 };
    u->rec[1].tag = 0;                  // reserved, not committed
    u->head = 2;
    kuring_drain_current(p);
    trace_ring_counts(&ktrace, 0, &c);
    assert_int_equal(u->tail, 1);
    assert_int_equal(c.recorded, c0.recorded + 1);

    u->rec[1].tag = 1u << 16 | 0x7ffu;  // committed, code out of range
    kuring_drain_current(p);
    trace_ring_counts(&ktrace, 0, &c);
    assert_int_equal(u->tail, 2);
    assert_int_equal(c.recorded, c0.recorded + 2);      // + URING_BAD [pid, 1]
    assert_int_equal(c.dropped, c0.dropped);            // rejected, not lost
    assert_int_equal(kuring_rejected(), 1);

    u->head = 2 + 9;                    // more than the ring holds
    kuring_drain_current(p);
    trace_ring_counts(&ktrace, 0, &c);
    assert_int_equal(u->nrec, 0);
    assert_int_equal(u->corrupt, 1);
    assert_int_equal(p->ur.addr, 0);
    assert_int_equal(c.recorded, c0.recorded + 3);      // + URING_BAD [pid, 8 | given up]
    assert_int_equal(c.dropped, c0.dropped);
    assert_int_equal(kuring_rejected(), 1 + 8);
    struct ktrace_query q;
    assert_int_equal(ktrace_call(t, KTRACE_QUERYEVENTS, kstub_addr(ram + 2048), 0, 0), 0);
    memcpy(&q, ram + 2048, sizeof(q));
    assert_int_equal(q.rejected, 9);
    assert_int_equal(q.dropped, 0);
    assert_int_equal(q.generated, q.recorded);

    assert_int_equal(te(KTRACE_USERRING, ua, 8, 0), 0);  // again, from head 11
    assert_int_equal(u->tail, 11);
    for (uint32_t i = 11; i < 14; i++)  // written while no capture runs, stamped then
        u->rec[i & 7] = (struct kuser_rec){ .tag = i << 16 | 6u, .ts = trace_port_now32() - 100u };
    u->head = 14;
    te(KTRACE_STOP, 0, 0, 0);
    te(KTRACE_STARTNOSTATE, 0, 0, 0);
    assert_int_equal(u->tail, 11);      // START left the process's memory alone
    assert_int_equal(kuring_rejected(), 0);
    trace_ring_counts(&ktrace, 0, &c0);
    kuring_drain_current(p);            // its next drain skips them: no capture's events
    trace_ring_counts(&ktrace, 0, &c);
    assert_int_equal(u->tail, 14);
    assert_int_equal(p->ur.tail, 14);
    assert_int_equal(c.recorded, c0.recorded);
    assert_int_equal(c.dropped, c0.dropped);
}

// Records a process committed just before it ended (killed while a thread of it on another CPU
// had written them, before any drain) reach the trace at its teardown, not lost uncounted.
static void test_ring_drained_when_the_process_ends(void **state)
{
    (void)state;
    static uint8_t ram2[4096] __attribute__((aligned(4096)));
    struct trace_counts c0, c;
    te(KTRACE_ALLOCBUFFER, 2, 0, 0);
    te(KTRACE_ADDALLCLASSES, 0, 0, 0);
    te(KTRACE_STARTNOSTATE, 0, 0, 0);
    struct proc *q = kstub_proc(2, ram2, sizeof(ram2), 0);
    struct thread *u = kstub_thread(q, 40);
    kstub_run(u);
    struct kuser_ring *r = (struct kuser_ring *)(ram2 + 1024);
    memset(r, 0, sizeof(*r) + 8 * sizeof(struct kuser_rec));
    assert_int_equal(ktrace_call(u, KTRACE_USERRING, kstub_addr(r), 8, 0), 0);
    r->rec[0] = (struct kuser_rec){ .tag = 0u << 16 | 5u, .a = 1 };
    r->rec[1] = (struct kuser_rec){ .tag = 1u << 16 | 5u, .a = 2 };
    r->head = 2;                        // committed; no kernel entry of q's since
    kstub_run(t);
    trace_ring_counts(&ktrace, 0, &c0);
    proc_exit(q, 0);
    trace_ring_counts(&ktrace, 0, &c);
    assert_int_equal(q->ur.tail, 2);                // both consumed: emitted
    assert_int_equal(r->tail, 2);
    assert_true(c.recorded >= c0.recorded + 2);     // (with its end's own events)
    assert_int_equal(c.dropped, c0.dropped);
    assert_int_equal(q->ur.addr, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_alloc_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dealloc_owner_and_clear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hook_flags_follow_the_ring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dynamic_filter, setup, teardown),
        cmocka_unit_test_setup_teardown(test_user_event_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_user_ring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ring_drained_when_the_process_ends, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
