// SPDX-License-Identifier: MIT
// Unit tests (cmocka, under ASan/UBSan) of the code the kevconv tools share: the thread model
// (kx.c), message matching and critical paths (kx_msg.c) and the analyses (kx_stats.c), fed
// with hand-built events so that each rule is checked on its own: implicit switches, the
// documented and the kernel's way of writing receives, nested requests, pulses from an
// interrupt, unmatched replies, stale messages (also nested ones), a full message pool,
// interrupt-to-thread latency, kernel-call errors, lost-event windows, power-of-two buckets,
// CPU time by priority split at a change while a thread runs, user events per id and process,
// and the Linux mapping of ids and priorities (kx_ids.c).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <uapi/kcall.h>
#include <kevhost/kx_ids.h>
#include <kevhost/kx_stats.h>
#include "kx_events.h"

static void th(struct kx_stats *s, unsigned st, uint64_t t, uint32_t pid, uint32_t tid)
{
    kx_stats_event(s, mk(KEV_C_PR_TH, st, t, pid, tid, 10 * pid, 2, 4));
}

static void comm(struct kx_stats *s, unsigned e, uint64_t t, uint32_t a, uint32_t b)
{
    kx_stats_event(s, mk(KEV_C_COMM, e, t, a, b, 0, 0, 2));
}

// Function calls (kx_funcs.c): nested calls paired on their CPU across a thread switch, a
// return with no entry counted untimed, an entry whose return was not recorded ended when an
// outer call returns, a stack past KX_FUNC_DEPTH bounded and counted, and a function entered
// again ending its open call and those above it.
static void fn_ev(struct kx_stats *s, unsigned kind, uint64_t t, uint32_t fn, unsigned cpu)
{
    mk(KEV_C_SYSTEM, kind, t, fn, 0x100, 4, 7, kind == KEV_SYS_FUNC_ENTER ? 2 : 4);   // kernel's
    ev.cpu = cpu;
    kx_stats_event(s, &ev);
}

static void test_function_calls(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 1, 5, 1);
    fn_ev(s, KEV_SYS_FUNC_ENTER, 10, 0xa1, 0);   // a
    fn_ev(s, KEV_SYS_FUNC_ENTER, 12, 0xb1, 0);   //   b
    fn_ev(s, KEV_SYS_FUNC_ENTER, 13, 0xc1, 1);   // c on another CPU
    th(s, KEV_TH_RUNNING, 14, 6, 1);             // the scheduler switches threads inside b
    fn_ev(s, KEV_SYS_FUNC_EXIT, 15, 0xb1, 0);    //   b: 3
    fn_ev(s, KEV_SYS_FUNC_ENTER, 16, 0xd1, 0);   //   d, its return not recorded
    fn_ev(s, KEV_SYS_FUNC_EXIT, 20, 0xa1, 0);    // a: 10, d dropped
    fn_ev(s, KEV_SYS_FUNC_EXIT, 21, 0xe1, 0);    // e: never entered
    fn_ev(s, KEV_SYS_FUNC_EXIT, 23, 0xc1, 1);    // c: 10
    unsigned n;
    const struct kx_func_stats *f = kx_funcs_table(s->funcs, &n);
    assert_int_equal(n, 5);
    uint64_t want[5][5] = { { 0xa1, 1, 1, 1, 10 }, { 0xb1, 1, 1, 1, 3 }, { 0xc1, 1, 1, 1, 10 },
                            { 0xd1, 1, 0, 0, 0 }, { 0xe1, 0, 1, 0, 0 } };
    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(f[i].fn, want[i][0]);
        assert_int_equal(f[i].entries, want[i][1]);
        assert_int_equal(f[i].returns, want[i][2]);
        assert_int_equal(f[i].timed, want[i][3]);
        assert_int_equal(f[i].total, want[i][4]);
    }
    assert_int_equal(kx_funcs_unpaired(s->funcs), 1);           // d
    for (unsigned i = 0; i < KX_FUNC_DEPTH + 3; i++)               // the first 64 end at 65
        fn_ev(s, KEV_SYS_FUNC_ENTER, 30 + i, 0x1000 + 2 * i, 0);
    assert_int_equal(kx_funcs_unpaired(s->funcs), 1 + 64);
    fn_ev(s, KEV_SYS_FUNC_ENTER, 200, 0x1000 + 2 * 65, 0);         // entered again: 65 and 66 end
    assert_int_equal(kx_funcs_unpaired(s->funcs), 65 + 2);
    assert_int_equal(kx_funcs_dropped(s->funcs), 0);
    kx_stats_free(s);
    free(s);
}

