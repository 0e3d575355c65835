// SPDX-License-Identifier: MIT
// Tracing on the target: TraceEvent() errors, a traced message round trip read back from the
// ring (events, order, arguments, thread states), the high-water synthetic interrupt, and the
// exact loss accounting of every overrun policy.
#include "ktest.h"
#include <board_user.h>
#include <trace/kev.h>

#define TE(cmd, a, b, c) TraceEvent((cmd), (uint32_t)(a), (uint32_t)(b), (uint32_t)(c))

// The ring the tests allocate: 4 buffers of 16 KB, or as many as the board's pool holds
// (BOARD_TRACE_BUFS: 2 on netduinoplus2). The checks hold for any count from 2.
#define KT_BUFS (BOARD_TRACE_BUFS < 4 ? BOARD_TRACE_BUFS : 4)
_Static_assert(KT_BUFS >= 2, "the trace tests need 2 buffers at least");

// What the scan of a trace found.
struct seen {
    unsigned events, user_simple, user_combine_ok, user_string_ok, snapshot_ktest;
    unsigned send_entry, send_exit_ok, snd, rec, reply, st_reply, st_receive, st_running;
    unsigned tick_int, bufend_events, order_ok;
    uint32_t rcvid_snd, rcvid_rec, rcvid_reply;
    int last_kind;      // 1 snd, 2 rec, 3 reply: checks their order
};

static void scan_buffer(const struct kev_slot *s, unsigned n, struct seen *f)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t h = s[i].header;
        unsigned cls = kev_hdr_class(h), ev = kev_hdr_event(h), type = kev_hdr_type(h);
        const uint32_t *d = s[i].data;
        if (cls == KEV_C_CONTROL) {
            if (ev == KEV_CTL_BUFFER_END)
                f->bufend_events += d[2];
            continue;
        }
        if (type == KEV_TYPE_CC || type == KEV_TYPE_CE)
            continue;
        f->events++;
        if (cls == KEV_C_USER && ev == 7 && type == KEV_TYPE_S && d[1] == 0x1234 && d[2] == 0x5678)
            f->user_simple++;
        if (cls == KEV_C_USER && ev == 8 && type == KEV_TYPE_CB && i + 1 < n &&
            d[1] == 11 && d[2] == 22 && s[i + 1].data[1] == 33 && s[i + 1].data[2] == 44)
            f->user_combine_ok++;
        if (cls == KEV_C_USER && ev == 9 && type == KEV_TYPE_CB &&
            memcmp(&d[1], "hello, t", 8) == 0)
            f->user_string_ok++;
        if (cls == KEV_C_PR_TH && ev == KEV_PR_CREATE_NAME && type == KEV_TYPE_CB &&
            d[2] == 1 && i + 1 < n && memcmp(s[i + 1].data + 1, "ktest", 6) == 0)
            f->snapshot_ktest++;
        if (cls == KEV_C_KER_CALL && ev == KEV_KC_ENTRY(KC_MsgSend))
            f->send_entry++;
        if (cls == KEV_C_KER_CALL && ev == KEV_KC_EXIT(KC_MsgSend) && d[1] == 5 && d[2] == 0)
            f->send_exit_ok++;
        if (cls == KEV_C_COMM && ev == KEV_COMM_SND_MESSAGE && d[2] == 1) {
            f->snd++;
            f->rcvid_snd = d[1];
            f->order_ok += f->last_kind == 0;
            f->last_kind = 1;
        }
        if (cls == KEV_C_COMM && ev == KEV_COMM_REC_MESSAGE) {
            f->rec++;
            f->rcvid_rec = d[1];
            f->order_ok += f->last_kind == 1;
            f->last_kind = 2;
        }
        if (cls == KEV_C_COMM && ev == KEV_COMM_REPLY_MESSAGE && d[2] == 5) {
            f->reply++;
            f->rcvid_reply = d[1];
            f->order_ok += f->last_kind == 2;
            f->last_kind = 3;
        }
        if (cls == KEV_C_PR_TH && ev == KEV_TH_REPLY && d[1] == 1 && d[2] == 1)
            f->st_reply++;
        if (cls == KEV_C_PR_TH && ev == KEV_TH_RECEIVE && d[1] == 1)
            f->st_receive++;
        if (cls == KEV_C_PR_TH && ev == KEV_TH_RUNNING)
            f->st_running++;
        if (cls == KEV_C_INT && ev == KEV_INT_ENTER && d[1] == KIRQ_TICK)
            f->tick_int++;
    }
}

