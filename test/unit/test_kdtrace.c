// SPDX-License-Identifier: MIT
// The kernel's D provider on the host: the DTrace kernel call's errors, a program compiled
// with the real compiler loaded through the call, BEGIN's record read back with KDT_READ,
// probes fired from the hook path only while the program runs, and unloading; the spawn rules'
// table (spawn_cases.h) along kernel/kdt_fire.c, the kernel's own firing of it.
#define _GNU_SOURCE // memmem
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/kdtrace.h>
#include <kernel/ktrace.h>
#include <kernel/pmem.h>
#include <d/dcc.h>
#include <d/dvm.h>
#include <d/dprobes.h>
#include <uapi/kdtrace.h>
#include <uapi/kcall.h>
#include <uapi/ktrace.h>
#include <kernel/kuring.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/ktimer.h>
#include "spawn_cases.h"

static uint8_t ram[32768] __attribute__((aligned(32768)));
static struct kapp_header app;
static struct proc *p;
static struct thread *t;
static uint8_t *pool;
static uint8_t arena[1 << 20];

static int setup(void **state)
{
    (void)state;
    kstub_reset();
    pool = aligned_alloc(4096, 1 << 20);
    pmem_init(&k_pmem, (uintptr_t)pool, 1 << 20);
    kstub_thread(NULL, 0);
    p = kstub_proc(1, ram, sizeof(ram), KAPP_F_TRACE);
    app = *p->app;
    p->app = &app;
    t = kstub_thread(p, 50);
    kstub_run(t);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kdt_proc_gone(p);
    free(pool);
    return 0;
}

// Compiles src into ram (the caller's memory) and fills a kdt_load for it.
static void compile(const char *src, struct kdt_load *l)
{
    struct dcc_in in = { .src = src, .len = strlen(src), 0 };
    static struct dcc_out out;
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &out), 0);
    assert_true(out.objlen < 16384);
    memcpy(ram, out.obj, out.objlen);
    memset(l, 0, sizeof(*l));
    l->obj = kstub_addr(ram);
    l->objlen = (uint32_t)out.objlen;
    l->bufsize = l->aggsize = l->dynvarsize = 4096;
    l->specsize = 1024;
    l->nspec = 1;
    l->errbuf = kstub_addr(ram + 30000);
    l->errlen = 128;
    memcpy(ram + 29000, l, sizeof(*l));
}

static int dt(uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    int r = kdt_call(t, cmd, a, b, c);
    ktrace_resync();
    return r;
}

static void test_errors(void **state)
{
    (void)state;
    struct kdt_load l;
    assert_int_equal(dt(KDT_GO, 0, 0, 0), -ECANCELED);
    assert_int_equal(dt(99, 0, 0, 0), -EINVAL);
    assert_int_equal(dt(KDT_LOAD, 0x10, 0, 0), -EFAULT);
    compile("BEGIN { trace(42); }", &l);
    l.objlen = 8;       // truncated: the verifier refuses it and says why
    memcpy(ram + 29000, &l, sizeof(l));
    assert_int_equal(dt(KDT_LOAD, kstub_addr(ram + 29000), 0, 0), -EINVAL);
    assert_true(strlen((char *)ram + 30000) > 0);
    app.flags = 0;
    assert_int_equal(dt(KDT_LOAD, kstub_addr(ram + 29000), 0, 0), -EPERM);
}