static void test_buckets(void **state)
{
    (void)state;
    assert_int_equal(kx_log2_bucket(0), 0);
    assert_int_equal(kx_log2_bucket(1), 1);
    assert_int_equal(kx_log2_bucket(2), 2);
    assert_int_equal(kx_log2_bucket(3), 2);
    assert_int_equal(kx_log2_bucket(4), 3);
    assert_int_equal(kx_log2_bucket(UINT64_MAX), 64);
    struct kx_dist d = { 0 };
    kx_dist_add(&d, 5), kx_dist_add(&d, 7), kx_dist_add(&d, 100);
    assert_int_equal(d.n, 3);
    assert_int_equal(d.min, 5);
    assert_int_equal(d.max, 100);
    assert_int_equal(d.hist[3], 2);
    assert_int_equal(d.hist[7], 1);
}

// A thread switched out without its own state event becomes READY (not still RUNNING).
static void test_implicit_switch(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 100, 1, 1);
    th(s, KEV_TH_RUNNING, 250, 2, 1); // no READY for 1/1
    th(s, KEV_TH_NANOSLEEP, 300, 2, 1);
    th(s, KEV_TH_RUNNING, 340, 1, 1);
    kx_stats_event(s, mk(KEV_C_USER, 1, 400, 0, 0, 0, 0, 2));
    kx_stats_finish(s);
    int a = kx_thread(&s->m, 1, 1), b = kx_thread(&s->m, 2, 1);
    assert_int_equal(s->th[a].state_t[KEV_TH_RUNNING], 150 + 60);
    assert_int_equal(s->th[a].state_t[KEV_TH_READY], 90);
    assert_int_equal(s->th[b].state_t[KEV_TH_RUNNING], 50);
    assert_int_equal(s->none_t[0], 40);     // 300..340 no thread known to run
    assert_int_equal(s->prio_t[10], 210);   // wide events: prio 10 * pid
    assert_int_equal(s->prio_t[20], 50);
    kx_stats_free(s);
    free(s);
}

// PRIO_CHANGE (pid, tid, new priority, old, cause), fast mode's two words.
static void prio(struct kx_stats *s, uint64_t t, uint32_t pid, uint32_t tid, unsigned now,
                 unsigned was, unsigned cause)
{
    kx_stats_event(s, mk(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, t, pid << 16 | tid,
                         now | was << 8 | cause << 16, 0, 0, 2));
}

// CPU time by priority follows a change made while the thread runs (its own call, a pulse it
// received): the run is split there. A change while it does not run is taken when it next runs
// (fast mode's THRUNNING carries no priority: the model's).
static void test_prio_split(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 100, 1, 1);                  // wide: prio 10
    prio(s, 150, 1, 1, 25, 10, KEV_PRIO_CALL);         // while it runs
    prio(s, 170, 2, 1, 40, 20, KEV_PRIO_MSG);          // 2/1 does not run yet
    kx_stats_event(s, mk(KEV_C_PR_TH, KEV_TH_RUNNING, 200, 2, 1, 0, 0, 2)); // fast: no prio
    prio(s, 260, 2, 1, 12, 40, KEV_PRIO_MSG);          // a received pulse's priority
    prio(s, 270, 2, 1, 12, 12, KEV_PRIO_MSG);          // no change: nothing moves
    kx_stats_event(s, mk(KEV_C_USER, 1, 300, 0, 0, 0, 0, 2));
    kx_stats_finish(s);
    assert_int_equal(s->prio_t[10], 50);
    assert_int_equal(s->prio_t[25], 50);
    assert_int_equal(s->prio_t[40], 60);
    assert_int_equal(s->prio_t[12], 40);
    assert_int_equal(s->prio_t[20], 0);
    int b = kx_thread(&s->m, 2, 1);
    assert_int_equal(s->th[b].state_t[KEV_TH_RUNNING], 100); // one run, split by priority
    assert_int_equal(s->th[b].runs, 1);
    kx_stats_free(s);
    free(s);
}

