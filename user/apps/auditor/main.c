// SPDX-License-Identifier: MIT
// auditor: who blocked whom, and why a priority changed, with the truth counted by the program
// itself for the analysis tools to be held against (docs/waits.md).
//
//   thread     prio  does
//   auditor     10   ROUNDS times: takes the mutex `books`, works HOLD_SPIN loops, gives it
//                    back, sleeps AUDIT_GAP_NS
//   consumer    30   ROUNDS times: sleeps PERIOD_NS, then takes `books` (a short use): when
//                    the auditor holds it, it waits, and the auditor inherits 30 (a boost)
//   server      20   replies to every message at once
//   client      35   sends UP_SENDS messages (the server takes its 35: message inheritance
//                    up), lowers itself to 5 (its own change), sends DOWN_SENDS (the server
//                    takes its 5: message inheritance down)
//
// Every thread runs on CPU 0 only (ThreadCtl KTCTL_RUNMASK, its first act), so the consumer
// (30) always preempts the auditor (10) and finds the mutex held whenever the auditor is
// inside its hold: the scenario is the same on one CPU or four. The consumer measures each
// wait on its own (ClockCycles around MutexLock, no trace involved) and counts the waits it
// found the mutex held for; at the end the program prints, with the threads' and mutex's ids:
//   auditor: mutex M consumer C auditor A waits N total_us T worst_us W over_100us K over_50us J
//   auditor: server S client C up U down D own 1
// which test/qemu/test_auditor.sh compares with kevstat's and kevreport's findings.
#include <kern.h>
#include <stdio.h>

#include <busy.h>

#define ROUNDS       24u
#define PERIOD_NS    5000000u   // the consumer's sleep between two uses of the mutex
#define AUDIT_GAP_NS 1000000u   // the auditor's sleep between two holds
#define HOLD_SPIN    400000u    // the auditor's work while it holds the mutex (loop iterations)
#define UP_SENDS     20u
#define DOWN_SENDS   15u

static int books, chid;
static volatile int held, stopping;
static uint32_t waits, over_100us, over_50us;
static uint64_t wait_total, wait_worst, cps;
static KSTACK(stk_auditor, 1024);
static KSTACK(stk_consumer, 1024);
static KSTACK(stk_server, 1024);
static KSTACK(stk_client, 1024);

static uint64_t us(uint64_t cycles)
{
    return cycles * 1000000u / cps;
}

static int auditor(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    for (unsigned i = 0; i < ROUNDS; i++) {
        if (MutexLock(books))
            return 1;
        held = 1;
        busy_spin(HOLD_SPIN);
        held = 0;
        if (MutexUnlock(books))
            return 1;
        ThreadSleep(AUDIT_GAP_NS);
    }
    return 0;
}

static int consumer(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    for (unsigned i = 0; i < ROUNDS; i++) {
        ThreadSleep(PERIOD_NS);
        int was_held = held;            // on CPU 0 the auditor cannot change it meanwhile
        uint64_t t0 = ClockCycles();
        if (MutexLock(books))
            return 1;
        uint64_t d = ClockCycles() - t0;
        if (MutexUnlock(books))
            return 1;
        if (!was_held)
            continue;
        waits++;
        wait_total += d;
        if (d > wait_worst)
            wait_worst = d;
        over_100us += us(d) >= 100;
        over_50us += us(d) >= 50;
    }
    return 0;
}

static int server(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    for (;;) {
        union {
            uint32_t m;
            struct kpulse p;            // the smallest buffer a receive takes
        } u;
        int rcvid = MsgReceive(chid, &u, sizeof(u), NULL);
        if (rcvid < 0)
            return 1;
        if (rcvid == 0)
            continue;                   // a pulse: none is sent
        if (MsgReply(rcvid, 0, NULL, 0))
            return 1;
        if (u.m == 0)
            return 0;
    }
}

static int client(void *arg)
{
    (void)arg;
    int coid = ConnectAttach(0, chid);
    if (busy_on_cpu0() || coid < 0)
        return 1;
    uint32_t m = 1;
    for (unsigned i = 0; i < UP_SENDS; i++)
        if (MsgSend(coid, &m, sizeof(m), NULL, 0))
            return 1;
    if (ThreadSetPrio(0, 5, 0))
        return 1;
    for (unsigned i = 0; i < DOWN_SENDS; i++)
        if (MsgSend(coid, &m, sizeof(m), NULL, 0))
            return 1;
    m = 0;                              // the server's last message, counted down too
    return MsgSend(coid, &m, sizeof(m), NULL, 0) != 0;
}

int main(void)
{
    int st, bad = 0;
    cps = ClockCyclesPerSec();
    books = MutexCreate();
    chid = ChannelCreate(0);
    if (busy_on_cpu0() || books < 0 || chid < 0) {
        printf("auditor: set-up failed\n");
        return 1;
    }
    int ts = ThreadCreate(server, NULL, stk_server, sizeof(stk_server), 20, 0);
    ThreadName(ts, "server");
    int ta = ThreadCreate(auditor, NULL, stk_auditor, sizeof(stk_auditor), 10, 0);
    ThreadName(ta, "auditor");
    int tc = ThreadCreate(consumer, NULL, stk_consumer, sizeof(stk_consumer), 30, 0);
    ThreadName(tc, "consumer");
    int tk = ThreadCreate(client, NULL, stk_client, sizeof(stk_client), 35, 0);
    ThreadName(tk, "client");
    if (ts < 0 || ta < 0 || tc < 0 || tk < 0) {
        printf("auditor: thread creation failed\n");
        return 1;
    }
    ThreadJoin(tk, &st), bad |= st;
    ThreadJoin(ts, &st), bad |= st;
    ThreadJoin(tc, &st), bad |= st;
    ThreadJoin(ta, &st), bad |= st;
    printf("auditor: mutex %d consumer %d auditor %d waits %lu total_us %lu worst_us %lu "
           "over_100us %lu over_50us %lu\n", books, tc, ta, (unsigned long)waits,
           (unsigned long)us(wait_total), (unsigned long)us(wait_worst),
           (unsigned long)over_100us, (unsigned long)over_50us);
    printf("auditor: server %d client %d up %u down %u own 1\n", ts, tk, UP_SENDS,
           DOWN_SENDS + 1u);
    printf("auditor: done, %s\n", bad ? "FAILED" : "ok");
    return bad != 0;
}
