// SPDX-License-Identifier: MIT
// kevscen's "sync" scenario: who blocked whom, with answers known in advance (1 MHz clock:
// one cycle is one microsecond; one CPU). Every round of SP cycles at T:
//   * logger (prio 10) takes semaphore 3 and mutex 7 (no inheritance) and is preempted by
//     noise (15); client (25) sends to filter (20), which blocks on semaphore 3 at T+150;
//     ctl (30) runs and blocks on mutex 7 at T+160; noise then runs NZ cycles while logger,
//     preempted, holds both: two priority inversions of NZ each (filter and ctl behind
//     logger, preempted by noise). logger unlocks mutex 7 at T+2200, posts semaphore 3 at
//     T+2300; filter replies at T+2310: the client's request is 2200 cycles, of which filter
//     is blocked 2150 on semaphore 3 held by logger.
//   * at T+5000 logger takes mutex 8 (with inheritance); ctl blocks on it at T+5100 and
//     logger is boosted to 30 (PRIO_CHANGE cause 2 with events, else its wide state events
//     carry 30) so noise cannot preempt it: no inversion, one boost.
//   * at T+6000 logger takes mutex 9 (no inheritance); ctl blocks on it at T+6100; two middle
//     threads take turns in logger's place: spool (18) runs S1 cycles, noise NZ2, spool S2,
//     then logger unlocks at T+8000. One inversion of NZ2 + S1 + S2 whose shares are noise's
//     NZ2 (the largest, though spool preempted first) and spool's S1 + S2.
// After the rounds, a and b (12) take mutexes 1 and 2, then each locks the other's: an ABBA
// deadlock, closed when b blocks at D+200 ("b waits on mutex 1 held by a, which waits on
// mutex 2 held by b"). With the timeout variant b's MutexLock fails with ETIMEDOUT at D+1200
// and the cycle is broken there (a stays blocked).
#include "kevscen.h"

#include <stdio.h>

#include <trace/kev_userreg.h>
#include <uapi/kcall.h>

#define SP 10000u
#define NZ 2000u
#define ETIMEDOUT_ 116
#define S1 500u   // spool's first run in mutex 9's inversion
#define NZ2 1000u // noise's run there
#define S2 300u   // spool's second run

enum { IDLE = 1, CTL, FILTER, NOISE, LOGGER, CLIENT, A, B, SPOOL };
const char *const sync_pname[] = { "", "procnto", "ctl", "filter", "noise", "logger",
                                   "client", "a", "b", "spool" };
const char *const sync_tname[] = { "", "idle", "main", "main", "main", "main", "main", "main",
                                   "main", "main" };
const uint32_t sync_prio[] = { 0, 0, 30, 20, 15, 10, 25, 12, 12, 18 };
const unsigned sync_nproc = 9;

#define WHO(pid) ((uint32_t)(pid) << 16 | 1u)

// A state event with an explicit priority (a boosted thread's).
static void thp(unsigned state, unsigned pid, uint32_t prio)
{
    uint32_t w[4] = { pid, 1, prio, 2 };
    if (state == KEV_TH_RUNNING)
        trace_ring_set_current(&ring, pid, 1);
    trace_emit_words(&ring, KEV_C_PR_TH, state, w, 4);
    emitted++;
}

static void sync_wait(int events, uint32_t obj, unsigned owner)
{
    if (events)
        ev(KEV_C_SYSTEM, 0x203u, obj, owner ? WHO(owner) : 0);
}

static void prio_change(int events, unsigned pid, unsigned nw, unsigned old, unsigned cause)
{
    if (events)
        ev(KEV_C_SYSTEM, 0x204u, WHO(pid), nw | old << 8 | cause << 16);
}

// logger names its user event 101 and its format (the registry: trace/kev_userreg.h), then
// logs [NZ, 2150] with it every round: the tools show "wait_report: noise ran 2000 us ...".
#define UEV 101u
static const char ureg_text[] = "101 wait_report noise ran %u us while filter waited %u us";

// At t logger unlocks mutex obj, which ctl, waiting on it, is handed: ctl runs, unlocks it
// 10 cycles later and sleeps; logger returns from its unlock.
static void unlock_to_ctl(uint64_t t, uint32_t obj)
{
    at(t), kc_in(KC_MutexUnlock, obj);
    th(KEV_TH_READY, CTL), th(KEV_TH_READY, LOGGER), th(KEV_TH_RUNNING, CTL);
    kc_out(KC_MutexLock, 0);
    at(t + 10), kc_in(KC_MutexUnlock, obj), kc_out(KC_MutexUnlock, 0);
    kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, CTL);
    th(KEV_TH_RUNNING, LOGGER), kc_out(KC_MutexUnlock, 0);
}