// Documented form: receive in the server's context naming the sender pid; nested request.
static void test_nested_request(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 0, 2, 1);                   // client
    comm(s, KEV_COMM_SND_MESSAGE, 10, 5, 3);          // -> server (pid 3)
    th(s, KEV_TH_REPLY, 10, 2, 1);
    th(s, KEV_TH_RUNNING, 20, 3, 1);
    comm(s, KEV_COMM_REC_MESSAGE, 20, 1, 2);
    comm(s, KEV_COMM_SND_MESSAGE, 50, 6, 4);          // server -> driver (pid 4)
    th(s, KEV_TH_REPLY, 50, 3, 1);
    th(s, KEV_TH_RUNNING, 60, 4, 1);
    comm(s, KEV_COMM_REC_MESSAGE, 60, 1, 3);
    comm(s, KEV_COMM_REPLY_MESSAGE, 90, 1, 3);
    th(s, KEV_TH_RECEIVE, 90, 4, 1);
    th(s, KEV_TH_RUNNING, 95, 3, 1);
    comm(s, KEV_COMM_REPLY_MESSAGE, 130, 1, 2);
    kx_stats_finish(s);
    assert_int_equal(s->nchan, 2);
    assert_int_equal(s->worst_total, 120);
    assert_int_equal(s->worst_depth, 3);
    uint64_t sum = 0;
    for (unsigned i = 0; i < s->nworst; i++)
        sum += s->worst[i].t1 - s->worst[i].t0;
    assert_int_equal(sum, 120);
    assert_int_equal(s->q.nlive, 0); // everything released
    kx_stats_free(s);
    free(s);
}

// Thread 7/1 sends message rcvid to process 3, whose thread 3/2 is waiting for it (the kernel
// writes the receive in the sender's context, naming the receiver), then 3/2 runs.
static void kernel_send(struct kx_stats *s, uint64_t t, uint32_t rcvid)
{
    th(s, KEV_TH_RUNNING, t - 10, 7, 1);
    comm(s, KEV_COMM_SND_MESSAGE, t, rcvid, 3);
    comm(s, KEV_COMM_REC_MESSAGE, t, rcvid, 3u << 16 | 2);
    th(s, KEV_TH_RUNNING, t + 5, 3, 2);
}

// The kernel's reply [rcvid, status] and error [rcvid, errno] end the message their rcvid
// names, whatever their status or errno (the table names no pid there): a reply with status 5
// and an error with EINVAL (22) each end their client's message, none unmatched.
static void test_reply_status_and_error(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    kernel_send(s, 10, 0x108);
    comm(s, KEV_COMM_REPLY_MESSAGE, 40, 0x108, 5);
    kernel_send(s, 60, 0x109);
    comm(s, KEV_COMM_MSG_ERROR, 80, 0x109, 22);
    kx_stats_finish(s);
    assert_int_equal(s->q.unmatched_reply, 0);
    assert_int_equal(s->nchan, 1);
    assert_int_equal(s->chan[0].lat.n, 2);
    assert_int_equal(s->chan[0].lat.min, 20); // 60 -> 80 (the error), 10 -> 40 (the reply)
    assert_int_equal(s->q.nlive, 0);
    kx_stats_free(s);
    free(s);
}

