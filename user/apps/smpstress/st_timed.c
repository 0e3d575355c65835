// SPDX-License-Identifier: MIT
// smpstress's test 12: calls with a timeout (TimerTimeout) run on the big-reader lock's shared
// side like the same calls without one (the timer list has a lock of its own: ktimer.c), and
// the timeouts still end the calls they bound. Two threads, one bound to CPU 1, one to CPU 2:
//   a. ROUNDS message round trips, then ROUNDS with TimerTimeout(1 s) before each MsgSend and
//      MsgReceive (the program, on CPU 1, sends; a server on CPU 2 receives); the kernel's count of exclusive entries (SysInfo) is read around each run:
//      the timed run may take at most ROUNDS / 8 more than the untimed one (the ticks' and the
//      CPUs' own), where a timed call going exclusive adds at least 2 a round;
//   b. the same for a semaphore ping-pong between the two CPUs (SemWait with a timeout);
//   c. TIMEOUTS sends with a 2 ms timeout to a server that receives and does not reply until
//      3 ms later: each MsgSend fails with ETIMEDOUT no sooner than 2 ms after it began, by
//      the generic timer's counter read from EL0 (board_clock.h, not the kernel's clock), and
//      each late reply is refused (ESRCH), never taken as the answer to a later request (a
//      send that times out while the server still holds the one before is never received:
//      the replies refused are counted against the requests the server received).
// The answers are the program's own: each round trip's reply is its request's.
#include "st_timed.h"
#include "st_msg.h"
#include <kern.h>
#include <board_clock.h>
#include <errno.h>
#include <stdio.h>

#define ROUNDS 400u
#define TIMEOUTS 10u
#define SEND_TIMEOUT_NS 2000000u
#define HOLD_NS 3000000u

static int tm_chid, tm_sem[2];
static volatile uint32_t tm_bad, tm_timed, tm_mode, tm_held, tm_late_refused;
enum { MODE_REPLY, MODE_SEM, MODE_HOLD };

static void maybe_timeout(void)
{
    if (tm_timed)
        TimerTimeout(1000000000);
}

// CPU 2: answers requests (each request's own answer), or in MODE_SEM plays the other side of
// the ping-pong, or in MODE_HOLD answers each request 3 ms late.
static int tm_server(void *arg)
{
    (void)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)4u);
    for (;;) {
        union request rq = { 0 };
        maybe_timeout();
        int rcvid = MsgReceive(tm_chid, &rq, sizeof(rq), NULL);
        if (rcvid <= 0) {
            tm_bad++;
            continue;
        }
        uint32_t v = rq.v, answer = v * 3u + 1u;
        if (v && tm_mode == MODE_SEM) {     // a round of the ping-pong per request
            MsgReply(rcvid, 0, &answer, sizeof(answer));
            for (uint32_t i = 0; i < ROUNDS; i++) {
                maybe_timeout();
                if (SemWait(tm_sem[0]) != 0 || SemPost(tm_sem[1]) != 0)
                    tm_bad++;
            }
            continue;
        }
        if (v && tm_mode == MODE_HOLD) {
            ThreadSleep(HOLD_NS);
            tm_held++;
            tm_late_refused += MsgReply_r(rcvid, 0, &answer, sizeof(answer)) == -ESRCH;
            continue;
        }
        MsgReply(rcvid, 0, &answer, sizeof(answer));
        if (!v)
            return 0;
    }
}

static uint32_t message_run(int coid, bool timed)
{
    tm_timed = timed;
    uint32_t e0 = exclusive_entries();
    for (uint32_t v = 1; v <= ROUNDS; v++) {
        uint32_t answer = 0;
        maybe_timeout();
        if (MsgSend_r(coid, &v, sizeof(v), &answer, sizeof(answer)) != 0 || answer != v * 3u + 1u)
            tm_bad++;
    }
    return exclusive_entries() - e0;
}

