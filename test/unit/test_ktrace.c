// SPDX-License-Identifier: MIT
// The kernel's trace glue on the host: buffers from the contiguous allocator (ENOMEM when no
// block is large enough, EEXIST twice), the per-class hook flags following the ring, the
// dynamic filter entry point the D engine uses, user events, the user-event rings' checks
// (kernel/kuring.c), the snapshot at START, and what each process runs (SYSTEM IMAGE: its
// build id read from the note the program header names, refused unless whole and GNU's), and
// the cause each PRIO_CHANGE gives (a server's message priority and a mutex's inheritance mixed),
// and the probe block a reader outside the target takes the buffers by.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/ktrace.h>
#include <kernel/pmem.h>
#include <kernel/kuring.h>
#include <kernel/ipc.h>
#include <kernel/sync.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/ktrace_probe.h>
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

// The IMAGE events in the ring's buffers, pid -> (id length, load address, id, name): their
// slots found by their headers and their payload gathered, as a reader of the file would.
struct image_ev {
    unsigned n;
    uint32_t pid[8], len[8], base[8];
    uint8_t id[8][32];
    char name[8][32];
};

static void ring_images(struct image_ev *out)
{
    const uint32_t *mem = (const uint32_t *)(pool + (p->map_base - (uint32_t)(uintptr_t)pool));
    size_t nslots = p->map_len / 16u;
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < nslots && out->n < 8; i++) {
        uint32_t h = mem[4 * i];
        if (kev_hdr_type(h) != KEV_TYPE_CB || kev_hdr_class(h) != KEV_C_SYSTEM ||
            kev_hdr_event(h) != KEV_SYS_IMAGE)
            continue;
        uint32_t w[64];
        unsigned nw = 0;
        for (size_t k = i; k < nslots && nw + 2 <= 64; k++) {
            w[nw++] = mem[4 * k + 2];
            w[nw++] = mem[4 * k + 3];
            if (kev_hdr_type(mem[4 * k]) == KEV_TYPE_CE)
                break;
        }
        unsigned j = out->n++, len = KEV_IMAGE_ID_LEN(w[1]);
        out->pid[j] = w[0];
        out->len[j] = len;
        out->base[j] = w[2];
        memcpy(out->id[j], &w[KEV_IMAGE_WORDS], len);   // (the host's memory order)
        snprintf(out->name[j], sizeof(out->name[j]), "%s",
                 (const char *)&w[KEV_IMAGE_WORDS + (len + 3) / 4]);
    }
}

// One image event of pid, or NULL.
static int image_of(const struct image_ev *e, uint32_t pid)
{
    for (unsigned j = 0; j < e->n; j++)
        if (e->pid[j] == pid)
            return (int)j;
    return -1;
}

// A program's build id as the kernel writes it: the GNU note its header names, checked to lie
// whole in the program's slot and to be GNU's build id (else written as none, length 0).
static void test_image_events(void **state)
{
    (void)state;
    static uint32_t slot[128];          // the program's flash slot (512 bytes), its note at 256
    uint8_t *img = (uint8_t *)slot, id[20];
    for (unsigned i = 0; i < sizeof(id); i++)
        id[i] = (uint8_t)(0xa0 + i);
    proc_scan_apps(kstub_addr(img), sizeof(slot), 0);   // (the slot's size; no program in it)
    p->flash_base = kstub_addr(img);
    struct { uint32_t off, namesz, descsz, type; const char *name; unsigned want; } cases[] = {
        { 256, 4, 20, 3, "GNU", 20 },   // a SHA-1 build id
        { 256, 4, 16, 3, "GNU", 16 },   // an MD5 one
        { 256, 4, 40, 3, "GNU", 0 },    // longer than the event holds
        { 256, 4, 20, 1, "GNU", 0 },    // another note type
        { 256, 4, 20, 3, "GNV", 0 },    // another owner
        { 482, 4, 20, 3, "GNU", 0 },    // misaligned
        { 484, 4, 20, 3, "GNU", 0 },    // past the slot's end
        { 0, 0, 0, 0, NULL, 0 },        // no note (build_id 0)
    };
    te(KTRACE_ALLOCBUFFER, 2, 0, 0);
    te(KTRACE_ADDALLCLASSES, 0, 0, 0);
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        memset(img, 0, sizeof(slot));
        trace_app.build_id = 0;
        if (cases[c].name) {
            uint8_t *n = img + cases[c].off;
            memcpy(n, &cases[c].namesz, 4), memcpy(n + 4, &cases[c].descsz, 4);
            memcpy(n + 8, &cases[c].type, 4), memcpy(n + 12, cases[c].name, 4);
            if (cases[c].off + 16 + sizeof(id) <= sizeof(slot))
                memcpy(n + 16, id, sizeof(id));
            trace_app.build_id = kstub_addr(n);
        }
        te(KTRACE_START, 0, 0, 0);  // the snapshot: the kernel's image, then each process's
        struct image_ev e;
        ring_images(&e);
        te(KTRACE_STOP, 0, 0, 0);
        te(KTRACE_FLUSHBUFFER, 0, 0, 0);
        int k = image_of(&e, 0), j = image_of(&e, 1);
        assert_true(k >= 0 && j >= 0);
        assert_int_equal(e.len[k], 0);  // (no linked kernel image on the host)
        assert_int_equal(e.len[j], cases[c].want);
        assert_int_equal(e.base[j], kstub_addr(img));
        assert_string_equal(e.name[j], "p1");
        if (cases[c].want)
            assert_memory_equal(e.id[j], id, cases[c].want);
        te(KTRACE_DEALLOCBUFFER, 0, 0, 0);
        te(KTRACE_ALLOCBUFFER, 2, 0, 0);
        te(KTRACE_ADDALLCLASSES, 0, 0, 0);
    }
}