// The kernel's form: receive in the sender's context naming the receiver as pid << 16 | tid,
// and a pulse sent from an interrupt handler.
static void test_kernel_form_and_irq_pulse(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    kernel_send(s, 10, 0x108);
    comm(s, KEV_COMM_REPLY_MESSAGE, 40, 0x108, 0);
    kx_stats_event(s, mk(KEV_C_INT, KEV_INT_ENTER, 50, 8, 0, 0, 0, 2));
    comm(s, KEV_COMM_SND_PULSE, 52, 0, 2);
    comm(s, KEV_COMM_REC_PULSE, 52, 2, 5u << 16 | 1);
    th(s, KEV_TH_READY, 53, 5, 1);
    kx_stats_event(s, mk(KEV_C_INT, KEV_INT_EXIT, 55, 8, 0, 0, 0, 2));
    th(s, KEV_TH_RUNNING, 70, 5, 1);
    kx_stats_finish(s);
    assert_int_equal(s->nchan, 2);
    const struct kx_chan *m = &s->chan[0], *p = &s->chan[1];
    assert_int_equal(m->srv_pid, 3);
    assert_int_equal(m->lat.min, 30);
    assert_int_equal(s->th[kx_thread(&s->m, 3, 2)].runs, 1);
    assert_true(p->pulse);
    assert_int_equal(p->irq, 9); // irq 8 + 1
    assert_int_equal(p->client, KX_NO_THREAD);
    assert_int_equal(p->srv_pid, 5);
    char buf[32];
    assert_string_equal(kx_chan_client(s, p, buf, sizeof(buf)), "irq 8");
    assert_int_equal(s->irq[8].latency.n, 1);
    assert_int_equal(s->irq[8].latency.min, 20); // entry 50 -> running 70
    assert_int_equal(s->irq[8].total.min, 5);
    kx_stats_free(s);
    free(s);
}

static void test_unmatched_and_overflow(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 0, 2, 1);
    comm(s, KEV_COMM_REPLY_MESSAGE, 5, 9, 9);
    comm(s, KEV_COMM_REC_MESSAGE, 6, 9, 9);
    assert_int_equal(s->q.unmatched_reply, 1);
    assert_int_equal(s->q.unmatched_recv, 1);
    // A thread waits in MsgSend until the reply: its next message ends an open one.
    comm(s, KEV_COMM_SND_MESSAGE, 8, 1, 77);
    comm(s, KEV_COMM_SND_MESSAGE, 9, 2, 77);
    assert_int_equal(s->q.stale, 1);
    assert_int_equal(s->q.nlive, 1);
    for (unsigned i = 0; i < KX_MSG_MAX + 10; i++) // pulses nobody receives
        comm(s, KEV_COMM_SND_PULSE, 10 + i, i, 77);
    assert_int_equal(s->q.overflow, 1);
    assert_true(s->q.nlive <= KX_MSG_MAX);
    kx_stats_finish(s);
    kx_stats_free(s);
    free(s);
}

// A nested message whose events were lost is dropped when its client sends again; the
// request it was nested in still completes with a consistent path.
static void test_stale_nested(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 0, 2, 1);
    comm(s, KEV_COMM_SND_MESSAGE, 10, 5, 3);
    th(s, KEV_TH_RUNNING, 20, 3, 1);
    comm(s, KEV_COMM_REC_MESSAGE, 20, 1, 2);
    comm(s, KEV_COMM_SND_MESSAGE, 30, 6, 4); // never received (lost)
    comm(s, KEV_COMM_SND_MESSAGE, 40, 6, 4); // the server sends again
    assert_int_equal(s->q.stale, 1);
    th(s, KEV_TH_RUNNING, 50, 4, 1);
    comm(s, KEV_COMM_REC_MESSAGE, 50, 1, 3);
    comm(s, KEV_COMM_REPLY_MESSAGE, 70, 1, 3);
    th(s, KEV_TH_RUNNING, 75, 3, 1);
    comm(s, KEV_COMM_REPLY_MESSAGE, 90, 1, 2);
    kx_stats_finish(s);
    assert_int_equal(s->worst_total, 80);
    assert_int_equal(s->worst_depth, 3);
    uint64_t sum = 0;
    for (unsigned i = 0; i < s->nworst; i++)
        sum += s->worst[i].t1 - s->worst[i].t0;
    assert_int_equal(sum, 80);
    assert_int_equal(s->q.nlive, 0);
    kx_stats_free(s);
    free(s);
}