static void test_load_go_read(void **state)
{
    (void)state;
    struct kdt_load l;
    compile("BEGIN { trace(42); } kercall::MsgSend:entry { @n = count(); }", &l);
    assert_int_equal(dt(KDT_LOAD, kstub_addr(ram + 29000), 0, 0), 0);
    assert_int_equal(dt(KDT_LOAD, kstub_addr(ram + 29000), 0, 0), -EEXIST);
    assert_int_not_equal(p->map2_len, 0);
    assert_false(kdt_active);
    assert_int_equal(ktrace_cls_on[KEV_C_KER_CALL], 0);     // probes off until GO
    assert_int_equal(dt(KDT_GO, 0, 0, 0), 0);
    assert_true(kdt_active);
    assert_int_equal(ktrace_cls_on[KEV_C_KER_CALL], 1);     // the hooks now call out
    assert_int_not_equal(ktrace_kernel_on, 0);
    kdt_fire(DPROBE_KCALL_ENTRY(KC_MsgSend), 1, 2, 3, 4);
    kdt_fire(DPROBE_KCALL_ENTRY(KC_MsgSend), 1, 2, 3, 4);
    // KDT_READ wants room for a whole principal buffer.
    assert_int_equal(dt(KDT_READ, 0, kstub_addr(ram + 16384), 64), -ENOSPC);
    int n = dt(KDT_READ, 0, kstub_addr(ram + 16384), 8192);
    assert_true(n >= (int)sizeof(struct dvm_rechdr) + 8);
    const struct dvm_rechdr *rec = (const struct dvm_rechdr *)(ram + 16384);
    assert_int_equal(rec->rh_epid, 1);
    int64_t v;
    memcpy(&v, rec + 1, sizeof(v));
    assert_int_equal(v, 42);
    assert_int_equal(dt(KDT_STOP, 0, 0, 0), 0);
    assert_false(kdt_active);
    assert_int_equal(ktrace_cls_on[KEV_C_KER_CALL], 0);
    assert_int_equal(dt(KDT_UNLOAD, 0, 0, 0), 0);
    assert_int_equal(p->map2_len, 0);
    assert_int_equal(pmem_free_bytes(&k_pmem), 1 << 20);
}

// KDT_AGGREMOVE's key must lie in the engine's block end to end: a key pointer a few bytes
// before the block's end would make the lookup read a whole key past it.
static void test_aggremove_key_range(void **state)
{
    (void)state;
    struct kdt_load l;
    compile("BEGIN { @[\"some key\", 7] = count(); }", &l);
    assert_int_equal(dt(KDT_LOAD, kstub_addr(ram + 29000), 0, 0), 0);
    assert_int_equal(dt(KDT_GO, 0, 0, 0), 0);       // BEGIN made one entry
    uint32_t base = p->map2_base, len = p->map2_len;
    assert_int_equal(dt(KDT_AGGREMOVE, 0, base + len - 8, 0), -EINVAL);
    assert_int_equal(dt(KDT_AGGREMOVE, 0, base + len - 1, 0), -EINVAL);
    assert_int_equal(dt(KDT_AGGREMOVE, 0, base + len, 0), -EINVAL);
    assert_int_equal(dt(KDT_AGGREMOVE, 1, base, 0), -EINVAL);
    // (A key inside the block is looked up: the target's dtrace trunc() does that; here the
    // block's 32-bit address is not the host's pointer.)
    assert_int_equal(dt(KDT_STOP, 0, 0, 0), 0);
    assert_int_equal(dt(KDT_UNLOAD, 0, 0, 0), 0);
}

// A process decides nothing about D's `timestamp`: a user-event ring
// record's time goes through the trace's clamp (trace_time_clamp), and D's timestamp is the
// time the trace slot got. Without the clamp a record stamped just under 2^31 cycles in the
// past (a time before boot, 85.9 s at 25 MHz) would reach D as such, wrapped to ~1.8e19 ns,
// while the trace put it at now.
static uint64_t next_trace_value(const uint8_t *buf, int n, int *off)
{
    while (*off + (int)sizeof(struct dvm_rechdr) + 8 <= n) {
        const struct dvm_rechdr *h = (const struct dvm_rechdr *)(buf + *off);
        uint64_t v;
        memcpy(&v, h + 1, sizeof(v));
        *off += (int)sizeof(*h) + 8;
        if (h->rh_epid != 0)
            return v;
    }
    return 0;
}

