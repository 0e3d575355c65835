// SPDX-License-Identifier: MIT
// cadence: a periodic task with overruns it programs itself, and the truth of every job
// measured by the program on its own clock, for the task-instance analysis to be held against
// (docs/analysis.md, "Task instances").
//
//   thread   prio  does
//   clock    220   a timer every PERIOD_US: at each expiry reads ClockCycles (the job's
//                  release), keeps it, and sends the worker a pulse carrying the job's number
//   worker   210   JOBS jobs: receives the pulse, works WORK_US (OVER_US in the jobs listed in
//                  `overrun`: longer than the period, so the next pulse comes while it still
//                  works and waits for it, queued), reads ClockCycles before its next receive
//                  (the job's end); after the last it waits in that receive until the end
//
// main (230 to make them, then 200, below them) waits for the clock and for the worker's last job, then prints.
// Both run on CPU 0 only (ThreadCtl KTCTL_RUNMASK), so the scenario is the same on one CPU or
// four, and above the tracelogger (200): nothing but an interrupt comes between a clock read
// and the kernel call after it, so the program's times and the trace's differ by that path alone. A job's response time is its end - its release; it missed when that is longer than
// the period (its deadline). The work is a calibrated loop, not a clock read (on the Cortex-M
// ClockCycles is a kernel call, traced). At the end the program prints every job:
//   cadence: job K release R end E              (cycles since boot)
// and its summary:
//   cadence: worker W clock C period_us P jobs J overruns N misses M cps HZ
// which test/qemu/test_tasks.sh compares with kevstat, kevsql and the report.
#include <kern.h>
#include <stdio.h>

#include <busy.h>

#define PERIOD_US 2000u
#define JOBS      40u
#define WORK_US   400u
#define OVER_US   2900u
#define MAIN_PRIO   200     // once it has made the others: a thread makes none above itself
#define CLOCK_PRIO  220
#define WORKER_PRIO 210
static const unsigned overrun[] = { 7, 19, 31 };
#define NOVER (sizeof(overrun) / sizeof(overrun[0]))

static int wchid, worker_coid, done;
static uint64_t release_t[JOBS], end_t[JOBS];
static uint32_t loops_per_ms, cps;
static KSTACK(stk_clock, 1024);
static KSTACK(stk_worker, 1024);

static int over(unsigned job)
{
    for (unsigned i = 0; i < NOVER; i++)
        if (overrun[i] == job)
            return 1;
    return 0;
}

static int clock_thread(void *arg)
{
    (void)arg;
    int chid = ChannelCreate(0);
    if (busy_on_cpu0() || chid < 0)
        return 1;
    int timer = TimerCreate(ConnectAttach(0, chid), 1, 0);
    if (timer < 0 || TimerSettime(timer, PERIOD_US, PERIOD_US))
        return 1;
    for (unsigned k = 0; k < JOBS; k++) {
        struct kpulse p;
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            return 1;
        release_t[k] = ClockCycles();
        if (MsgSendPulse(worker_coid, WORKER_PRIO, 2, (int)k))
            return 1;
    }
    TimerDestroy(timer);
    return 0;
}

static int worker(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    for (;;) {
        struct kpulse p;
        if (MsgReceive(wchid, &p, sizeof(p), NULL) != 0 || p.value < 0 || p.value >= (int)JOBS)
            return 1;
        unsigned k = (unsigned)p.value;
        busy_us(loops_per_ms, over(k) ? OVER_US : WORK_US);
        if (k == JOBS - 1 && SemPost(done))  // main, below, runs once this waits again
            return 1;
        end_t[k] = ClockCycles();
    }
}

int main(void)
{
    int st, bad = 0;
    cps = ClockCyclesPerSec();
    wchid = ChannelCreate(0);
    worker_coid = ConnectAttach(0, wchid);
    done = SemCreate(0);
    if (busy_on_cpu0() || wchid < 0 || worker_coid < 0 || done < 0) {
        printf("cadence: set-up failed\n");
        return 1;
    }
    loops_per_ms = busy_calibrate(cps);
    int tw = ThreadCreate(worker, NULL, stk_worker, sizeof(stk_worker), WORKER_PRIO, 0);
    ThreadName(tw, "worker");
    int tc = ThreadCreate(clock_thread, NULL, stk_clock, sizeof(stk_clock), CLOCK_PRIO, 0);
    ThreadName(tc, "clock");
    if (tw < 0 || tc < 0 || ThreadSetPrio(0, MAIN_PRIO, 0)) {
        printf("cadence: thread creation failed\n");
        return 1;
    }
    // The worker, done, posts `done` and waits in its receive for a job that never comes (its
    // last instance ends there, as every other does: main is below it); main's return ends it.
    ThreadJoin(tc, &st), bad |= st;
    if (SemWait(done))
        bad = 1;
    unsigned misses = 0;
    uint64_t period = (uint64_t)PERIOD_US * cps / 1000000u;
    for (unsigned k = 0; k < JOBS; k++) {
        misses += end_t[k] - release_t[k] > period;
        printf("cadence: job %u release %s", k, u64txt(release_t[k]).s);
        printf(" end %s\n", u64txt(end_t[k]).s);
    }
    printf("cadence: worker %d clock %d period_us %u jobs %u overruns %u misses %u cps %lu\n",
           tw, tc, PERIOD_US, JOBS, (unsigned)NOVER, misses, (unsigned long)cps);
    printf("cadence: done, %s\n", bad ? "FAILED" : "ok");
    return bad != 0;
}