static void test_kcalls_and_loss(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 0, 2, 1);
    kx_stats_event(s, mk(KEV_C_KER_CALL, KEV_KC_ENTRY(KC_SemWait), 10, 1, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_KER_CALL, KEV_KC_EXIT(KC_SemWait), 13, (uint32_t)-11, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_KER_CALL, KEV_KC_ENTRY(6), 20, 1, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_KER_CALL, KEV_KC_INTERRUPTED(6), 60, (uint32_t)-4, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_CONTROL, KEV_CTL_DROPPED, 100, 42, 42, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_USER, 3, 110, 0, 0, 0, 0, 2));
    kx_stats_finish(s);
    assert_int_equal(s->kc[KC_SemWait].errors, 1);
    assert_int_equal(s->kc[KC_SemWait].err[11], 1);
    assert_int_equal(s->kc[KC_SemWait].lat.min, 3);
    assert_int_equal(s->kc[6].interrupted, 1);
    assert_int_equal(s->kc[6].lat.min, 40);
    assert_int_equal(s->ngaps, 1);
    assert_int_equal(s->gap[0].lost, 42);
    assert_int_equal(s->gap[0].t0, 60);
    assert_int_equal(s->gap[0].t1, 100);
    assert_int_equal(s->gap[0].classes[KEV_C_KER_CALL], 4);
    assert_int_equal(s->gap[0].classes[KEV_C_USER], 1);
    char *json = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&json, &n);
    kx_stats_json(s, f);
    fclose(f);
    assert_non_null(strstr(json, "\"lost_windows\":[\n{\"cpu\":0,\"t0\":60,\"t1\":100,\"lost\":42"));
    assert_non_null(strstr(json, "\"name\":\"SemWait\""));
    free(json);
    kx_stats_free(s);
    free(s);
}

// Ids and priorities as Linux has them: idle 0, pid = main thread's tid, kernel and LTTng
// prios in the order the kernel schedules by.
static void test_linux_ids(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    struct kx_model *m = &s->m;
    int idle = kx_thread(m, 0, 1), a = kx_thread(m, 3, 1), b = kx_thread(m, 3, 2);
    int idle2 = kx_thread(m, 1, 2);
    kx_thread(m, 2, 1); // process 2 has a thread of its own
    strcpy(m->th[idle2].name, "idle");
    strcpy(m->th[a].comm, "srv"), strcpy(m->th[b].comm, "srv"), strcpy(m->th[b].name, "worker");
    assert_true(kx_is_idle(m, idle) && kx_is_idle(m, idle2) && kx_is_idle(m, KX_NO_THREAD));
    assert_false(kx_is_idle(m, a));
    assert_int_equal(kx_ltid(m, idle), 0);
    assert_int_equal(kx_ltid(m, idle2), 0);
    assert_int_equal(kx_lpid(m, idle2), 0);
    assert_int_equal(kx_ltid(m, a), 3001);
    assert_int_equal(kx_ltid(m, b), 3002);
    assert_int_equal(kx_lpid(m, b), 3001); // the main thread's tid
    assert_string_equal(kx_lcomm(m, a), "srv");
    assert_string_equal(kx_lcomm(m, b), "worker");
    assert_string_equal(kx_lcomm(m, idle), "swapper");
    // parents: process 1 holds only idle (ppid 0, like swapper's children); 2 is a real one
    kx_stats_event(s, mk(KEV_C_PR_TH, KEV_PR_CREATE, 1, 1, 2, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_PR_TH, KEV_PR_CREATE, 2, 2, 3, 0, 0, 2));
    assert_int_equal(kx_lppid(m, 2), 0);
    assert_int_equal(kx_lppid(m, 3), 2001);
    // QNX 1..98 -> kernel 98..1, 99+ -> 0, idle / unknown -> 120; LTTng = kernel - 100
    assert_int_equal(kx_kernel_prio(10), 89);
    assert_int_equal(kx_kernel_prio(20), 79);
    assert_true(kx_kernel_prio(20) < kx_kernel_prio(10)); // more urgent = lower
    assert_int_equal(kx_kernel_prio(1), 98);
    assert_int_equal(kx_kernel_prio(98), 1);
    assert_int_equal(kx_kernel_prio(200), 0);
    assert_int_equal(kx_kernel_prio(0), 120);
    assert_int_equal(kx_kernel_prio(-1), 120);
    assert_int_equal(kx_lttng_prio(10), -11);
    assert_int_equal(kx_lttng_prio(0), 20);
    kx_stats_free(s);
    free(s);
}