// Commits record i (code 5) of ring u with time ts, drains it, returns what D traced for it.
static uint64_t drain_and_trace_timestamp(struct kuser_ring *u, uint32_t i, uint32_t ts)
{
    u->rec[i] = (struct kuser_rec){ .tag = i << 16 | 5u, .ts = ts };
    u->head = i + 1u;
    kuring_drain_current(p);
    int n = dt(KDT_READ, 0, kstub_addr(ram + 16384), 8192), off = 0;
    assert_true(n > 0);
    return next_trace_value(ram + 16384, n, &off);
}

// A D program tracing user:::event's timestamp, a capture running (on the trace's fast path,
// or with an event filter on the USER class: its slow path) and a user-event ring of 8
// records registered for the process: the start of the two timestamp tests below.
static struct kuser_ring *timestamp_session_start(struct kdt_load *l, bool slow_path)
{
    compile("user:::event { trace(timestamp); }", l);
    assert_int_equal(dt(KDT_LOAD, kstub_addr(ram + 29000), 0, 0), 0);
    assert_int_equal(ktrace_call(t, KTRACE_ALLOCBUFFER, 2, 0, 0), 2);
    ktrace_call(t, KTRACE_ADDALLCLASSES, 0, 0, 0);
    if (slow_path)
        assert_int_equal(trace_filter_event(&ktrace, KEV_C_USER, 5, 1), 0);
    else
        ktrace_call(t, KTRACE_SETALLCLASSESFAST, 0, 0, 0);
    assert_int_equal(ktrace_call(t, KTRACE_STARTNOSTATE, 0, 0, 0), 0);
    assert_int_equal(dt(KDT_GO, 0, 0, 0), 0);
    struct kuser_ring *u = (struct kuser_ring *)(ram + 20000);
    memset(u, 0, sizeof(*u) + 8 * sizeof(struct kuser_rec));
    assert_int_equal(kuring_register(p, kstub_addr(u), 8), 0);
    return u;
}

static void timestamp_session_stop(void)
{
    assert_int_equal(dt(KDT_STOP, 0, 0, 0), 0);
    assert_int_equal(dt(KDT_UNLOAD, 0, 0, 0), 0);
    ktrace_call(t, KTRACE_STOP, 0, 0, 0);
    trace_filter_all(&ktrace, 0);
    kuring_register(p, 0, 0);
}

static void test_user_event_timestamp_clamped(void **state)
{
    (void)state;
    struct kdt_load l;
    const uint64_t t0 = 50000000u;              // 2 s after boot at 25 MHz
    kstub_cycles = t0;
    trace_host_port.now = t0;
    trace_host_port.step = 0;
    struct kuser_ring *u = timestamp_session_start(&l, false);

    // Kept (between the last slot and now), before boot, in the future: one at a time, D's
    // timestamp must be the time the trace's slot got (the CPU's last slot: tc_last), and
    // within [START, now].
    const uint32_t ts[3] = { (uint32_t)t0 + 5000u, (uint32_t)(t0 + 10000u) - 0x7fff0000u,
                             (uint32_t)t0 + 0x40000000u };
    kstub_cycles = trace_host_port.now = t0 + 10000u;
    for (uint32_t i = 0; i < 3; i++) {
        uint64_t d = drain_and_trace_timestamp(u, i, ts[i]);
        assert_int_equal(d, ktimer_cycles_to_ns(ktrace.tr_cpu[0].tc_last));
        assert_true(d >= ktimer_cycles_to_ns(t0) && d <= ktimer_cycles_to_ns(t0 + 10000u));
    }
    timestamp_session_stop();
}