// The PRIO_CHANGE events of thread `who` in the ring's buffers, in order: (new priority, cause).
static unsigned ring_prio_changes(uint32_t who, uint8_t *prio, uint8_t *cause, unsigned max)
{
    const uint32_t *mem = (const uint32_t *)(pool + (p->map_base - (uint32_t)(uintptr_t)pool));
    size_t nslots = p->map_len / 16u;
    unsigned n = 0;
    for (size_t i = 0; i < nslots && n < max; i++) {
        uint32_t h = mem[4 * i];
        if (kev_hdr_class(h) != KEV_C_SYSTEM || kev_hdr_event(h) != KEV_SYS_PRIO_CHANGE ||
            mem[4 * i + 2] != who)
            continue;
        prio[n] = (uint8_t)(mem[4 * i + 3] & 0xffu);
        cause[n++] = (uint8_t)((mem[4 * i + 3] >> 16) & 0xffu);
    }
    return n;
}

// A server at its client's priority (message inheritance) takes a mutex a higher thread then
// waits for (mutex inheritance); when it gives the mutex up it drops back to the client's
// priority: that is the mutex's inheritance ending, not a message, and the reply ends the
// message's. The numbers alone (the new priority equals the message's) cannot tell.
// The probe block (kernel/ktrace_probe.c): published by the ring's owner with the layout a
// reader outside the target needs (held to trace_ring.h's structures and the block's own check),
// the ring quiet (no buffer notified), the tick's flush served when a reader asks, the end and
// the reader's "done" passed between them; bad publications refused. The quiet ring's one
// notification: the logger's pulse of no buffer when tracing stops, and with wake_bufs, as the
// buffer that makes that many started begins (nothing else wakes a probe's logger).
static int32_t raised[8];
static unsigned nraised;

static void raise_seen(unsigned irq, int32_t value)
{
    if (irq == KIRQ_TRACE && nraised < 8)
        raised[nraised++] = value;
}