void sync_round(uint64_t T, int events)
{
    at(T), th(KEV_TH_RUNNING, LOGGER);
    if (T == 2000) {
        trace_emit_string(&ring, KEV_C_USER, KEV_USER_REGISTRY, NULL, 0, ureg_text);
        emitted++;
    }
    kc_in(KC_SemWait, 3), kc_out(KC_SemWait, 0);
    kc_in(KC_MutexLock, 7), kc_out(KC_MutexLock, 0);
    at(T + 100), th(KEV_TH_READY, NOISE), th(KEV_TH_READY, LOGGER), th(KEV_TH_RUNNING, NOISE);
    at(T + 110), th(KEV_TH_READY, CLIENT), th(KEV_TH_READY, NOISE), th(KEV_TH_RUNNING, CLIENT);
    kc_in(KC_MsgSend, 5);
    ev(KEV_C_COMM, KEV_COMM_SND_MESSAGE, 5, FILTER);
    th(KEV_TH_REPLY, CLIENT), th(KEV_TH_READY, FILTER);
    at(T + 120), th(KEV_TH_RUNNING, FILTER);
    ev(KEV_C_COMM, KEV_COMM_REC_MESSAGE, 1, CLIENT);
    kc_out(KC_MsgReceive, 1);
    at(T + 150), kc_in(KC_SemWait, 3), th(KEV_TH_SEM, FILTER), sync_wait(events, 3, LOGGER);
    th(KEV_TH_READY, CTL), th(KEV_TH_RUNNING, CTL);
    at(T + 160), kc_in(KC_MutexLock, 7), th(KEV_TH_MUTEX, CTL), sync_wait(events, 7, LOGGER);
    th(KEV_TH_RUNNING, NOISE);
    at(T + 160 + NZ), kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, NOISE);
    th(KEV_TH_RUNNING, LOGGER);
    unlock_to_ctl(T + 2200, 7);
    at(T + 2300), kc_in(KC_SemPost, 3);
    th(KEV_TH_READY, FILTER), th(KEV_TH_READY, LOGGER), th(KEV_TH_RUNNING, FILTER);
    kc_out(KC_SemWait, 0);
    at(T + 2310), kc_in(KC_MsgReply, 1);
    ev(KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, 1, CLIENT);
    th(KEV_TH_READY, CLIENT), th(KEV_TH_READY, FILTER), th(KEV_TH_RUNNING, CLIENT);
    kc_out(KC_MsgSend, 0);
    at(T + 2350), kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, CLIENT);
    th(KEV_TH_RUNNING, FILTER), kc_out(KC_MsgReply, 0);
    at(T + 2360), kc_in(KC_MsgReceive, 2), th(KEV_TH_RECEIVE, FILTER);
    th(KEV_TH_RUNNING, LOGGER), kc_out(KC_SemPost, 0);
    at(T + 2400), ev(KEV_C_USER, UEV, NZ, 2150);
    kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, LOGGER);
    th(KEV_TH_RUNNING, IDLE);

    // The mutex with inheritance: logger boosted while ctl waits; noise cannot preempt it.
    at(T + 5000), th(KEV_TH_RUNNING, LOGGER);
    kc_in(KC_MutexLock, 8), kc_out(KC_MutexLock, 0);
    at(T + 5100), th(KEV_TH_READY, CTL), th(KEV_TH_READY, NOISE), th(KEV_TH_READY, LOGGER);
    th(KEV_TH_RUNNING, CTL);
    kc_in(KC_MutexLock, 8), th(KEV_TH_MUTEX, CTL), sync_wait(events, 8, LOGGER);
    prio_change(events, LOGGER, 30, 10, 2);
    thp(KEV_TH_RUNNING, LOGGER, 30);
    at(T + 5200), kc_in(KC_MutexUnlock, 8), prio_change(events, LOGGER, 10, 30, 4);
    th(KEV_TH_READY, CTL), thp(KEV_TH_READY, LOGGER, 10), th(KEV_TH_RUNNING, CTL);
    kc_out(KC_MutexLock, 0);
    at(T + 5210), kc_in(KC_MutexUnlock, 8), kc_out(KC_MutexUnlock, 0);
    kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, CTL);
    th(KEV_TH_RUNNING, NOISE);
    at(T + 5300), kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, NOISE);
    th(KEV_TH_RUNNING, LOGGER), kc_out(KC_MutexUnlock, 0);
    at(T + 5310), kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, LOGGER);
    th(KEV_TH_RUNNING, IDLE);

    // Two middle threads in turn: spool, noise, spool again, while ctl waits on mutex 9.
    at(T + 6000), th(KEV_TH_RUNNING, LOGGER);
    kc_in(KC_MutexLock, 9), kc_out(KC_MutexLock, 0);
    at(T + 6100), th(KEV_TH_READY, CTL), th(KEV_TH_READY, LOGGER), th(KEV_TH_RUNNING, CTL);
    kc_in(KC_MutexLock, 9), th(KEV_TH_MUTEX, CTL), sync_wait(events, 9, LOGGER);
    th(KEV_TH_READY, SPOOL), th(KEV_TH_RUNNING, SPOOL);
    at(T + 6100 + S1), kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, SPOOL);
    th(KEV_TH_READY, NOISE), th(KEV_TH_RUNNING, NOISE);
    at(T + 6100 + S1 + NZ2), th(KEV_TH_READY, SPOOL), th(KEV_TH_READY, NOISE);
    th(KEV_TH_RUNNING, SPOOL);
    at(T + 6100 + S1 + NZ2 + S2), kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, SPOOL);
    th(KEV_TH_RUNNING, NOISE);
    kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, NOISE);
    th(KEV_TH_RUNNING, LOGGER);
    unlock_to_ctl(T + 8000, 9);
    at(T + 8020), kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, LOGGER);
    th(KEV_TH_RUNNING, IDLE);
}