static uint32_t sem_run(int coid, bool timed)
{
    tm_timed = timed;
    tm_mode = MODE_SEM;
    uint32_t one = 1, answer = 0;
    if (MsgSend_r(coid, &one, sizeof(one), &answer, sizeof(answer)) != 0)
        tm_bad++;
    uint32_t e0 = exclusive_entries();
    for (uint32_t i = 0; i < ROUNDS; i++) {
        if (SemPost(tm_sem[0]) != 0)
            tm_bad++;
        maybe_timeout();
        if (SemWait(tm_sem[1]) != 0)
            tm_bad++;
    }
    uint32_t e = exclusive_entries() - e0;
    tm_mode = MODE_REPLY;
    return e;
}

// Part c: the sends that must time out; how many did, each no sooner than its timeout.
static uint32_t timeouts_run(int coid, uint32_t *early)
{
    uint64_t hz = ClockCyclesPerSec(), min = SEND_TIMEOUT_NS * hz / 1000000000u;
    uint32_t timed_out = 0;
    tm_timed = 0;
    tm_mode = MODE_HOLD;
    for (uint32_t v = 1; v <= TIMEOUTS; v++) {
        uint32_t answer = 0;
        uint64_t t0 = board_cntvct();
        TimerTimeout(SEND_TIMEOUT_NS);
        int32_t r = MsgSend_r(coid, &v, sizeof(v), &answer, sizeof(answer));
        uint64_t took = board_cntvct() - t0;
        timed_out += r == -ETIMEDOUT;
        *early += r == -ETIMEDOUT && took < min;
        if (r != -ETIMEDOUT)
            printf("# timed send %lu returned %ld (answer %lu)\n", (unsigned long)v, (long)r,
                   (unsigned long)answer);
    }
    ThreadSleep(2 * HOLD_NS);       // the last late reply, refused
    tm_mode = MODE_REPLY;
    return timed_out;
}

bool timed_test(uint32_t ncpu, unsigned testno, void *stack, size_t stack_size,
                bool virtual_time)
{
    if (ncpu < 3) {
        printf("ok %u - # SKIP calls with a timeout on the shared side: fewer than 3 CPUs\n",
               testno);
        return true;
    }
    ThreadCtl(KTCTL_RUNMASK, (void *)2u);
    tm_chid = ChannelCreate(0);
    tm_sem[0] = SemCreate(0);
    tm_sem[1] = SemCreate(0);
    int tid = ThreadCreate(tm_server, NULL, stack, stack_size, 60, 0);
    int coid = ConnectAttach(0, tm_chid);
    uint32_t msg_plain = message_run(coid, false), msg_timed = message_run(coid, true);
    uint32_t sem_plain = sem_run(coid, false), sem_timed = sem_run(coid, true);
    uint32_t early = 0, timed_out = timeouts_run(coid, &early);
    uint32_t quit = 0, answer;
    tm_timed = 0;
    MsgSend(coid, &quit, sizeof(quit), &answer, sizeof(answer));
    bool joined = tid > 0 && ThreadJoin(tid, NULL) == 0;
    ConnectDetach(coid);
    ChannelDestroy(tm_chid);
    SemDestroy(tm_sem[0]);
    SemDestroy(tm_sem[1]);
    ThreadCtl(KTCTL_RUNMASK, (void *)1u);
    bool counts_ok = !virtual_time || (msg_timed <= msg_plain + ROUNDS / 8u &&
                                       sem_timed <= sem_plain + ROUNDS / 8u);
    bool ok = joined && !tm_bad && counts_ok && timed_out == TIMEOUTS && !early &&
              tm_held && tm_late_refused == tm_held;
    printf("%s %u - calls with a timeout on the shared side: %u round trips between CPUs 1 and "
           "2 took %lu exclusive entries untimed, %lu timed; %u semaphore rounds %lu and %lu "
           "(at most %u more allowed); %lu of %u sends timed out (%lu sooner than 2 ms by the "
           "counter), %lu of %lu late replies refused; %lu answers wrong\n", ok ? "ok" : "not ok",
           testno, ROUNDS, (unsigned long)msg_plain, (unsigned long)msg_timed, ROUNDS,
           (unsigned long)sem_plain, (unsigned long)sem_timed, ROUNDS / 8u,
           (unsigned long)timed_out, TIMEOUTS, (unsigned long)early,
           (unsigned long)tm_late_refused, (unsigned long)tm_held, (unsigned long)tm_bad);
    return ok;
}