// Takes every buffer the kernel hands out, scans it and gives it back. Returns the count.
static int drain(struct seen *f)
{
    struct ktrace_buffer b;
    int n = 0;
    while (TE(KTRACE_TAKEBUFFER, &b, 0, 0) == 0) {
        if (f)
            scan_buffer((const struct kev_slot *)(uintptr_t)b.addr, b.nslots, f);
        TE(KTRACE_RELEASEBUFFER, b.index, 0, 0);
        n++;
    }
    return n;
}

static int srv_chid;

static int echo_server(void *arg)
{
    (void)arg;
    char buf[16];
    int rcvid = MsgReceive(srv_chid, buf, sizeof(buf), NULL);
    MsgReply(rcvid, 5, NULL, 0);
    return 0;
}

static void control_errors(void)
{
    CHECK(TE(KTRACE_QUERYVERSION, 0, 0, 0) == 0x10002, "QUERYVERSION gives format 1.02");
    CHECK_ERR(TE(KTRACE_START, 0, 0, 0), ECANCELED);
    CHECK_ERR(TE(KTRACE_TAKEBUFFER, 0, 0, 0), ECANCELED);
    CHECK_ERR(TE(KTRACE_ALLOCBUFFER, 0, 0, 0), EINVAL);
    CHECK_ERR(TE(KTRACE_ALLOCBUFFER, 65, 0, 0), EINVAL);
    CHECK_ERR(TE(99, 0, 0, 0), EINVAL);
    // Bounded kernel work: one KTRACE_BENCH call runs at most
    // KTRACE_BENCH_MAX iterations; a million (350-680 ms of kernel time) is refused.
    CHECK_ERR(TE(KTRACE_BENCH, KTRACE_BENCH_LOOP, 1000000, 0), EINVAL);
    CHECK_ERR(TE(KTRACE_BENCH, KTRACE_BENCH_LOOP, KTRACE_BENCH_MAX + 1, 0), EINVAL);
    uint64_t b0 = ClockTime();
    CHECK(TE(KTRACE_BENCH, KTRACE_BENCH_LOOP, KTRACE_BENCH_MAX, 0) == 0,
          "KTRACE_BENCH of KTRACE_BENCH_MAX iterations runs (%lu us)",
          (unsigned long)((ClockTime() - b0) / 1000u));
    CHECK(TE(KTRACE_ALLOCBUFFER, KT_BUFS, 0, 0) == KT_BUFS, "ALLOCBUFFER %d buffers", KT_BUFS);
    CHECK_ERR(TE(KTRACE_ALLOCBUFFER, KT_BUFS, 0, 0), EEXIST);
    CHECK_ERR(TE(KTRACE_ADDCLASS, 99, 0, 0), EINVAL);
    CHECK_ERR(TE(KTRACE_SETPOLICY, 9, 0, 0), EINVAL);
    CHECK_ERR(TE(KTRACE_SETCLASSPID, KEV_C_COMM, 0, 0), EINVAL);
    CHECK_ERR(TE(KTRACE_TAKEBUFFER, BOARD_KERNEL_RAM_ADDR, 0, 0), EFAULT);
    CHECK_ERR(TE(KTRACE_QUERYEVENTS, BOARD_CODE_ADDR, 0, 0), EFAULT);
    CHECK_ERR(TE(KTRACE_RELEASEBUFFER, KT_BUFS - 1, 0, 0), EINVAL);    // not taken
    CHECK_ERR(TE(KTRACE_INSERTCUSEREVENT, 1, BOARD_KERNEL_RAM_ADDR, 4), EFAULT);
    CHECK_ERR(TE(KTRACE_INSERTCUSEREVENT, 1, 0, 65), EINVAL);
    CHECK_ERR(TE(KTRACE_INSERTSUSEREVENT, 1024, 0, 0), EINVAL);
    CHECK(TE(KTRACE_STARTNOSTATE, 0, 0, 0) == 0, "STARTNOSTATE");
    CHECK_ERR(TE(KTRACE_SETPOLICY, KTRACE_POLICY_RING, 0, 0), EBUSY);
    CHECK_ERR(TE(KTRACE_DEALLOCBUFFER, 0, 0, 0), EBUSY);
    TE(KTRACE_STOP, 0, 0, 0);
    drain(NULL);
    CHECK(TE(KTRACE_DEALLOCBUFFER, 0, 0, 0) == 0, "DEALLOCBUFFER when stopped");
    int pid = ProcSpawn("kt_peer", 0, 0x40000u);
    int st = 0;
    ProcWait(pid, &st);
    CHECK(KW_EXITSTATUS(st) == EPERM, "a program without trace rights gets EPERM (%d)",
          KW_EXITSTATUS(st));
}