// A user event is its text when it is what trace_emit_string stores for a text alone (the
// emitter's documented layout, docs/trace-api.md): the bytes and a NUL, padded with zeros to
// at least 9 bytes and to whole slots of 8. Every length from 1 to 40 bytes is read back as
// its text, the short ones (under 8 bytes, two slots) included; a two-word event and words
// whose text ends a slot or more before the event does are words.
static const struct kev_event *mk_text(const char *text, unsigned extra_slots)
{
    static uint32_t tw[2 * 8];
    size_t len = strlen(text), bytes = len + 1 < 9 ? 9 : len + 1;
    unsigned slots = (unsigned)(bytes + 7) / 8 + extra_slots;
    memset(tw, 0, sizeof(tw));
    for (size_t i = 0; i < len; i++)
        tw[i / 4] |= (uint32_t)(unsigned char)text[i] << (8 * (i % 4));
    memset(&ev, 0, sizeof(ev));
    ev.cls = KEV_C_USER, ev.ev = 9, ev.w = tw, ev.nw = 2 * slots, ev.nslots = slots;
    return &ev;
}

static void test_user_string(void **state)
{
    (void)state;
    const char *abc = "abcdefghijklmnopqrstuvwxyz0123456789ABCD";
    char want[48], got[64];
    for (size_t len = 1; len <= 40; len++) {
        memcpy(want, abc, len);
        want[len] = 0;
        assert_int_equal(kx_user_string(&rd, mk_text(want, 0), got, sizeof(got)), 1);
        assert_string_equal(got, want);
        // the same text in an event a slot longer is not what the emitter writes for it
        assert_int_equal(kx_user_string(&rd, mk_text(want, 1), got, sizeof(got)), 0);
    }
    // "hi" as a two-word event (trace_logi's words): one slot, words
    assert_int_equal(kx_user_string(&rd, mk(KEV_C_USER, 9, 0, 0x6968, 0, 0, 0, 2), got,
                                    sizeof(got)), 0);
    // an empty text is no text
    assert_int_equal(kx_user_string(&rd, mk_text("", 0), got, sizeof(got)), 0);
}

// User events are counted per (id, process of the running thread).
static void test_user_events(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 0, 2, 1);
    kx_stats_event(s, mk(KEV_C_USER, 7, 10, 1, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_USER, 7, 20, 2, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_USER, 8, 25, 2, 0, 0, 0, 2));
    th(s, KEV_TH_RUNNING, 30, 4, 1);
    kx_stats_event(s, mk(KEV_C_USER, 7, 40, 3, 0, 0, 0, 2));
    kx_stats_finish(s);
    assert_int_equal(s->nuser, 3);
    assert_int_equal(s->user[0].id, 7);
    assert_int_equal(s->user[0].pid, 2);
    assert_int_equal(s->user[0].count, 2);
    assert_int_equal(s->user[0].first, 10);
    assert_int_equal(s->user[0].last, 20);
    assert_int_equal(s->user[1].id, 8);
    assert_int_equal(s->user[2].pid, 4);
    assert_int_equal(s->user[2].count, 1);
    assert_false(kx_stats_damaged(s));
    kx_stats_free(s);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buckets),
        cmocka_unit_test(test_function_calls),
        cmocka_unit_test(test_implicit_switch),
        cmocka_unit_test(test_prio_split),
        cmocka_unit_test(test_nested_request),
        cmocka_unit_test(test_kernel_form_and_irq_pulse),
        cmocka_unit_test(test_reply_status_and_error),
        cmocka_unit_test(test_unmatched_and_overflow),
        cmocka_unit_test(test_stale_nested),
        cmocka_unit_test(test_kcalls_and_loss),
        cmocka_unit_test(test_linux_ids),
        cmocka_unit_test(test_user_events),
        cmocka_unit_test(test_user_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
