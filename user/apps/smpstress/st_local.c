// SPDX-License-Identifier: MIT
// smpstress's test 19: the calls that touch only their caller, the clock and the timer list
// (ClockTime, ClockCycles, ThreadSelf, ProcSelf, ThreadYield, the null call, and ThreadSleep),
// and TraceEvent's insert of a user event (this CPU's trace buffer), on every CPU at once, on
// the big lock's shared side (kernel/kentry_shared.h shared_local_call, shared_trace_insert).
// A thread bound to each of CPUs 1..n-1 makes LOCAL_ROUNDS rounds of the seven calls, and
// every LOCAL_SLEEP_EVERY-th round a ThreadSleep of LOCAL_SLEEP_NS. Each answer
// is checked against a truth of the program's own: ThreadSelf against what ThreadCreate
// returned to this thread, ProcSelf against this process's pid as main read it before,
// ClockCycles between two reads of the generic timer's counter from EL0 around it
// (board_clock.h, not the kernel's clock), ClockTime against the counter read just before and
// just after, converted at its frequency, and a sleep against the time asked (it may not end
// sooner, by the counter), and the insert answers 0. Under -icount the kernel's count of
// exclusive entries during the rounds stays within what the ticks and the threads' own start
// and end take: with the calls exclusive it would grow by seven a round on every CPU, with the
// sleeps alone exclusive by one a sleep, with the inserts alone by one a round: each path's
// own shared side is what the count checks.
#include "st_gang.h"
#include "st_local.h"
#include "st_msg.h"
#include <kern.h>
#include <board_clock.h>
#include <stdio.h>

#define LOCAL_ROUNDS 2000u
#define LOCAL_SLEEP_EVERY 100u
#define LOCAL_SLEEP_NS 1000u
#define LOCAL_MAXCPU 4
#define LOCAL_EVENT_CODE 419u     // the user event each round inserts (a = CPU, b = round)

struct local_worker {
    struct st_gang_thread g;    // (first: st_gang.h)
    uint32_t bad_self, bad_proc, bad_cycles, bad_time, bad_sleep, bad_insert;
    volatile uint32_t done;
};

static struct local_worker workers[LOCAL_MAXCPU];
static struct st_gang local_gang;
static int local_pid;
static uint32_t local_hz;

static uint64_t cntvct_ns(uint64_t c)
{
    return (c / local_hz) * 1000000000ull + (c % local_hz) * 1000000000ull / local_hz;
}

static int local_worker_main(void *arg)
{
    struct local_worker *w = arg;
    st_gang_wait(&local_gang, &w->g);
    for (uint32_t i = 0; i < LOCAL_ROUNDS; i++) {
        w->bad_self += ThreadSelf() != w->g.tid;
        w->bad_proc += ProcSelf() != local_pid;
        uint64_t c0 = board_cntvct();
        uint64_t cyc = ClockCycles();
        uint64_t c1 = board_cntvct();
        w->bad_cycles += cyc < c0 || cyc > c1;
        uint64_t n0 = cntvct_ns(board_cntvct());
        uint64_t ns = ClockTime();
        uint64_t n1 = cntvct_ns(board_cntvct());
        w->bad_time += ns < n0 || ns > n1;
        ThreadYield();
        KCALL0(KC_Null);
        // the kernel's insert itself (TraceEvent puts a 2-word event in the process's ring
        // when it can; the kernel's call is what C, string and QNX inserts make)
        w->bad_insert += KCALL4(KC_TraceEvent, KTRACE_INSERTSUSEREVENT, LOCAL_EVENT_CODE, w->g.cpu,
                                i) != 0;
        if (i % LOCAL_SLEEP_EVERY == 0) {
            uint64_t s0 = cntvct_ns(board_cntvct());
            w->bad_sleep += ThreadSleep(LOCAL_SLEEP_NS) != 0 ||
                            cntvct_ns(board_cntvct()) - s0 < LOCAL_SLEEP_NS;
        }
    }
    w->done = 1;
    return 0;
}

bool local_test(uint32_t ncpu, unsigned testno, void *stacks, uint32_t stack_size,
                bool virtual_time)
{
    uint32_t n = ncpu > LOCAL_MAXCPU ? LOCAL_MAXCPU : ncpu;
    local_pid = ProcSelf();
    local_hz = ClockCyclesPerSec();
    uint32_t started = st_gang_start(&local_gang, n, local_worker_main, workers,
                                     sizeof(workers[0]), stacks, stack_size);
    uint32_t t0 = 0, t1 = 0, e0 = 0;
    st_gang_go(&local_gang, &t0, &e0);
    uint32_t bad = 0, finished = 0, sleeps = 0;
    for (uint32_t c = 1; c < n; c++) {
        while (!workers[c].done) {
            ThreadSleep(200000);
            sleeps++;
        }
    }
    uint32_t e1 = exclusive_entries();
    SysInfo(KSYSINFO_TICKS, &t1);
    for (uint32_t c = 1; c < n; c++) {
        struct local_worker *w = &workers[c];
        finished += w->g.tid > 0 && ThreadJoin(w->g.tid, NULL) == 0;
        uint32_t wbad = w->bad_self + w->bad_proc + w->bad_cycles + w->bad_time + w->bad_sleep +
                        w->bad_insert;
        bad += wbad;
        if (wbad)
            printf("# CPU %lu: bad ThreadSelf %lu, ProcSelf %lu, ClockCycles %lu, ClockTime %lu, "
                   "ThreadSleep %lu, TraceEvent %lu\n", (unsigned long)c,
                   (unsigned long)w->bad_self, (unsigned long)w->bad_proc,
                   (unsigned long)w->bad_cycles, (unsigned long)w->bad_time,
                   (unsigned long)w->bad_sleep, (unsigned long)w->bad_insert);
    }
    uint32_t ticks = t1 - t0, entries = e1 - e0;
    // The ticks (a quarter more, as test 13: the sleeps end there), the threads' ends
    // (ThreadExit, which may come before the count is read), and 8 spare; main's sleeps, like
    // the workers', take none.
    uint32_t bound = ticks + ticks / 4u + 2u * (n - 1u) + 8u;
    uint32_t calls = (n - 1u) * (LOCAL_ROUNDS * 7u + LOCAL_ROUNDS / LOCAL_SLEEP_EVERY);
    bool ok = started == n - 1u && finished == started && !bad &&
              (!virtual_time || entries <= bound);
    printf("%s %u - ClockTime, ClockCycles, ThreadSelf, ProcSelf, ThreadYield, the null call, "
           "a user event's insert and ThreadSleep on CPUs 1..%lu at once (%lu calls): %lu answers wrong against the "
           "program's own truth and the counter; %lu exclusive entries in %lu ticks, main slept "
           "%lu times (at most %lu)%s\n",
           ok ? "ok" : "not ok", testno, (unsigned long)(n - 1u), (unsigned long)calls,
           (unsigned long)bad, (unsigned long)entries, (unsigned long)ticks,
           (unsigned long)sleeps, (unsigned long)bound,
           virtual_time ? "" : "; not checked: the host's clock");
    return ok;
}