// Until this process's thread tid is blocked in MsgReceive (at most about a second): a server
// that only ran once the send was on its way takes the message without blocking, and QEMU
// without -icount keeps the host's time, so a loaded host can run a 2 ms sleep out before the
// server has had the CPU at all.
static bool await_receive_blocked(int tid)
{
    uint32_t slots = 0;
    SysInfo(KSYSINFO_NTHREAD, &slots);
    for (unsigned tries = 0; tries < 1000u; tries++) {
        struct kthread_info ti;
        for (uint32_t i = 0; i < slots; i++)
            if (ThreadInfo(i, &ti) == 0 && ti.pid == ProcSelf() && ti.tid == tid)
                if (ti.state == THS_RECEIVE)
                    return true;
        ThreadSleep(1000000);
    }
    return false;
}

static void traced_round_trip(void)
{
    struct seen f;
    memset(&f, 0, sizeof(f));
    TE(KTRACE_ALLOCBUFFER, KT_BUFS, 0, 0);
    TE(KTRACE_ADDALLCLASSES, 0, 0, 0);
    CHECK(TE(KTRACE_START, 0, 0, 0) == 0, "START with the state snapshot");
    srv_chid = ChannelCreate(0);
    int coid = ConnectAttach(0, srv_chid);
    int t = ThreadCreate(echo_server, NULL, stack_get(), TSTACK_SIZE, 20, 0);
    ThreadSleep(2000000);
    CHECK(await_receive_blocked(t), "the server waits in MsgReceive before the send");
    int st = MsgSend(coid, "abc", 4, NULL, 0);
    ThreadJoin(t, NULL);
    uint32_t words[4] = { 11, 22, 33, 44 };
    TE(KTRACE_INSERTSUSEREVENT, 7, 0x1234, 0x5678);
    TE(KTRACE_INSERTCUSEREVENT, 8, words, 4);
    TE(KTRACE_INSERTUSRSTREVENT, 9, "hello, trace", 0);
    TE(KTRACE_STOP, 0, 0, 0);
    struct ktrace_query q;
    TE(KTRACE_QUERYEVENTS, &q, 0, 0);
    int nb = drain(&f);
    CHECK(st == 5 && nb >= 1, "round trip traced into %d buffer(s)", nb);
    CHECK(f.snapshot_ktest == 1, "the snapshot names pid 1 'ktest'");
    CHECK(f.send_entry >= 1 && f.send_exit_ok == 1, "MsgSend entry and exit (status 5) events");
    CHECK(f.snd == 1 && f.rec == 1 && f.reply == 1 && f.order_ok == 3,
          "send, receive, reply events in order (%u %u %u, order %u)", f.snd, f.rec, f.reply,
          f.order_ok);
    CHECK(f.rcvid_snd == f.rcvid_rec && f.rcvid_rec == f.rcvid_reply,
          "one rcvid links send, receive and reply (%#lx)", (unsigned long)f.rcvid_snd);
    CHECK(f.st_reply >= 1 && f.st_receive >= 1 && f.st_running >= 2,
          "thread states: REPLY %u, RECEIVE %u, RUNNING %u", f.st_reply, f.st_receive,
          f.st_running);
    CHECK(f.tick_int >= 1, "tick interrupts traced (%u)", f.tick_int);
    CHECK(f.user_simple == 1 && f.user_combine_ok == 1 && f.user_string_ok == 1,
          "user events: 2-word, buffer and string");
    CHECK(f.events == f.bufend_events && q.recorded == f.events && q.dropped == 0,
          "every recorded event is in the buffers (%u scanned, %s recorded)", f.events,
          u64txt(q.recorded).s);
    ConnectDetach(coid);
    ChannelDestroy(srv_chid);
    TE(KTRACE_DEALLOCBUFFER, 0, 0, 0);
}

