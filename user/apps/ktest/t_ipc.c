// SPDX-License-Identifier: MIT
// Message passing: round trips, info, truncation, MsgError, pulses and their order, priority
// inheritance on receive, cross-process traffic with kt_peer, servers that go away, receive
// buffers smaller than a pulse, and name_open waiting for a name.
#include "ktest.h"
#include <sys/dispatch.h>

struct req {
    int32_t op;         // 0 echo+1, 1 error, 2 quit
    int32_t val;
    int32_t pad[2];
};

static int srv_chid;
static volatile int served, hog_started_before_reply;
static struct kmsg_info last_info;

static int server(void *arg)
{
    (void)arg;
    for (;;) {
        struct req r;
        int rcvid = MsgReceive(srv_chid, &r, sizeof(r), &last_info);
        if (rcvid <= 0)
            continue;
        served = 1;
        if (r.op == 2) {
            MsgReply(rcvid, 0, NULL, 0);
            return 0;
        }
        if (r.op == 1) {
            MsgError(rcvid, r.val);
            continue;
        }
        r.val += 1;
        MsgReply(rcvid, 7, &r, sizeof(r));
    }
}

static int hog(void *arg)
{
    (void)arg;
    if (!served)
        hog_started_before_reply = 1;
    return 0;
}

static void local_round_trips(void)
{
    srv_chid = ChannelCreate(0);
    CHECK(srv_chid > 0, "ChannelCreate gives a channel id (%d)", srv_chid);
    int coid = ConnectAttach(0, srv_chid);
    CHECK(coid > 0, "ConnectAttach to our own channel (%d)", coid);
    int srv = ThreadCreate(server, NULL, stack_get(), TSTACK_SIZE, 20, 0);
    ThreadSleep(2 * 1000000ull);    // let the server block in MsgReceive

    // Priority inheritance on receive: the server (20) runs at our priority (100) to answer,
    // ahead of a ready thread at 50.
    served = 0;
    hog_started_before_reply = 0;
    int h = ThreadCreate(hog, NULL, stack_get(), TSTACK_SIZE, 50, 0);
    struct req q = { 0, 41, { 0, 0 } }, a = { 0, 0, { 0, 0 } };
    int st = MsgSend(coid, &q, sizeof(q), &a, sizeof(a));
    CHECK(st == 7 && a.val == 42, "MsgSend round trip: status %d, reply %ld", st, (long)a.val);
    CHECK(!hog_started_before_reply, "server inherited the client's priority on receive");
    CHECK(last_info.pid == ProcSelf() && last_info.tid == 1 && last_info.msglen == sizeof(q) &&
              last_info.priority == KTEST_PRIO && last_info.dstmsglen == sizeof(a),
          "receive info: pid %ld tid %ld len %ld prio %ld", (long)last_info.pid,
          (long)last_info.tid, (long)last_info.msglen, (long)last_info.priority);
    ThreadJoin(h, NULL);

    // Short reply buffer: the reply is truncated to what the client can take.
    int32_t small = 0;
    st = MsgSend(coid, &q, sizeof(q), &small, sizeof(small));
    CHECK(st == 7 && small == 0, "reply truncated to the client's buffer (first word %ld)",
          (long)small);

    q.op = 1;
    q.val = 77;
    errno = 0;
    st = MsgSend(coid, &q, sizeof(q), &a, sizeof(a));
    CHECK(st == -1 && errno == 77, "MsgError delivers the error to the client (errno %d)", errno);

    q.op = 2;
    MsgSend(coid, &q, sizeof(q), NULL, 0);
    ThreadJoin(srv, NULL);

    // Pulses: queued while nobody receives, delivered highest priority first.
    CHECK(MsgSendPulse(coid, 10, 1, 100) == 0, "pulse queued (prio 10)");
    CHECK(MsgSendPulse(coid, 30, 2, 200) == 0, "pulse queued (prio 30)");
    struct kpulse p;
    int r = MsgReceive(srv_chid, &p, sizeof(p), NULL);
    CHECK(r == 0 && p.code == 2 && p.value == 200, "higher-priority pulse first (code %ld)",
          (long)p.code);
    r = MsgReceive(srv_chid, &p, sizeof(p), NULL);
    CHECK(r == 0 && p.code == 1 && p.value == 100 && p.scoid == coid,
          "then the other (code %ld, value %ld)", (long)p.code, (long)p.value);
    CHECK(ConnectDetach(coid) == 0, "ConnectDetach");
    CHECK(ChannelDestroy(srv_chid) == 0, "ChannelDestroy");
}

static int dead_chid, dead_coid;
static volatile int blocked_result, blocked_errno;

static int blocked_sender(void *arg)
{
    (void)arg;
    int x = 1;
    errno = 0;
    blocked_result = MsgSend(dead_coid, &x, sizeof(x), NULL, 0);
    blocked_errno = errno;
    return 0;
}