// The same on the trace's slow path (docs/hostile.md; an
// event filter on the USER class, as `tracelogger` and `dtrace -i` filters set; also a buffer
// change or a time that went back), with a clock that moves at each read, as a real one does.
// D's timestamp must still be the time the slot got, not a later reading of the clock.
static void test_user_event_timestamp_slow_path(void **state)
{
    (void)state;
    struct kdt_load l;
    const uint64_t t0 = 50000000u;
    kstub_cycles = t0 + 1000000u;               // D's clock: past every reading below
    trace_host_port.now = t0;
    trace_host_port.step = 7;
    struct kuser_ring *u = timestamp_session_start(&l, true);
    const uint32_t ts[3] = { (uint32_t)trace_host_port.now + 3u, 1u, 0xfffffff0u };
    for (uint32_t i = 0; i < 3; i++) {
        uint64_t d = drain_and_trace_timestamp(u, i, ts[i]);   // first: it writes the slot
        assert_int_equal(d, ktimer_cycles_to_ns(ktrace.tr_cpu[0].tc_last));
    }
    timestamp_session_stop();
    trace_host_port.step = 0;
}

// A string user event on the board's path (ktrace.c insert_user, kdtrace_text.c): D's
// copyinstr(arg1) reads the kernel's copy, the one the ring gets, at DUTEXT_ADDR; arg2 is its
// stored size; the window is gone once the event has fired (a later read faults).
static void test_user_string_text(void **state)
{
    (void)state;
    struct kdt_load l;
    compile("user:::event /arg0 == 9/ { trace(arg2); trace(copyinstr(arg1)); }\n"
            "user:::event /arg0 == 10/ { trace(copyinstr(0x10000000000)); }", &l);
    assert_int_equal(dt(KDT_LOAD, kstub_addr(ram + 29000), 0, 0), 0);
    assert_int_equal(dt(KDT_GO, 0, 0, 0), 0);
    char *text = (char *)ram + 1000;
    strcpy(text, "the text as the kernel copied it");
    assert_int_equal(ktrace_call(t, KTRACE_INSERTUSRSTREVENT, 9, kstub_addr(text), 0), 0);
    int n = dt(KDT_READ, 0, kstub_addr(ram + 16384), 8192), off = 0;
    assert_true(n > 0);
    assert_int_equal(next_trace_value(ram + 16384, n, &off), 40);   // 33 bytes: 5 slots
    assert_non_null(memmem(ram + 16384, (size_t)n, text, strlen(text) + 1));
    // a two-word event after it: the text's address holds nothing any more
    assert_int_equal(ktrace_call(t, KTRACE_INSERTSUSEREVENT, 10, 1, 2), 0);
    n = dt(KDT_READ, 0, kstub_addr(ram + 16384), 8192);
    assert_true(n > 0);
    assert_null(memmem(ram + 16384, (size_t)n, "the text", 8));
    assert_int_equal(dt(KDT_STOP, 0, 0, 0), 0);
    assert_int_equal(dt(KDT_UNLOAD, 0, 0, 0), 0);
}

// The spawn rules' table (spawn_cases.h) along the kernel's whole path: each spawned case's
// thread's first run through ktrace_switched (the exit's, which fires the rule in kdt_fire.c's
// kdt_fire_spawn: the parent's name, the program's text), the failed spawn through
// kdt_fire_spawn_failed (kcall.c's, with the program ProcSpawn named), in init's context. One
// clause per probe (its epid), each recording the same eight values: pid, tid, execname (1
// init, 2 worker), arg0-3 and exec's args[0] text (1 the process's, 2 the named program's).
#define SPAWN_ROW(probe, text)                                                                 \
    "proc:::" probe " { trace(pid); trace(tid); trace(execname == \"init\" ?" \
    " 1 : execname == \"worker\" ? 2 : 0); trace(arg0); trace(arg1); trace(arg2); trace(arg3);" \
    " trace(" text "); }\n"
static const char *const spawn_probes[] = { "start", "exec", "exec-success", "exec-failure",
                                            "lwp-start" };