static void high_water_interrupt(void)
{
    int chid = ChannelCreate(0);
    int coid = ConnectAttach(0, chid);
    TE(KTRACE_ALLOCBUFFER, KT_BUFS, 0, 0);
    TE(KTRACE_DELALLCLASSES, 0, 0, 0);
    TE(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    int id = InterruptAttachEvent(KIRQ_TRACE, coid, 5);
    CHECK(id > 0, "attach the trace synthetic interrupt");
    TE(KTRACE_STARTNOSTATE, 0, 0, 0);
    int i;
    struct kpulse p;
    int got = -1;
    for (i = 0; i < 900 && got < 0; i++) {
        TE(KTRACE_INSERTSUSEREVENT, 1, (uint32_t)i, 0);
        TimerTimeout(1);
        if (MsgReceive(chid, &p, sizeof(p), NULL) == 0 && p.code == 5)
            got = i;
    }
    CHECK(got >= 700 && got <= 720 && (p.value & 0xff) < KT_BUFS,
          "the synthetic interrupt came at the high-water mark (after %d events, value %#lx)",
          got + 1, (unsigned long)p.value);
    TE(KTRACE_STOP, 0, 0, 0);
    struct ktrace_buffer b;
    CHECK(TE(KTRACE_TAKEBUFFER, &b, 0, 0) == 0 && b.index == (uint32_t)(p.value & 0xff) &&
              b.seq == ((uint32_t)p.value >> 8),
          "the interrupt named the buffer the logger then takes (index %lu seq %lu)",
          (unsigned long)b.index, (unsigned long)b.seq);
    TE(KTRACE_RELEASEBUFFER, b.index, 0, 0);
    drain(NULL);
    InterruptDetach(id);
    TE(KTRACE_DEALLOCBUFFER, 0, 0, 0);
    ConnectDetach(coid);
    ChannelDestroy(chid);
}

// N user events into 2 buffers nobody drains: the loss is exact in every policy.
static void policy_accounting(int policy, const char *name)
{
    const uint32_t n = 3000;
    struct ktrace_query q;
    TE(KTRACE_ALLOCBUFFER, 2, 0, 0);
    TE(KTRACE_SETPOLICY, policy, 0, 0);
    TE(KTRACE_DELALLCLASSES, 0, 0, 0);
    TE(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    TE(KTRACE_STARTNOSTATE, 0, 0, 0);
    for (uint32_t i = 0; i < n; i++)
        TE(KTRACE_INSERTSUSEREVENT, 1, i, 0);
    TE(KTRACE_QUERYEVENTS, &q, 0, 0);
    int running = (int)q.running;
    TE(KTRACE_STOP, 0, 0, 0);
    struct seen f;
    memset(&f, 0, sizeof(f));
    drain(&f);
    TE(KTRACE_QUERYEVENTS, &q, 0, 0);
    if (policy == KTRACE_POLICY_FILL)
        CHECK(!running && q.recorded == f.events && q.dropped == 0 && q.recorded < n,
              "%s: tracing stopped when the buffers were full (%s recorded)", name,
              u64txt(q.recorded).s);
    else
        CHECK(q.generated == n && q.recorded + q.dropped + q.overwritten == n &&
                  q.recorded == f.events && q.dropped + q.overwritten > 0,
              "%s: recorded %s + dropped %s + overwritten %s == %lu generated", name,
              u64txt(q.recorded).s, u64txt(q.dropped).s,
              u64txt(q.overwritten).s, (unsigned long)n);
    TE(KTRACE_DEALLOCBUFFER, 0, 0, 0);
}

// Counts KER_CALL entry events of ThreadYield in a trace of 20 yields with a PID/TID filter.
static unsigned yields_traced(unsigned cmd, uint32_t value)
{
    unsigned n = 0;
    struct ktrace_buffer b;
    TE(KTRACE_ALLOCBUFFER, 2, 0, 0);
    TE(KTRACE_DELALLCLASSES, 0, 0, 0);
    TE(KTRACE_ADDCLASS, KEV_C_KER_CALL, 0, 0);
    if (cmd)
        TE(cmd, KEV_C_KER_CALL, value, 0);
    TE(KTRACE_STARTNOSTATE, 0, 0, 0);
    for (int i = 0; i < 20; i++)
        ThreadYield();
    TE(KTRACE_STOP, 0, 0, 0);
    while (TE(KTRACE_TAKEBUFFER, &b, 0, 0) == 0) {
        const struct kev_slot *s = (const struct kev_slot *)(uintptr_t)b.addr;
        for (unsigned i = 0; i < b.nslots; i++)
            n += kev_hdr_class(s[i].header) == KEV_C_KER_CALL &&
                 kev_hdr_event(s[i].header) == KEV_KC_ENTRY(KC_ThreadYield);
        TE(KTRACE_RELEASEBUFFER, b.index, 0, 0);
    }
    TE(KTRACE_DEALLOCBUFFER, 0, 0, 0);
    return n;
}

static void pid_tid_filters(void)
{
    CHECK(yields_traced(0, 0) == 20, "20 yields traced without a filter");
    CHECK(yields_traced(KTRACE_SETCLASSPID, 1) == 20, "PID filter on our pid keeps them");
    CHECK(yields_traced(KTRACE_SETCLASSPID, 77) == 0, "PID filter on another pid drops them");
    CHECK(yields_traced(KTRACE_SETCLASSTID, 1) == 20, "TID filter on our tid keeps them");
    CHECK(yields_traced(KTRACE_SETCLASSTID, 5) == 0, "TID filter on another tid drops them");
}

static void tables(void)
{
    struct kproc_info pi;
    struct kthread_info ti;
    // The call first: the order in which a call's arguments are evaluated is unspecified.
    int r = ProcInfo(0, &pi);
    CHECK(r == 0 && pi.pid == 1 && strcmp(pi.name, "ktest") == 0 &&
              pi.state == 1, "ProcInfo slot 0 is pid 1 'ktest' (%ld %s)", (long)pi.pid, pi.name);
    CHECK_ERR(ProcInfo(5, &pi), ESRCH);
    CHECK_ERR(ProcInfo(1000, &pi), EINVAL);
    CHECK_ERR(ProcInfo(0, (struct kproc_info *)BOARD_KERNEL_RAM_ADDR), EFAULT);
    int found = 0;
    for (unsigned i = 0; i < 48; i++)
        if (ThreadInfo(i, &ti) == 0 && ti.pid == 1 && ti.tid == 1) {
            found++;
            break;
        }
    CHECK(found == 1 && strcmp(ti.name, "ktest-main") == 0 && ti.state == THS_RUNNING &&
              ti.priority == KTEST_PRIO,
          "ThreadInfo finds our running main thread ('%s', state %ld, priority %ld)", ti.name,
          (long)ti.state, (long)ti.priority);
    CHECK_ERR(ThreadInfo(48, &ti), EINVAL);
}

// 2-word user events go through this process's ring (user/lib/trace_uring.c) and
// reach the trace at its next kernel entry, before that entry's own events, stamped when they
// were inserted (the board's counter is readable without a kernel call), in time order with the
// kernel's events; events inserted while no capture ran are not in the next capture.
#define URING_SPIN 50000u
static void user_ring(void)
{
    struct ktrace_buffer b;
    TE(KTRACE_ALLOCBUFFER, KT_BUFS, 0, 0);
    TE(KTRACE_DELALLCLASSES, 0, 0, 0);
    TE(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    TE(KTRACE_ADDCLASS, KEV_C_KER_CALL, 0, 0);
    for (uint32_t i = 0; i < 5; i++)
        TE(KTRACE_INSERTSUSEREVENT, 60, i, 0);     // no capture runs: not in the next one
    TE(KTRACE_STARTNOSTATE, 0, 0, 0);
    for (uint32_t i = 0; i < 8; i++) {
        TE(KTRACE_INSERTSUSEREVENT, 61, i, 0);
        for (volatile uint32_t k = 0; k < URING_SPIN; k++)
            ;
        ThreadSelf();
    }
    TE(KTRACE_STOP, 0, 0, 0);
    // excused: a record the drain stamped with its own time by the order's rule (kuring.c: a
    // time before the ring's last event is replaced by now), because an event of another
    // thread came between this thread's last call and the record (it ran during the spin:
    // a host-paced clock under load stretches the spin past the time slice), or because the
    // record opened a buffer (its control events, stamped then, come first: a buffer switch
    // stamps its slots afresh, trace_ring.h). The capture's first record opens one unless an
    // interrupt's drain came first during the spin: whether one does is the clock's pace.
    unsigned stale = 0, mine = 0, followed = 0, early = 0, monotonic = 1, prev_user = 0;
    unsigned foreign = 0, excused = 0, foreign_at_user = 0;
    uint32_t last_ts = 0, user_ts = 0;
    int any = 0;
    while (TE(KTRACE_TAKEBUFFER, &b, 0, 0) == 0) {
        const struct kev_slot *s = (const struct kev_slot *)(uintptr_t)b.addr;
        for (unsigned i = 0; i < b.nslots; i++) {
            unsigned cls = kev_hdr_class(s[i].header), ev = kev_hdr_event(s[i].header);
            uint32_t ts = s[i].data[0];
            if (cls == KEV_C_CONTROL) {
                foreign++;                      // a buffer's start: what follows is stamped then
                continue;
            }
            if (any && ts < last_ts)
                monotonic = 0;
            any = 1;
            last_ts = ts;
            if (prev_user && cls == KEV_C_KER_CALL && ev == KEV_KC_ENTRY(KC_ThreadSelf)) {
                followed++;
                if (ts - user_ts > 50u)         // its own time, not the drain's
                    early++;
                else
                    excused += foreign_at_user != 0;
            }
            prev_user = cls == KEV_C_USER && ev == 61 && s[i].data[1] == mine;
            if (prev_user) {
                mine++;
                user_ts = ts;
                foreign_at_user = foreign;
                foreign = 0;
            } else if (cls == KEV_C_KER_CALL && (ev == KEV_KC_EXIT(KC_ThreadSelf) ||
                                                 ev == KEV_KC_EXIT(KC_TraceEvent))) {
                foreign = 0;                    // this thread's last call before its insert
            } else if (!(cls == KEV_C_KER_CALL && ev == KEV_KC_ENTRY(KC_ThreadSelf))) {
                foreign++;
            }
            stale += cls == KEV_C_USER && ev == 60;
        }
        TE(KTRACE_RELEASEBUFFER, b.index, 0, 0);
    }
    CHECK(mine == 8 && stale == 0, "ring user events: 8 of 8 in order, %u from before START",
          stale);
    CHECK(followed == 8 && monotonic,
          "each comes right before the next kernel entry's event, time monotonic (%u, %u)",
          followed, monotonic);
    CHECK(early + excused == 8 && early > 0,
          "each carries the time it was inserted, before the spin (%u of 8; %u stamped at the "
          "drain after another thread's events or a buffer's start)", early, excused);
    TE(KTRACE_DEALLOCBUFFER, 0, 0, 0);
}

void test_trace(void)
{
    printf("# tracing\n");
    tables();
    pid_tid_filters();
    control_errors();
    traced_round_trip();
    high_water_interrupt();
    policy_accounting(KTRACE_POLICY_SWITCH, "switch");
    policy_accounting(KTRACE_POLICY_OVERWRITE, "overwrite");
    policy_accounting(KTRACE_POLICY_RING, "ring");
    policy_accounting(KTRACE_POLICY_FILL, "fill");
    user_ring();
}


// QNX's TraceEvent() interface, exercised by kt_qnx (user/apps/kt_qnx: QNX instrumentation
// compiled unchanged); it owns the ring while it runs and exits with its failure count.
// A capture is its owner's: another KAPP_F_TRACE process (kt_qnx, arg 1)
// gets EPERM for every control command but the query while ktest's ring runs; once ktest
// shares its control (KTRACE_SHARECONTROL), kt_qnx (arg 2) may stop and start it.
static void owner_control(void)
{
    int st = -1, pid;
    CHECK(TE(KTRACE_ALLOCBUFFER, 2, 0, 0) == 2 && TE(KTRACE_START, 0, 0, 0) == 0,
          "owner: a running capture of ktest's");
    pid = ProcSpawn("kt_qnx", 0, 1);
    CHECK(pid > 0 && ProcWait(pid, &st) == pid && st == 0,
          "owner: another trace process cannot stop, start, filter or take it (status %#x)", st);
    CHECK(TE(KTRACE_SHARECONTROL, 1, 0, 0) == 0, "owner: shares the capture's control");
    pid = ProcSpawn("kt_qnx", 0, 2);
    CHECK(pid > 0 && ProcWait(pid, &st) == pid && st == 0,
          "owner: then another may stop and start it (status %#x)", st);
    TE(KTRACE_STOP, 0, 0, 0);
    while (drain(NULL) > 0)
        ;
    CHECK(TE(KTRACE_DEALLOCBUFFER, 0, 0, 0) == 0, "owner: deallocates its ring");
}

void test_qnx_trace(void)
{
    owner_control();
    int status = -1;
    int pid = ProcSpawn("kt_qnx", 0, 0);
    CHECK(pid > 0 && ProcWait(pid, &status) == pid && status == 0,
          "QNX API: kt_qnx's checks pass (status %d; its '# kt_qnx' lines say which failed)",
          status);
}