static void channel_destroyed_under_sender(void)
{
    dead_chid = ChannelCreate(0);
    dead_coid = ConnectAttach(0, dead_chid);
    int t = ThreadCreate(blocked_sender, NULL, stack_get(), TSTACK_SIZE, 110, 0);
    CHECK(ChannelDestroy(dead_chid) == 0, "destroy a channel with a send-blocked client");
    ThreadJoin(t, NULL);
    CHECK(blocked_result == -1 && blocked_errno == ESRCH,
          "the blocked client gets ESRCH (got %d, errno %d)", blocked_result, blocked_errno);
    CHECK_ERR(MsgSend(dead_coid, &t, sizeof(t), NULL, 0), ESRCH);
    ConnectDetach(dead_coid);
}

static void cross_process(void)
{
    int chid = ChannelCreate(0);
    int pid = ProcSpawn("kt_peer", 0, (uint32_t)chid);
    CHECK(pid > 1, "spawn kt_peer (pid %d)", pid);
    int32_t hello[4];
    struct kmsg_info info;
    int rcvid = MsgReceive(chid, hello, sizeof(hello), &info);
    CHECK(rcvid > 0 && info.pid == pid && hello[0] == 0x48454c4f,
          "hello from the peer process (pid %ld)", (long)info.pid);
    int peer_chid = hello[1];
    MsgReply(rcvid, 0, NULL, 0);

    int coid = ConnectAttach(pid, peer_chid);
    CHECK(coid > 0, "connect to the peer's channel");
    char msg[32] = "ping across processes", rep[32] = "";
    int st = MsgSend(coid, msg, sizeof(msg), rep, sizeof(rep));
    CHECK(st == (int)strlen(msg) && strcmp(rep, "sessecorp ssorca gnip") == 0,
          "cross-process round trip (status %d, reply '%s')", st, rep);
    // A mutex or a semaphore is its process's own: its id names nothing in the peer (EINVAL),
    // so programs share a resource through a server, not a lock (docs/applications.md).
    int mid = MutexCreate(), sid = SemCreate(1);
    int32_t sync_req[2] = { 0x53594e43, mid }, errs[2] = { -1, -1 };   // "SYNC"
    MsgSend(coid, sync_req, sizeof(sync_req), errs, sizeof(errs));
    int32_t sem_req[2] = { 0x53594e43, sid }, errs2[2] = { -1, -1 };
    MsgSend(coid, sem_req, sizeof(sem_req), errs2, sizeof(errs2));
    CHECK(errs[0] == EINVAL && errs2[1] == EINVAL,
          "another process's mutex and semaphore ids are refused (EINVAL: %ld, %ld)",
          (long)errs[0], (long)errs2[1]);
    MutexDestroy(mid);
    SemDestroy(sid);
    int32_t quit_cmd = 0x51554954;      // "QUIT"
    MsgSend(coid, &quit_cmd, sizeof(quit_cmd), NULL, 0);
    int status = -1;
    CHECK(ProcWait(pid, &status) == pid && KW_EXITED(status) && KW_EXITSTATUS(status) == 0,
          "peer exited with status 0 (wait status %#x)", status);

    // A server that dies holding our message: we get ESRCH instead of waiting forever.
    pid = ProcSpawn("kt_peer", 0, (uint32_t)chid | 0x10000u);
    rcvid = MsgReceive(chid, hello, sizeof(hello), &info);
    MsgReply(rcvid, 0, NULL, 0);
    coid = ConnectAttach(pid, hello[1]);
    errno = 0;
    st = MsgSend(coid, msg, sizeof(msg), rep, sizeof(rep));
    CHECK(st == -1 && errno == ESRCH, "server exits without replying: client gets ESRCH (%d/%d)",
          st, errno);
    ProcWait(pid, &status);
    ChannelDestroy(chid);
}

// A receive buffer smaller than a pulse (QNX's documented semantics, its kernel's behaviour):
// a message into it is cut to the buffer and received; a pulse cannot fit, so the receive
// takes it and fails with EFAULT, once per pulse, whether the pulse was queued or arrives
// while the receiver waits. A server looping on MsgReceive thus goes on serving messages.
static int small_chid;
static volatile int small_result = 1, small_errno;

static int small_receiver(void *arg)
{
    (void)arg;
    char tiny[4];
    errno = 0;
    small_result = MsgReceive(small_chid, tiny, sizeof(tiny), NULL);
    small_errno = errno;
    return 0;
}

static int small_sender(void *arg)
{
    (void)arg;
    int coid = ConnectAttach(0, small_chid);
    char msg[12] = "abcdefghijk";
    TimerTimeout(1000 * 1000000ull);    // (a kernel that refuses the receive fails the check)
    MsgSend(coid, msg, sizeof(msg), NULL, 0);
    ConnectDetach(coid);
    return 0;
}