void sync_deadlock(uint64_t D, int events, int timeout)
{
    at(D), th(KEV_TH_RUNNING, A);
    kc_in(KC_MutexLock, 1), kc_out(KC_MutexLock, 0);
    kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, A);
    th(KEV_TH_RUNNING, B);
    kc_in(KC_MutexLock, 2), kc_out(KC_MutexLock, 0);
    at(D + 100), th(KEV_TH_READY, A), th(KEV_TH_READY, B), th(KEV_TH_RUNNING, A);
    kc_out(KC_ThreadSleep, 0);
    kc_in(KC_MutexLock, 2), th(KEV_TH_MUTEX, A), sync_wait(events, 2, B);
    th(KEV_TH_RUNNING, B);
    at(D + 200), kc_in(KC_MutexLock, 1), th(KEV_TH_MUTEX, B), sync_wait(events, 1, A);
    th(KEV_TH_RUNNING, IDLE);
    if (!timeout)
        return;
    at(D + 1200), th(KEV_TH_READY, B), th(KEV_TH_RUNNING, B);
    kc_out(KC_MutexLock, -ETIMEDOUT_);
    kc_in(KC_ThreadSleep, 1), th(KEV_TH_NANOSLEEP, B);
    th(KEV_TH_RUNNING, IDLE);
}

// Results from the script's own numbers (times in microseconds since boot; T0 the first
// round's start, D the deadlock's).
void sync_expect(unsigned rounds, int events, int timeout)
{
    const uint64_t T0 = 2000, D = T0 + (uint64_t)rounds * SP;
    printf("expect inversion ctl/main mutex 7 logger/main noise/main %llu %u\n",
           (unsigned long long)rounds * NZ, rounds);
    printf("expect inversion filter/main semaphore 3 logger/main noise/main %llu %u\n",
           (unsigned long long)rounds * NZ, rounds);
    // the largest middle thread first ("inversion": the one a single-name consumer shows),
    // then every middle thread with its share
    printf("expect inversion ctl/main mutex 9 logger/main noise/main %llu %u\n",
           (unsigned long long)rounds * (NZ2 + S1 + S2), rounds);
    printf("expect middles ctl/main mutex 9 noise/main %llu spool/main %llu\n",
           (unsigned long long)rounds * NZ2, (unsigned long long)rounds * (S1 + S2));
    printf("expect inversions 3\n");
    printf("expect user %u %u wait_report noise ran %u us while filter waited 2150 us\n", UEV,
           rounds, NZ);
    printf("expect noise_run %llu %llu\n", (unsigned long long)T0 + 160,
           (unsigned long long)T0 + 160 + NZ); // the first round's: noise alone on the CPU
    // (without PRIO_CHANGE: from logger's wide state events, which carry the boosted 30)
    (void)events;
    printf("expect boosts logger/main %u\n", rounds);
    printf("expect request 2200 filter/main blocked 2150 semaphore 3 logger/main\n");
    printf("expect deadlock %llu b/main waits on mutex 1 held by a/main, which waits on "
           "mutex 2 held by b/main\n", (unsigned long long)D + 200);
    if (timeout)
        printf("expect broken %llu\n", (unsigned long long)D + 1200);
    else
        printf("expect open\n");
    // Every wait, in the order they end: "wait T WHO STATE US OBJECT N OWNER" (US -1: still
    // waiting at the end of the trace).
    printf("expect waits %u\n", 4 * rounds + 2);
    for (unsigned r = 0; r < rounds; r++) {
        uint64_t T = T0 + (uint64_t)r * SP;
        printf("expect wait %llu ctl/main MUTEX 2040 mutex 7 logger/main\n",
               (unsigned long long)T + 160);
        printf("expect wait %llu filter/main SEM 2150 semaphore 3 logger/main\n",
               (unsigned long long)T + 150);
        printf("expect wait %llu ctl/main MUTEX 100 mutex 8 logger/main\n",
               (unsigned long long)T + 5100);
        printf("expect wait %llu ctl/main MUTEX 1900 mutex 9 logger/main\n",
               (unsigned long long)T + 6100);
    }
    printf("expect wait %llu b/main MUTEX %d mutex 1 a/main\n", (unsigned long long)D + 200,
           timeout ? 1000 : -1);
    printf("expect wait %llu a/main MUTEX -1 mutex 2 b/main\n", (unsigned long long)D + 100);
}
