// SPDX-License-Identifier: MIT
// relay: a client waits on a server that waits on a mutex a third thread holds: the chain
// send -> server -> mutex -> holder, each wait measured by the program on its own clock, for
// the wait-chain analysis to be held against (docs/waits.md).
//
//   thread   prio  does
//   main      8    the holder: ROUNDS times, at its timer's pulse (every ROUND_US), takes the
//                  mutex `ledger`, works HOLD_US, gives it back
//   client   15    ROUNDS times, at its timer's pulse (every ROUND_US, LAG_US after the
//                  holder's), sends the server a message and waits for the reply
//   server   12    receives each message, takes `ledger` (waiting while the holder has it),
//                  gives it back, replies
//
// Every thread runs on CPU 0 only (ThreadCtl KTCTL_RUNMASK). The client's send comes while
// the holder holds the mutex, so the client waits for the server, which waits for the
// holder (inheriting, the holder runs at the client's priority). Each round the program
// measures with ClockCycles the client's wait (around MsgSend) and the server's (around
// MutexLock), and prints them at the end with the ids:
//   relay: round K send S client_wait C server_wait W    (cycles)
//   relay: mutex M client C server S holder H rounds R
// which test/qemu/test_tasks.sh compares with the wait chains of kevstat, kevsql and the report.
#include <kern.h>
#include <stdio.h>

#include <busy.h>

#define ROUNDS   6u
#define ROUND_US 10000u
#define FIRST_US 5000u
#define LAG_US   1000u
#define HOLD_US  4000u

static int ledger, chid;
static uint32_t loops_per_ms, cps;
static uint64_t send_t[ROUNDS], client_wait[ROUNDS], server_wait[ROUNDS];
static KSTACK(stk_client, 1024);
static KSTACK(stk_server, 1024);

// A timer (*timer) on a channel of its own (returned), first expiry after first_us, then every
// ROUND_US.
static int timer_chan(uint32_t first_us, int *timer)
{
    int c = ChannelCreate(0);
    *timer = c < 0 ? -1 : TimerCreate(ConnectAttach(0, c), 1, 0);
    if (*timer < 0 || TimerSettime(*timer, first_us, ROUND_US))
        return -1;
    return c;
}

static int tick(int c)
{
    struct kpulse p;
    return MsgReceive(c, &p, sizeof(p), NULL) == 0 ? 0 : -1;
}

static int server(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    for (unsigned k = 0;; k++) {
        union {
            uint32_t m;
            struct kpulse p;            // the smallest buffer a receive takes
        } u;
        int rcvid = MsgReceive(chid, &u, sizeof(u), NULL);
        if (rcvid <= 0)
            return 1;
        if (u.m == 0)
            return MsgReply(rcvid, 0, NULL, 0) != 0;
        uint64_t t0 = ClockCycles();
        if (MutexLock(ledger))
            return 1;
        if (k < ROUNDS)
            server_wait[k] = ClockCycles() - t0;
        if (MutexUnlock(ledger) || MsgReply(rcvid, 0, NULL, 0))
            return 1;
    }
}

static int client(void *arg)
{
    (void)arg;
    int coid = ConnectAttach(0, chid);
    if (busy_on_cpu0() || coid < 0)
        return 1;
    // its own timer (a timer's pulse carries its creator's priority, which the receiver takes),
    // armed as it starts, before main arms the holder's: LAG_US after it
    int timer, c = timer_chan(FIRST_US + LAG_US, &timer);
    if (c < 0)
        return 1;
    uint32_t m = 1;
    for (unsigned k = 0; k < ROUNDS; k++) {
        if (tick(c))
            return 1;
        uint64_t t0 = ClockCycles();
        if (MsgSend(coid, &m, sizeof(m), NULL, 0))
            return 1;
        send_t[k] = t0;
        client_wait[k] = ClockCycles() - t0;
    }
    TimerDestroy(timer);
    m = 0;
    return MsgSend(coid, &m, sizeof(m), NULL, 0) != 0;
}

int main(void)
{
    int st, bad = 0;
    cps = ClockCyclesPerSec();
    ledger = MutexCreate();
    chid = ChannelCreate(0);
    if (busy_on_cpu0() || ledger < 0 || chid < 0) {
        printf("relay: set-up failed\n");
        return 1;
    }
    loops_per_ms = busy_calibrate(cps);
    int ts = ThreadCreate(server, NULL, stk_server, sizeof(stk_server), 12, 0);
    ThreadName(ts, "server");
    int tk = ThreadCreate(client, NULL, stk_client, sizeof(stk_client), 15, 0);
    ThreadName(tk, "client");
    // the client (above main) has armed its timer: the holder's now, LAG_US before it
    int timer, c = timer_chan(FIRST_US, &timer);
    if (ts < 0 || tk < 0 || c < 0) {
        printf("relay: thread creation failed\n");
        return 1;
    }
    for (unsigned k = 0; k < ROUNDS && !bad; k++) {
        if (tick(c) || MutexLock(ledger))
            bad = 1;
        busy_us(loops_per_ms, HOLD_US);
        if (MutexUnlock(ledger))
            bad = 1;
    }
    TimerDestroy(timer);
    ThreadJoin(tk, &st), bad |= st;
    ThreadJoin(ts, &st), bad |= st;
    for (unsigned k = 0; k < ROUNDS; k++) {
        printf("relay: round %u send %s", k, u64txt(send_t[k]).s);
        printf(" client_wait %s", u64txt(client_wait[k]).s);
        printf(" server_wait %s\n", u64txt(server_wait[k]).s);
    }
    printf("relay: mutex %d client %d server %d holder %d rounds %u cps %lu\n", ledger, tk, ts,
           ThreadSelf(), ROUNDS, (unsigned long)cps);
    printf("relay: done, %s\n", bad ? "FAILED" : "ok");
    return bad != 0;
}