static void small_receive_buffer(void)
{
    small_chid = ChannelCreate(0);
    int coid = ConnectAttach(0, small_chid);
    char tiny[4] = { 0, 0, 0, 0 };
    struct kmsg_info info;
    // (pulses at our own priority: a receive runs at its pulse's, docs/ARCHITECTURE.md)
    MsgSendPulse(coid, KTEST_PRIO, 5, 55);
    MsgSendPulse(coid, KTEST_PRIO, 6, 66);
    CHECK_ERR(MsgReceive(small_chid, tiny, sizeof(tiny), NULL), EFAULT);
    struct kpulse p = { 0, 0, 0, 0 };
    int r = MsgReceive(small_chid, &p, sizeof(p), NULL);
    CHECK(r == 0 && p.code == 6 && p.value == 66,
          "a queued pulse into a 4-byte buffer fails with EFAULT and is taken: the next "
          "receive gets the next pulse (code %ld, value %ld)", (long)p.code, (long)p.value);

    int t = ThreadCreate(small_sender, NULL, stack_get(), TSTACK_SIZE, 110, 0);
    r = MsgReceive(small_chid, tiny, sizeof(tiny), &info);
    CHECK(r > 0 && memcmp(tiny, "abcd", 4) == 0 && info.msglen == 4 && info.srcmsglen == 12,
          "a 12-byte message into a 4-byte buffer is received, cut to it (rcvid %d, %ld of "
          "%ld bytes)", r, (long)info.msglen, (long)info.srcmsglen);
    MsgReply(r, 0, NULL, 0);
    ThreadJoin(t, NULL);

    t = ThreadCreate(small_receiver, NULL, stack_get(), TSTACK_SIZE, 110, 0);   // blocks
    MsgSendPulse(coid, KTEST_PRIO, 7, 77);
    ThreadJoin(t, NULL);
    CHECK(small_result == -1 && small_errno == EFAULT,
          "a pulse to a receiver waiting with a 4-byte buffer: EFAULT (got %d, errno %d)",
          small_result, small_errno);
    ConnectDetach(coid);
    ChannelDestroy(small_chid);
}

// name_open of a name no channel has: ENOENT at once (QNX's); with NAME_FLAG_WAIT it waits
// until a server attaches the name, or as long as a TimerTimeout allows (ETIMEDOUT). Times by
// the program's own clock.
static volatile int waiter_coid = -2, waiter_errno;
static volatile uint64_t waiter_ms;

static int name_waiter(void *arg)
{
    (void)arg;
    uint64_t t0 = now_ms();
    errno = 0;
    waiter_coid = name_open("kt_wait", NAME_FLAG_WAIT);
    waiter_errno = errno;
    waiter_ms = now_ms() - t0;
    return 0;
}

static void name_open_waits(void)
{
    CHECK_ERR(name_open("kt_wait", 0), ENOENT);
    uint64_t t0 = now_ms();
    TimerTimeout(20 * 1000000ull);
    errno = 0;
    int r = name_open("kt_wait", NAME_FLAG_WAIT);
    int e = errno;
    uint64_t dt = now_ms() - t0;
    CHECK(r == -1 && e == ETIMEDOUT && dt >= 20 && dt < 500,
          "name_open(NAME_FLAG_WAIT) after TimerTimeout(20 ms), no server: ETIMEDOUT after "
          "%lu ms (got %d, errno %d)", (unsigned long)dt, r, e);

    int t = ThreadCreate(name_waiter, NULL, stack_get(), TSTACK_SIZE, 110, 0);   // waits
    ThreadSleep(10 * 1000000ull);
    int still = waiter_coid == -2;
    name_attach_t *att = name_attach(NULL, "kt_wait", 0);
    ThreadJoin(t, NULL);
    CHECK(att && still && waiter_coid > 0 && waiter_ms >= 10,
          "name_open(NAME_FLAG_WAIT) waits for the server: the coid when it attaches the name, "
          "%lu ms later (coid %d, errno %d)", (unsigned long)waiter_ms, waiter_coid, waiter_errno);
    struct kpulse p = { 0, 0, 0, 0 };
    int sent = MsgSendPulse(waiter_coid, KTEST_PRIO, 3, 33);
    r = att && sent == 0 ? MsgReceive(att->chid, &p, sizeof(p), NULL) : -1;
    CHECK(sent == 0 && r == 0 && p.code == 3 && p.value == 33,
          "the connection it got reaches the named channel (pulse code %ld)", (long)p.code);
    name_close(waiter_coid);
    if (att)
        name_detach(att, 0);
    CHECK_ERR(name_open("kt_wait", 0), ENOENT);
}

void test_ipc(void)
{
    printf("# message passing\n");
    local_round_trips();
    channel_destroyed_under_sender();
    cross_process();
    small_receive_buffer();
    name_open_waits();
}