static void test_probe_block(void **state)
{
    (void)state;
    struct kev_probe_block *b = &kev_probe_block;
    struct ktrace_probe_pub pub = { kstub_addr(ram) + 256, 16, kstub_addr(ram) + 512, 8, 0, 2 };
    memcpy(ram + 256, "TRACE_HEADER_BEG", 16);
    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_PUBLISH, kstub_addr(ram), 0), -ECANCELED);
    assert_int_equal(te(KTRACE_ALLOCBUFFER, 2, 0, 0), 2);
    te(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    struct ktrace_probe_pub bad = pub;
    bad.head_len = 0;
    memcpy(ram, &bad, sizeof(bad));
    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_PUBLISH, kstub_addr(ram), 0), -EINVAL);
    bad = pub;
    bad.flags = 0x80;
    memcpy(ram, &bad, sizeof(bad));
    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_PUBLISH, kstub_addr(ram), 0), -EINVAL);
    assert_int_equal(te(KTRACE_PROBE, 9, 0, 0), -EINVAL);
    memcpy(ram, &pub, sizeof(pub));
    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_PUBLISH, kstub_addr(ram), 0), 0);
    assert_memory_equal(b->pb_magic, KEV_PROBE_MAGIC, KEV_PROBE_MAGIC_LEN);
    assert_int_equal(b->pb_check, kev_probe_check(b));
    assert_int_equal(b->pb_state, KEV_PROBE_READY);
    assert_int_equal(b->pb_self, (uintptr_t)b);
    assert_int_equal(b->pb_mem, (uintptr_t)pool + (p->map_base - (uint32_t)(uintptr_t)pool));
    assert_int_equal(b->pb_nbufs, 2);
    assert_int_equal(b->pb_head_len, 16);
    assert_int_equal(b->pb_buf_stride, sizeof(struct trace_buf));
    assert_int_equal(b->pb_off_state, offsetof(struct trace_buf, tb_state));
    assert_int_equal(b->pb_bufs, (uintptr_t)&ktrace.tr_buf[0]);

    assert_int_equal(te(KTRACE_STARTNOSTATE, 0, 0, 0), 0);
    assert_int_equal(b->pb_state, KEV_PROBE_RUNNING);
    for (uint32_t i = 0; i < 5; i++)
        te(KTRACE_INSERTSUSEREVENT, 5, i, 0);
    assert_int_equal(ktrace.tr_buf[0].tb_state, TRACE_BUF_FILLING);
    assert_int_equal(ktrace.tr_buf[0].tb_notified, 1);     // quiet: never to be notified
    ktrace_probe_tick();                                    // nothing asked: nothing done
    assert_int_equal(ktrace.tr_buf[0].tb_state, TRACE_BUF_FILLING);
    b->pb_flush_req = 1;                                    // a reader asks
    ktrace_probe_tick();
    assert_int_equal(ktrace.tr_buf[0].tb_state, TRACE_BUF_FULL);
    assert_int_equal(b->pb_flush_done, 1);
    assert_int_equal(b->pb_flush_time, trace_port_now64());    // (the stub's clock stands still)
    struct ktrace_probe_work w;
    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_WORK, kstub_addr(ram), 0), 0);
    memcpy(&w, ram, sizeof(w));
    assert_int_equal(w.flushes, 1);
    nraised = 0;
    ktrace_notes_raise(raise_seen);
    assert_int_equal(nraised, 0);                           // a flush wakes nobody
    unsigned notes = trace_host_port.nnotes;                // (the ring's port: the host's here)
    for (uint32_t i = 0; i < 5; i++)                        // buffer 1 (the 2nd started) begins
        te(KTRACE_INSERTSUSEREVENT, 5, i, 0);
    assert_int_equal(trace_host_port.nnotes, notes + 1);
    assert_int_equal(trace_host_port.notes[notes].idx, 1);
    assert_int_equal(trace_host_port.notes[notes].seq, 1);

    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_STOPPED, kstub_addr(ram), 0), -EBUSY);
    te(KTRACE_STOP, 0, 0, 0);
    ktrace_notes_raise(raise_seen);
    assert_int_equal(nraised, 1);
    assert_int_equal(raised[0], 0xff);                      // the stop: a pulse of no buffer
    struct ktrace_probe_end end = { 1234, 5, 0 };
    memcpy(ram, &end, sizeof(end));
    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_STOPPED, kstub_addr(ram), 0), 0);
    assert_int_equal(b->pb_state, KEV_PROBE_STOPPED);
    assert_int_equal(b->pb_stop_time, 5ull << 32 | 1234);
    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_HOSTDONE, 0, 0), 0);
    b->pb_host_done = b->pb_gen;                            // the reader has read it all
    assert_int_equal(te(KTRACE_PROBE, KTRACE_PROBE_HOSTDONE, 0, 0), 1);
    assert_int_equal(te(KTRACE_DEALLOCBUFFER, 0, 0, 0), 0);
    assert_int_equal(b->pb_state, KEV_PROBE_IDLE);
}

static void test_prio_causes_message_then_mutex(void **state)
{
    (void)state;
    struct thread *srv = kstub_thread(p, 10), *cli = kstub_thread(p, 20),
                  *hi = kstub_thread(p, 40);
    int chid = ipc_channel_create(p, 0), coid = ipc_connect_attach(p, 1, chid);
    int mid = mutex_create(p);
    assert_true(chid > 0 && coid > 0 && mid > 0);
    te(KTRACE_ALLOCBUFFER, 2, 0, 0);
    te(KTRACE_ADDALLCLASSES, 0, 0, 0);
    te(KTRACE_STARTNOSTATE, 0, 0, 0);

    kstub_run(cli);
    assert_int_equal(ipc_send_traced(cli, coid, kstub_addr(ram), 4, kstub_addr(ram + 64), 4), 0);
    kstub_run(srv);
    int rcvid = ipc_receive_traced(srv, chid, kstub_addr(ram + 128), 64, 0);
    assert_true(rcvid > 0);
    assert_int_equal(srv->prio, 20);                    // the client's
    assert_int_equal(mutex_lock(srv, mid), 0);
    kstub_run(hi);
    mutex_lock(hi, mid);                                // blocks: the server inherits 40
    assert_int_equal(hi->state, THS_MUTEX);
    assert_int_equal(srv->prio, 40);
    kstub_run(srv);
    assert_int_equal(mutex_unlock(srv, mid), 0);
    assert_int_equal(srv->prio, 20);                    // back to the client's
    assert_int_equal(ipc_reply_traced(srv, rcvid, 0, 0, 0), 0);
    assert_int_equal(srv->prio, 10);                    // its own
    te(KTRACE_STOP, 0, 0, 0);

    uint8_t prio[8], cause[8];
    unsigned n = ring_prio_changes(ktrace_who(srv), prio, cause, 8);
    assert_int_equal(n, 4);
    assert_int_equal(prio[0], 20), assert_int_equal(cause[0], KEV_PRIO_MSG);
    assert_int_equal(prio[1], 40), assert_int_equal(cause[1], KEV_PRIO_MUTEX);
    assert_int_equal(prio[2], 20), assert_int_equal(cause[2], KEV_PRIO_INH_END);
    assert_int_equal(prio[3], 10), assert_int_equal(cause[3], KEV_PRIO_INH_END);
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
        cmocka_unit_test_setup_teardown(test_image_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prio_causes_message_then_mutex, setup, teardown),
        cmocka_unit_test_setup_teardown(test_probe_block, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