static void test_spawn_table_along_kdt_fire(void **state)
{
    (void)state;
    struct kdt_load l;
    compile(SPAWN_ROW("start", "0") SPAWN_ROW("exec", "copyinstr(arg0) == \"worker\" ? 1 :"
            " copyinstr(arg0) == \"nosuch\" ? 2 : 0") SPAWN_ROW("exec-success", "0")
            SPAWN_ROW("exec-failure", "0") SPAWN_ROW("lwp-start", "0"), &l);
    static uint8_t ram2[4096], ram8[4096];
    struct proc *init = kstub_proc(SPAWN_PPID, ram2, sizeof(ram2), 0);
    struct proc *worker = kstub_proc(SPAWN_PID, ram8, sizeof(ram8), 0);
    strcpy(init->name, "init");
    strcpy(worker->name, "worker");
    worker->ppid = SPAWN_PPID;
    struct thread *spawner = kstub_thread(init, 10);
    assert_int_equal(dt(KDT_LOAD, kstub_addr(ram + 29000), 0, 0), 0);
    assert_int_equal(dt(KDT_GO, 0, 0, 0), 0);
    for (unsigned c = 0; c < SPAWN_NCASES; c++) {
        const struct spawn_case *sc = &spawn_cases[c];
        if (!sc->tid) {     // init's ProcSpawn of a program that does not exist
            kstub_run(spawner);
            kdt_fire_spawn_failed("nosuch", SPAWN_ERR);
            kstub_run(t);
            continue;
        }
        struct thread *th = kstub_thread(worker, SPAWN_PRIO);
        assert_int_equal(th->tid, sc->tid);
        thread_set_trace_ids(th, SPAWN_PID, th->tid);  // (kstub_thread numbers it after)
        th->dt_unstarted = 1;
        ktrace_switched(th);
    }
    int n = dt(KDT_READ, 0, kstub_addr(ram + 16384), 8192), off = 0;
    assert_true(n > 0);
    for (unsigned c = 0; c < SPAWN_NCASES; c++) {
        const struct spawn_case *sc = &spawn_cases[c];
        const uint32_t who = SPAWN_PID << 16 | sc->tid;
        for (const struct spawn_firing *w = sc->f; w->probe; w++) {
            const struct dvm_rechdr *h;
            do {    // (past pads and sched's records: on-cpu is not asked for)
                assert_true(off + (int)sizeof(*h) <= n);
                h = (const struct dvm_rechdr *)(ram + 16384 + off);
                off += h->rh_size;
            } while (h->rh_epid == 0 || h->rh_epid > 5);
            uint64_t v[8];
            assert_true(h->rh_size >= sizeof(*h) + sizeof(v));
            memcpy(v, h + 1, sizeof(v));
            if (strcmp(spawn_probes[h->rh_epid - 1], w->probe))
                fail_msg("%s: proc:::%s fired, want proc:::%s", sc->name,
                         spawn_probes[h->rh_epid - 1], w->probe);
            const bool spawner_ctx = w->as == SPAWN_AS_SPAWNER;
            assert_int_equal(v[0], spawner_ctx ? SPAWN_PPID : SPAWN_PID);
            assert_int_equal(v[1], spawner_ctx ? 1 : sc->tid);
            assert_int_equal(v[2], w->as == SPAWN_AS_SELF ? 2 : 1);
            for (unsigned i = 0; i < 4; i++)
                assert_int_equal(v[3 + i], i >= w->n ? 0 : w->a[i] == SPAWN_WHO ? who : w->a[i]);
            if (!strcmp(w->probe, "exec"))
                assert_int_equal(v[7], w->text ? 1 : 2);
        }
    }
    assert_true(off >= n);  // nothing more fired
    assert_int_equal(dt(KDT_STOP, 0, 0, 0), 0);
    assert_int_equal(dt(KDT_UNLOAD, 0, 0, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_go_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aggremove_key_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_user_event_timestamp_clamped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_user_event_timestamp_slow_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_user_string_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spawn_table_along_kdt_fire, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
