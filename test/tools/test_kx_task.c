// SPDX-License-Identifier: MIT
// Unit tests (cmocka, under ASan/UBSan) of the task-instance rule (tools/analysis/kx_task.c)
// over hand-built event sequences fed to the analyses (kx_stats.c), whose answers are written
// here from the schedule each test draws:
//   * a task released by a pulse a timer-released clock thread sends it (the timer relayed: its
//     period the clock's timer's interval), that sends to a server and waits for the reply
//     inside each job: one instance a period (not two), released at the pulse's send, its
//     reply wait counted blocked;
//   * an overrun: the next pulse comes while the task still works (queued), its next receive
//     does not block: the instance ends there, the next one was released at the pulse's send;
//     one miss, the late instance's successor on time;
//   * a sleeping task with a mutex wait inside its job (event-driven: no period inferred);
//     preemptions, execution and ready time;
//   * given deadlines and periods by the task's name (its program's, for a main thread);
//   * pulses the kernel dropped (its bound of 16 queued, or a receive that blocks with pulses
//     still pending; a timer's, which the kernel may say it dropped): missed periods, the
//     later jobs released at their own pulses;
//   * an instance the thread's death ends with no call to say where its job ended: its exit
//     path, no job; one whose job then makes a call its jobs never made (a join): the job
//     judged up to that call, the rest its exit path;
//   * a task released by messages, one by interrupt pulses every 20 with jobs of 30, beside a
//     loop its own timer releases: event-driven (no period from the gaps, no miss, named
//     without a deadline in the headline) and periodic (its timer's interval, its one miss);
//   * a job a window of lost events touches: not judged, the misses "at least";
//   * an instance still open at the end judged only when its (given) deadline passed;
//   * the emulator's part: a tick gap (two periods skipped) under QEMU's host clock, and a CPU
//     stalled while the other took its ticks under the exact mode on two CPUs: the time each
//     instance holds of them, a miss that time covers the emulator's, the others the program's,
//     the largest lateness the program's; none of it when the mode says the gap is the target's.
// Threads are pid N, tid 1; times are cycles of a 1 MHz clock (one a microsecond).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kevhost/kx_stats.h>
#include "kx_events.h"

enum { CLOCK = 2, TASK = 3, SRV = 4, HOG = 5 };

// Thread pid/1 enters state st at t (a wide event with its priority).
static void th(struct kx_stats *s, unsigned st, uint64_t t, uint32_t pid)
{
    kx_stats_event(s, mk(KEV_C_PR_TH, st, t, pid, 1, 10 * pid, 2, 4));
}

// A pulse of key `key` sent at t by the running thread.
static void pulse_send(struct kx_stats *s, uint64_t t, uint32_t key)
{
    kx_stats_event(s, mk(KEV_C_COMM, KEV_COMM_SND_PULSE, t, 1, key, 0, 0, 2));
}

// ... received by pid/1 at t (in the sender's context when it waited, in its own when it runs).
static void pulse_recv(struct kx_stats *s, uint64_t t, uint32_t key, uint32_t pid)
{
    kx_stats_event(s, mk(KEV_C_COMM, KEV_COMM_REC_PULSE, t, key, pid << 16 | 1u, 0, 0, 2));
}

static const struct kx_task *task(const struct kx_stats *s, uint32_t pid)
{
    int i = kx_thread((struct kx_model *)&s->m, pid, 1);
    const struct kx_task *t = kx_tasks_of(s->tasks, i);
    assert_non_null(t);
    return t;
}

// The instances of pid's task, in release order, into out (at most max); their count.
static unsigned insts(const struct kx_stats *s, uint32_t pid, const struct kx_inst **out,
                      unsigned max)
{
    int i = kx_thread((struct kx_model *)&s->m, pid, 1);
    unsigned n = 0;
    for (size_t j = 0; j < s->tasks->ninst && n < max; j++)
        if (s->tasks->inst[j].th == i)
            out[n++] = &s->tasks->inst[j];
    return n;
}

// The clock's timer (id 7, its process's) expires at t: the tick's interrupt, the TIMER event,
// its pulse handed over to CLOCK waiting in its receive: CLOCK's job is released by a timer.
static void clock_timer(struct kx_stats *s, uint64_t t)
{
    kx_stats_event(s, mk(KEV_C_INT, KEV_INT_ENTER, t, 0x100, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_SYSTEM, KEV_SYS_TIMER, t, 7, CLOCK, 0, 0, 2));
    pulse_send(s, t, 0x70001);                // (channel 7: not TASK's)
    pulse_recv(s, t, 0x70001, CLOCK);
    kx_stats_event(s, mk(KEV_C_INT, KEV_INT_EXIT, t, 0x100, 0, 0, 0, 2));
}

// One period P of the clock's job at base: its timer releases it, it sends TASK a pulse (TASK's
// jobs relay the clock's timer), waits again; TASK
// (waiting in its receive) runs, sends to SRV and waits for its reply, runs again and receives.
#define P 2000u
static void imu_period(struct kx_stats *s, uint64_t base, uint32_t key)
{
    clock_timer(s, base - 1);
    th(s, KEV_TH_READY, base, CLOCK);
    th(s, KEV_TH_RUNNING, base + 2, CLOCK);
    pulse_send(s, base + 10, key);
    pulse_recv(s, base + 10, key, TASK);      // TASK waits: handed over in the clock's context
    th(s, KEV_TH_READY, base + 11, TASK);
    th(s, KEV_TH_RECEIVE, base + 20, CLOCK);
    th(s, KEV_TH_RUNNING, base + 20, TASK);
    th(s, KEV_TH_REPLY, base + 100, TASK);    // its send: blocked inside the job
    th(s, KEV_TH_RUNNING, base + 100, SRV);
    th(s, KEV_TH_READY, base + 300, TASK);
    th(s, KEV_TH_RECEIVE, base + 300, SRV);
    th(s, KEV_TH_RUNNING, base + 300, TASK);
    th(s, KEV_TH_RECEIVE, base + 400, TASK);  // waits for the next pulse: the job ends
}

static void test_one_instance_a_period_with_a_send_inside(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RUNNING, 100, TASK);
    th(s, KEV_TH_RECEIVE, 500, TASK);         // its start-up: no instance
    th(s, KEV_TH_RECEIVE, 500, CLOCK);
    th(s, KEV_TH_RECEIVE, 500, SRV);
    for (unsigned k = 0; k < 5; k++)
        imu_period(s, 1000 + (uint64_t)k * P, 0x100);
    kx_stats_finish(s);
    const struct kx_inst *i[8];
    assert_int_equal(insts(s, TASK, i, 8), 5);
    for (unsigned k = 0; k < 5; k++) {
        uint64_t base = 1000 + (uint64_t)k * P;
        assert_int_equal(i[k]->release, base + 10);       // the pulse's send
        assert_int_equal(i[k]->start, base + 20);
        assert_int_equal(i[k]->end, base + 400);
        assert_int_equal(i[k]->exec, 80 + 100);
        assert_int_equal(i[k]->blocked, 200);              // its reply wait
        assert_int_equal(i[k]->ready, 9);
        assert_int_equal(i[k]->how, KX_REL_PULSE);
        assert_int_equal(i[k]->src, kx_thread(&s->m, CLOCK, 1));
        assert_int_equal(i[k]->missed, 0);
        assert_int_equal(i[k]->lateness, (int64_t)390 - (int64_t)P);
    }
    const struct kx_task *t = task(s, TASK);
    assert_int_equal(t->period, P);
    assert_int_equal(t->deadline, P);
    assert_int_equal(t->gap_min, P);
    assert_int_equal(t->gap_max, P);
    assert_int_equal(t->misses, 0);
    assert_int_equal(t->resp.max, 390);
    // the server is a task too (it waits in its receive): released at each wake-up
    assert_int_equal(task(s, SRV)->n, 5);
    kx_stats_free(s);
    free(s);
}

// Period 1 of three at T: the task works past the next pulse (queued), receives it without
// blocking at T + P + 1000, works 100 and waits.
static void test_overrun_queued_pulse(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RECEIVE, 500, TASK);
    th(s, KEV_TH_RECEIVE, 500, CLOCK);
    th(s, KEV_TH_RECEIVE, 500, SRV);
    imu_period(s, 1000, 0x100);
    uint64_t T = 1000 + P;
    clock_timer(s, T - 1);
    th(s, KEV_TH_READY, T, CLOCK);
    th(s, KEV_TH_RUNNING, T + 2, CLOCK);
    pulse_send(s, T + 10, 0x100);
    pulse_recv(s, T + 10, 0x100, TASK);
    th(s, KEV_TH_READY, T + 11, TASK);
    th(s, KEV_TH_RECEIVE, T + 20, CLOCK);
    th(s, KEV_TH_RUNNING, T + 20, TASK);      // works 3000: past the next pulse
    clock_timer(s, T + P - 1);
    th(s, KEV_TH_READY, T + P, CLOCK);
    th(s, KEV_TH_RUNNING, T + P + 2, CLOCK);  // the task switched out: preempted
    pulse_send(s, T + P + 10, 0x100);         // nobody waits: queued
    th(s, KEV_TH_RECEIVE, T + P + 20, CLOCK);
    th(s, KEV_TH_RUNNING, T + P + 20, TASK);
    pulse_recv(s, T + P + 1000, 0x100, TASK); // its receive finds the pulse: no wait
    th(s, KEV_TH_RECEIVE, T + P + 1100, TASK);
    imu_period(s, T + 2 * P, 0x100);
    kx_stats_finish(s);
    const struct kx_inst *i[8];
    assert_int_equal(insts(s, TASK, i, 8), 4);
    assert_int_equal(i[1]->release, T + 10);
    assert_int_equal(i[1]->end, T + P + 1000);
    assert_int_equal(i[1]->preempt, 1);
    assert_int_equal(i[1]->ready, 9 + 18);
    assert_int_equal(i[1]->missed, 1);
    assert_int_equal(i[1]->lateness, (int64_t)(P + 990 - P));
    assert_int_equal(i[2]->release, T + P + 10);        // the queued pulse's send
    assert_int_equal(i[2]->start, T + P + 1000);
    assert_int_equal(i[2]->end, T + P + 1100);
    assert_int_equal(i[2]->queued, 1);
    assert_int_equal(i[2]->missed, 0);
    assert_int_equal(i[3]->release, T + 2 * P + 10);
    const struct kx_task *t = task(s, TASK);
    assert_int_equal(t->period, P);
    assert_int_equal(t->misses, 1);
    assert_int_equal(t->late_max, 990);
    assert_int_equal(t->resp.max, P + 990);
    kx_stats_free(s);
    free(s);
}

// The clock preempts TASK (running) at t and sends it a pulse nobody waits for: queued, or
// dropped by the kernel when the clock's process already has 16 queued.
static void pulse_while_busy(struct kx_stats *s, uint64_t t, uint32_t key)
{
    clock_timer(s, t - 1);
    th(s, KEV_TH_READY, t, TASK);
    th(s, KEV_TH_RUNNING, t, CLOCK);
    pulse_send(s, t + 1, key);
    th(s, KEV_TH_RECEIVE, t + 2, CLOCK);
    th(s, KEV_TH_RUNNING, t + 2, TASK);
}

// TASK waits in its receive; the clock's pulse at t is handed over, TASK runs from t + 20.
static void pulse_handed(struct kx_stats *s, uint64_t t, uint32_t key)
{
    clock_timer(s, t - 1);
    th(s, KEV_TH_RUNNING, t, CLOCK);
    pulse_send(s, t + 10, key);
    pulse_recv(s, t + 10, key, TASK);
    th(s, KEV_TH_READY, t + 11, TASK);
    th(s, KEV_TH_RECEIVE, t + 20, CLOCK);
    th(s, KEV_TH_RUNNING, t + 20, TASK);
}

// TASK's job 0 works through 20 periods: the kernel queues the pulses of periods 1-16 and drops
// 17-20 (the clock's process holds 16). TASK then takes the 16 without blocking, 200 apart;
// period 21's pulse comes during that (queued: there is room again) and is the 17th it takes.
// Four missed periods, and the jobs after them released at their own pulses, not at the
// dropped ones (which the oldest-pending rule alone would give them).
static void test_dropped_pulses_missed_periods(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RECEIVE, 500, TASK);
    th(s, KEV_TH_RECEIVE, 500, CLOCK);
    pulse_handed(s, 1000, 0x100);
    for (unsigned k = 1; k <= 20; k++)
        pulse_while_busy(s, 1000 + (uint64_t)k * P, 0x100);
    uint64_t T1 = 1000 + 20 * P + 500;
    for (unsigned j = 0; j < 17; j++) {
        uint64_t t = T1 + 200 * (uint64_t)j;
        if (j == 8)
            pulse_while_busy(s, 1000 + 21 * P, 0x100);  // T1 + 1500
        pulse_recv(s, t, 0x100, TASK);
    }
    th(s, KEV_TH_RECEIVE, T1 + 3300, TASK);
    pulse_handed(s, 1000 + 22 * P, 0x100);
    th(s, KEV_TH_RECEIVE, 1000 + 22 * P + 300, TASK);
    kx_stats_finish(s);
    const struct kx_inst *i[24];
    assert_int_equal(insts(s, TASK, i, 24), 19);
    for (unsigned k = 1; k <= 16; k++)
        assert_int_equal(i[k]->release, 1000 + (uint64_t)k * P + 1);
    assert_int_equal(i[17]->release, 1000 + 21 * P + 1);
    assert_int_equal(i[17]->end, T1 + 3300);
    assert_int_equal(i[17]->missed, 0);
    assert_int_equal(i[18]->release, 1000 + 22 * P + 10);
    assert_int_equal(i[18]->missed, 0);
    const struct kx_task *t = task(s, TASK);
    assert_int_equal(t->missed_periods, 4);
    assert_int_equal(s->q.lost_pulses, 4);
    assert_int_equal(t->misses, 17);                    // job 0 and the 16 queued ones
    assert_string_equal(kx_task_kind(t), "periodic");
    kx_stats_free(s);
    free(s);
}

// A bound the model does not see (six pending, three received): the receive that blocks proves
// the channel empty, so the three still pending were dropped; the next pulse is handed over.
static void test_receive_that_blocks_ends_pending_pulses(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RECEIVE, 500, TASK);
    th(s, KEV_TH_RECEIVE, 500, CLOCK);
    pulse_handed(s, 1000, 0x100);
    for (unsigned k = 1; k <= 6; k++)
        pulse_while_busy(s, 1000 + (uint64_t)k * P, 0x100);
    uint64_t T1 = 1000 + 6 * P + 500;
    for (unsigned j = 0; j < 3; j++)
        pulse_recv(s, T1 + 100 * (uint64_t)j, 0x100, TASK);
    th(s, KEV_TH_RECEIVE, T1 + 300, TASK);
    pulse_handed(s, 1000 + 7 * P, 0x100);
    th(s, KEV_TH_RECEIVE, 1000 + 7 * P + 300, TASK);
    pulse_handed(s, 1000 + 8 * P, 0x100);
    th(s, KEV_TH_RECEIVE, 1000 + 8 * P + 300, TASK);
    kx_stats_finish(s);
    const struct kx_inst *i[8];
    assert_int_equal(insts(s, TASK, i, 8), 6);
    assert_int_equal(i[3]->release, 1000 + 3 * P + 1);
    assert_int_equal(i[4]->release, 1000 + 7 * P + 10);
    assert_int_equal(i[5]->release, 1000 + 8 * P + 10);
    assert_int_equal(task(s, TASK)->missed_periods, 3);
    assert_int_equal(s->q.nlive, 0);
    kx_stats_free(s);
    free(s);
}

// A timer of TASK's process fires at t: its interrupt, the TIMER event, the pulse; handed over
// when TASK waits; `told`: the kernel then says the pulse was dropped (kx_msgs_pulse_lost, as a
// kernel that writes an event for each loss lets the model know).
static void timer_fires(struct kx_stats *s, uint64_t t, int waits, int told)
{
    kx_stats_event(s, mk(KEV_C_INT, KEV_INT_ENTER, t, 0x100, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_SYSTEM, KEV_SYS_TIMER, t + 1, 1, TASK, 0, 0, 2));
    pulse_send(s, t + 2, 0x100);
    if (waits)
        pulse_recv(s, t + 2, 0x100, TASK);
    if (told)
        kx_msgs_pulse_lost(&s->q, 0);
    kx_stats_event(s, mk(KEV_C_INT, KEV_INT_EXIT, t + 3, 0x100, 0, 0, 0, 2));
    if (waits) {
        th(s, KEV_TH_READY, t + 3, TASK);
        th(s, KEV_TH_RUNNING, t + 4, TASK);
    }
}

// Timer pulses, charged to TASK's process by their TIMER events. Alone, the bound rule drops
// periods 17-20 of 20; when the kernel says it dropped 13-20 (its pool nearly full), the model
// follows it: 8 missed periods, the 12 taken without blocking released at periods 1-12.
static void test_timer_pulses_the_kernel_says_dropped(void **state)
{
    (void)state;
    for (int told = 0; told < 2; told++) {
        struct kx_stats *s = new_stats();
        th(s, KEV_TH_RUNNING, 400, TASK);
        th(s, KEV_TH_RECEIVE, 500, TASK);
        timer_fires(s, 1000, 1, 0);
        for (unsigned k = 1; k <= 20; k++)
            timer_fires(s, 1000 + (uint64_t)k * P, 0, told && k >= 13);
        uint64_t T1 = 1000 + 20 * P + 500;
        unsigned queued = told ? 12 : 16;
        for (unsigned j = 0; j < queued; j++)
            pulse_recv(s, T1 + 100 * (uint64_t)j, 0x100, TASK);
        th(s, KEV_TH_RECEIVE, T1 + 100 * (uint64_t)queued, TASK);
        kx_stats_finish(s);
        const struct kx_inst *i[24];
        assert_int_equal(insts(s, TASK, i, 24), 1 + queued);
        for (unsigned k = 1; k <= queued; k++)
            assert_int_equal(i[k]->release, 1000 + (uint64_t)k * P + 2);
        assert_int_equal(task(s, TASK)->missed_periods, 20 - queued);
        assert_int_equal(s->q.lost_pulses, 20 - queued);
        assert_int_equal(s->q.nlive, 0);
        kx_stats_free(s);
        free(s);
    }
}

// Three jobs of 300, then the thread leaves its loop: a join of 5000 and its death, with no
// kernel call to tell where its third job ended: the last instance (that job and the exit path)
// is no job: two ended, no miss, worst 320 - 10.
static void test_exit_path_is_no_job(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RECEIVE, 500, TASK);
    th(s, KEV_TH_RECEIVE, 500, CLOCK);
    for (unsigned k = 0; k < 3; k++) {
        uint64_t b = 1000 + (uint64_t)k * P;
        pulse_handed(s, b, 0x100);
        if (k < 2)
            th(s, KEV_TH_RECEIVE, b + 320, TASK);
    }
    th(s, KEV_TH_JOIN, 1000 + 2 * P + 320, TASK);
    th(s, KEV_TH_RUNNING, 1000 + 2 * P + 5320, TASK);
    th(s, KEV_TH_DEAD, 1000 + 2 * P + 5400, TASK);
    kx_stats_finish(s);
    const struct kx_inst *i[4];
    assert_int_equal(insts(s, TASK, i, 4), 3);
    assert_int_equal(i[2]->exit, 1);
    assert_int_equal(i[2]->missed, 0);
    assert_int_equal(i[2]->deadline, 0);
    const struct kx_task *t = task(s, TASK);
    assert_int_equal(t->n, 3);
    assert_int_equal(t->exits, 1);
    assert_int_equal(t->ended, 2);
    assert_int_equal(t->misses, 0);
    assert_int_equal(t->resp.max, 310);
    assert_int_equal(t->worst, i[0]->id);          // the first of the longest
    kx_stats_free(s);
    free(s);
}

// TASK's jobs each read the clock (ClockCycles, a kernel call here) at their end; after the
// third it calls ThreadJoin, a call no job made: the third job ends there and is judged (its
// work 300, or `over` 2500: past its deadline of P), the join and its death are its exit path.
static void test_exiting_job_is_judged(void **state)
{
    (void)state;
    enum { CLOCK_CYCLES = 69, THREAD_JOIN = 50 };
    for (int over = 0; over < 2; over++) {
        struct kx_stats *s = new_stats();
        th(s, KEV_TH_RECEIVE, 500, TASK);
        th(s, KEV_TH_RECEIVE, 500, CLOCK);
        uint64_t b = 0;
        for (unsigned k = 0; k < 3; k++) {
            b = 1000 + (uint64_t)k * P;
            pulse_handed(s, b, 0x100);
            uint64_t w = k == 2 && over ? 2500 : 300;
            kx_stats_event(s, mk(KEV_C_KER_CALL, CLOCK_CYCLES, b + w, 0, 0, 0, 0, 2));
            if (k < 2)
                th(s, KEV_TH_RECEIVE, b + 320, TASK);
        }
        uint64_t w = over ? 2500 : 300;
        kx_stats_event(s, mk(KEV_C_KER_CALL, THREAD_JOIN, b + w + 10, 5, 0, 0, 0, 2));
        th(s, KEV_TH_JOIN, b + w + 20, TASK);
        th(s, KEV_TH_RUNNING, b + w + 5020, TASK);
        th(s, KEV_TH_DEAD, b + w + 5100, TASK);
        kx_stats_finish(s);
        const struct kx_inst *i[4];
        assert_int_equal(insts(s, TASK, i, 4), 4);
        assert_int_equal(i[2]->exit, 0);
        assert_int_equal(i[2]->release, b + 10);
        assert_int_equal(i[2]->end, b + w + 10);        // the join's entry
        assert_int_equal(i[2]->exec, w - 10);           // it ran from b + 20
        assert_int_equal(i[2]->missed, over);
        assert_int_equal(i[3]->exit, 1);
        assert_int_equal(i[3]->release, b + w + 10);
        assert_int_equal(i[3]->end, b + w + 5100);
        assert_int_equal(i[3]->blocked, 5000);
        assert_int_equal(i[3]->deadline, 0);
        const struct kx_task *t = task(s, TASK);
        assert_int_equal(t->n, 3);
        assert_int_equal(t->exits, 1);
        assert_int_equal(t->ended, 3);
        assert_int_equal(t->misses, over);
        assert_int_equal(t->resp.max, w > 310 ? w : 310);   // (the first two: 310)
        kx_stats_free(s);
        free(s);
    }
}

// SRV released by CLOCK's messages at irregular times, one answered in 2500: event-driven, no
// period, no deadline, no miss; with a deadline of 1000 given, that one request missed.
static void test_message_released_task_is_event_driven(void **state)
{
    (void)state;
    static const uint64_t at[] = { 1000, 4000, 5000, 11000, 13000 };
    for (int given = 0; given < 2; given++) {
        struct kx_stats *s = new_stats();
        if (given)
            assert_int_equal(kx_stats_timing(s, "test", "deadline", "srv=1ms"), 0);
        th(s, KEV_TH_RECEIVE, 500, SRV);
        uint32_t name = 's' | 'r' << 8 | 'v' << 16;  // its process "srv" (little-endian)
        kx_stats_event(s, mk(KEV_C_PR_TH, KEV_PR_CREATE_NAME, 500, 1, SRV, name, 0, 3));
        for (unsigned k = 0; k < 5; k++) {
            uint32_t rcvid = 0x200 + k;
            uint64_t work = k == 3 ? 2500 : 200;
            th(s, KEV_TH_RUNNING, at[k], CLOCK);
            kx_stats_event(s, mk(KEV_C_COMM, KEV_COMM_SND_MESSAGE, at[k] + 10, rcvid, SRV, 0, 0, 2));
            kx_stats_event(s, mk(KEV_C_COMM, KEV_COMM_REC_MESSAGE, at[k] + 10, rcvid,
                                 (uint32_t)SRV << 16 | 1u, 0, 0, 2));
            th(s, KEV_TH_REPLY, at[k] + 11, CLOCK);
            th(s, KEV_TH_RUNNING, at[k] + 12, SRV);
            kx_stats_event(s, mk(KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, at[k] + 12 + work, rcvid, 0,
                                 0, 0, 2));
            th(s, KEV_TH_RECEIVE, at[k] + 20 + work, SRV);
        }
        kx_stats_finish(s);
        const struct kx_task *t = task(s, SRV);
        assert_int_equal(t->n, 5);
        assert_int_equal(t->by[KX_REL_MSG], 5);
        assert_string_equal(kx_task_kind(t), "event-driven");
        assert_int_equal(t->period, 0);
        assert_int_equal(t->gaps, 4);
        assert_int_equal(t->gap_min, 1000);
        assert_int_equal(t->resp.max, 2510);
        assert_int_equal(t->deadline, given ? 1000 : 0);
        assert_int_equal(t->misses, given ? 1 : 0);
        kx_stats_free(s);
        free(s);
    }
}

// A task that sleeps between jobs and waits on a mutex inside one; HOG preempts it once. Sleeps
// release it: event-driven, no period inferred from its wake-ups.
static void test_sleep_task_mutex_inside(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_NANOSLEEP, 10, TASK);
    for (unsigned k = 0; k < 4; k++) {
        uint64_t b = 1000 + 1000 * (uint64_t)k;
        th(s, KEV_TH_READY, b, TASK);               // the sleep ends: released
        th(s, KEV_TH_RUNNING, b + 5, TASK);
        if (k == 1) {
            th(s, KEV_TH_MUTEX, b + 50, TASK);      // blocked inside the job
            th(s, KEV_TH_READY, b + 250, TASK);
            th(s, KEV_TH_RUNNING, b + 260, TASK);
            th(s, KEV_TH_RUNNING, b + 300, HOG);    // preempts it
            th(s, KEV_TH_NANOSLEEP, b + 340, HOG);
            th(s, KEV_TH_RUNNING, b + 340, TASK);
        }
        th(s, KEV_TH_NANOSLEEP, b + 400, TASK);
    }
    kx_stats_finish(s);
    const struct kx_inst *i[8];
    assert_int_equal(insts(s, TASK, i, 8), 4);
    assert_int_equal(i[0]->how, KX_REL_WAKE);
    assert_int_equal(i[0]->release, 1000);
    assert_int_equal(i[0]->end, 1400);
    assert_int_equal(i[1]->blocked, 200);
    assert_int_equal(i[1]->ready, 5 + 10 + 40);
    assert_int_equal(i[1]->exec, 45 + 40 + 60);
    assert_int_equal(i[1]->preempt, 1);
    assert_int_equal(i[1]->exec + i[1]->ready + i[1]->blocked, i[1]->end - i[1]->release);
    assert_int_equal(task(s, TASK)->period, 0);
    assert_int_equal(task(s, TASK)->deadline, 0);
    assert_string_equal(kx_task_kind(task(s, TASK)), "event-driven");
    kx_stats_free(s);
    free(s);
}

// Given deadline and period, by the task's program name (a main thread's); a rule naming no
// task is kept unmatched.
static void test_given_deadline_by_name(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    assert_int_equal(kx_stats_timing(s, "test", "deadline", "imu=300us"), 0);
    assert_int_equal(kx_stats_timing(s, "test", "period", "imu=1.5ms"), 0);
    assert_int_equal(kx_stats_timing(s, "test", "deadline", "nobody=1ms"), 0);
    assert_int_equal(kx_stats_timing(s, "test", "deadline", "imu"), -1);
    assert_int_equal(kx_stats_timing(s, "test", "deadline", "imu=soon"), -1);
    th(s, KEV_TH_RECEIVE, 500, TASK);
    uint32_t name = 'i' | 'm' << 8 | 'u' << 16;  // its process "imu" (little-endian)
    kx_stats_event(s, mk(KEV_C_PR_TH, KEV_PR_CREATE_NAME, 500, 1, TASK, name, 0, 3));
    th(s, KEV_TH_RECEIVE, 500, CLOCK);
    th(s, KEV_TH_RECEIVE, 500, SRV);
    for (unsigned k = 0; k < 3; k++)
        imu_period(s, 1000 + (uint64_t)k * P, 0x100);
    kx_stats_finish(s);
    const struct kx_task *t = task(s, TASK);
    assert_int_equal(t->deadline_given, 1);
    assert_int_equal(t->deadline, 300);
    assert_int_equal(t->period_given, 1);
    assert_int_equal(t->period, 1500);
    assert_int_equal(t->misses, 3);               // each response is 390
    assert_int_equal(t->late_max, 90);
    assert_int_equal(s->tasks->rule[0].matched, 1);
    assert_int_equal(s->tasks->rule[2].matched, 0);
    assert_int_equal(task(s, SRV)->deadline_given, 0);
    kx_stats_free(s);
    free(s);
}

// An interrupt wait's releases 1000 apart with one missing (2000): event-driven, no period
// inferred; given a deadline of 1000, the last instance, open at the end, is judged only once
// its deadline has passed.
static void test_open_instance_judged_past_its_deadline(void **state)
{
    (void)state;
    static const uint64_t rel[] = { 1000, 2000, 3000, 5000, 6000, 7000 };
    for (unsigned late = 0; late < 2; late++) {
        struct kx_stats *s = new_stats();
        assert_int_equal(kx_stats_timing(s, "test", "deadline", "imu=1ms"), 0);
        uint32_t name = 'i' | 'm' << 8 | 'u' << 16;
        th(s, KEV_TH_INTR, 10, TASK);
        kx_stats_event(s, mk(KEV_C_PR_TH, KEV_PR_CREATE_NAME, 10, 1, TASK, name, 0, 3));
        for (unsigned k = 0; k < 6; k++) {
            th(s, KEV_TH_READY, rel[k], TASK);
            th(s, KEV_TH_RUNNING, rel[k] + 1, TASK);
            if (k < 5)
                th(s, KEV_TH_INTR, rel[k] + 100, TASK);
        }
        th(s, KEV_TH_RUNNING, late ? 8500 : 7500, HOG); // the trace's last event
        kx_stats_finish(s);
        const struct kx_task *t = task(s, TASK);
        assert_int_equal(t->period, 0);
        assert_int_equal(t->deadline, 1000);
        assert_int_equal(t->gap_max, 2000);
        assert_int_equal(t->ended, 5);
        assert_int_equal(t->unfinished, 1);
        assert_int_equal(t->misses, late);
        const struct kx_inst *i[8];
        assert_int_equal(insts(s, TASK, i, 8), 6);
        assert_int_equal(i[5]->end, 0);
        assert_int_equal(i[5]->missed, late);
        if (late)
            assert_int_equal(i[5]->lateness, 500);
        kx_stats_free(s);
        free(s);
    }
}

// The kernel's tick on `cpu` at t (INT 0x100, entered and left).
static void tick(struct kx_stats *s, unsigned cpu, uint64_t t)
{
    struct kev_event *e = (struct kev_event *)mk(KEV_C_INT, KEV_INT_ENTER, t, 0x100, 0, 0, 0, 2);
    e->cpu = cpu;
    kx_stats_event(s, e);
    e = (struct kev_event *)mk(KEV_C_INT, KEV_INT_EXIT, t + 1, 0x100, 0, 0, 0, 2);
    e->cpu = cpu;
    kx_stats_event(s, e);
}

// th() on a CPU.
static void th_on(struct kx_stats *s, unsigned cpu, unsigned st, uint64_t t, uint32_t pid)
{
    struct kev_event *e = (struct kev_event *)mk(KEV_C_PR_TH, st, t, pid, 1, 10 * pid, 2, 4);
    e->cpu = cpu;
    kx_stats_event(s, e);
}

// TASK ("imu", deadline 250) sleeps between jobs on CPU 0, whose tick (period 1000) does not
// come at 5000 and 6000: a gap from 4000 to 7000, two periods. Its jobs, [release, end):
//   1100-1200, 3900-6050 (late 1900; 2050 inside the gap, 2000 at most: the periods skipped),
//   6100-6110 (inside the gap, on time), 6900-7900 (late 750; 100 inside), 9000-9100.
// The events in time order: a tick at a multiple of 1000 (t), a job's release (r), its end (e).
static void tick_gap_schedule(struct kx_stats *s)
{
    static const struct { char what; uint64_t t; } ev[] = {
        { 't', 1000 }, { 'r', 1100 }, { 'e', 1200 }, { 't', 2000 }, { 't', 3000 },
        { 'r', 3900 }, { 't', 4000 }, { 'e', 6050 }, { 'r', 6100 }, { 'e', 6110 },
        { 'r', 6900 }, { 't', 7000 }, { 'e', 7900 }, { 't', 8000 }, { 't', 9000 },
        { 'r', 9000 }, { 'e', 9100 }, { 't', 10000 }, { 't', 11000 }, { 't', 12000 },
    };
    for (size_t k = 0; k < sizeof(ev) / sizeof(ev[0]); k++)
        if (ev[k].what == 't')
            tick(s, 0, ev[k].t);
        else if (ev[k].what == 'r') {
            th(s, KEV_TH_READY, ev[k].t, TASK);
            th(s, KEV_TH_RUNNING, ev[k].t, TASK);
        } else
            th(s, KEV_TH_NANOSLEEP, ev[k].t, TASK);
}

static void test_tick_gap_in_instances(void **state)
{
    (void)state;
    static const enum kx_clock mode[] = { KX_CLOCK_HOST, KX_CLOCK_NONE, KX_CLOCK_EXACT };
    for (unsigned m = 0; m < 3; m++) {
        struct kx_stats *s = new_stats();
        s->emul->clock = mode[m];   // as the capture's header item would say
        assert_int_equal(kx_stats_timing(s, "test", "deadline", "imu=250us"), 0);
        th(s, KEV_TH_NANOSLEEP, 500, TASK);
        uint32_t name = 'i' | 'm' << 8 | 'u' << 16;
        kx_stats_event(s, mk(KEV_C_PR_TH, KEV_PR_CREATE_NAME, 500, 1, TASK, name, 0, 3));
        tick_gap_schedule(s);
        kx_stats_finish(s);
        assert_int_equal(s->emul->gaps, 1);
        const struct kx_inst *i[8];
        assert_int_equal(insts(s, TASK, i, 8), 5);
        const struct kx_task *t = task(s, TASK);
        int marked = m == 0;
        static const uint64_t inside[] = { 0, 2000, 10, 100, 0 };
        for (unsigned k = 0; k < 5; k++)
            assert_int_equal(i[k]->emul, marked ? inside[k] : 0);
        assert_int_equal(i[1]->missed, 1);
        assert_int_equal(i[1]->lateness, 1900);
        assert_int_equal(i[1]->emul_miss, marked);
        assert_int_equal(i[3]->missed, 1);
        assert_int_equal(i[3]->emul_miss, 0);    // 100 of 750: the program's
        assert_int_equal(t->misses, marked ? 1 : 2);
        assert_int_equal(t->emul_misses, marked ? 1 : 0);
        assert_int_equal(t->stretched, marked ? 3 : 0);
        assert_int_equal(t->emul, marked ? 2110 : 0);
        assert_int_equal(t->late_max, marked ? 750 : 1900);
        kx_stats_free(s);
        free(s);
    }
}

// Two CPUs in the exact mode: TASK runs on CPU 1 from 1100 to 3600 without an event while CPU 0
// takes its ticks at 2000 and 3000: CPU 1 stalled 2500, which covers the job's lateness (2250
// past its deadline of 250). Its next job, 4100-4400 (late 50), holds no stall: the program's.
static void test_stalled_cpu_in_instances(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    s->emul->clock = KX_CLOCK_EXACT, s->emul->ncpu = 2, s->emul->turns_on = 1;
    assert_int_equal(kx_stats_timing(s, "test", "deadline", "imu=250us"), 0);
    uint32_t name = 'i' | 'm' << 8 | 'u' << 16;
    th_on(s, 1, KEV_TH_NANOSLEEP, 500, TASK);
    kx_stats_event(s, mk(KEV_C_PR_TH, KEV_PR_CREATE_NAME, 500, 1, TASK, name, 0, 3));
    tick(s, 0, 1000);
    th_on(s, 1, KEV_TH_READY, 1100, TASK);
    th_on(s, 1, KEV_TH_RUNNING, 1100, TASK);
    tick(s, 0, 2000);
    tick(s, 0, 3000);
    th_on(s, 1, KEV_TH_NANOSLEEP, 3600, TASK);
    tick(s, 0, 4000);
    th_on(s, 1, KEV_TH_READY, 4100, TASK);
    th_on(s, 1, KEV_TH_RUNNING, 4100, TASK);
    th_on(s, 1, KEV_TH_NANOSLEEP, 4400, TASK);
    tick(s, 0, 5000);
    kx_stats_finish(s);
    assert_int_equal(s->emul->stretched, 1);
    const struct kx_inst *i[4];
    assert_int_equal(insts(s, TASK, i, 4), 2);
    assert_int_equal(i[0]->emul, 2500);
    assert_int_equal(i[0]->lateness, 2250);
    assert_int_equal(i[0]->emul_miss, 1);
    assert_int_equal(i[1]->emul, 0);
    assert_int_equal(i[1]->missed, 1);
    assert_int_equal(i[1]->emul_miss, 0);
    const struct kx_task *t = task(s, TASK);
    assert_int_equal(t->misses, 1);
    assert_int_equal(t->emul_misses, 1);
    assert_int_equal(t->late_max, 50);
    kx_stats_free(s);
    free(s);
}

// TASK's timer (id 3, its own) expires at t and releases its job, which works `work` and waits
// again; `dropped`: the capture lost events until then (a DROPPED at that time, in the job).
static void loop_job(struct kx_stats *s, uint64_t t, uint64_t work, uint64_t dropped)
{
    kx_stats_event(s, mk(KEV_C_INT, KEV_INT_ENTER, t, 0x100, 0, 0, 0, 2));
    kx_stats_event(s, mk(KEV_C_SYSTEM, KEV_SYS_TIMER, t, 3, TASK, 0, 0, 2));
    pulse_send(s, t, 0x300);
    pulse_recv(s, t, 0x300, TASK);
    kx_stats_event(s, mk(KEV_C_INT, KEV_INT_EXIT, t + 1, 0x100, 0, 0, 0, 2));
    th(s, KEV_TH_READY, t + 1, TASK);
    th(s, KEV_TH_RUNNING, t + 2, TASK);
    if (dropped)
        kx_stats_event(s, mk(KEV_C_CONTROL, KEV_CTL_DROPPED, dropped, 40, 0, 0, 0, 1));
    th(s, KEV_TH_RECEIVE, t + work, TASK);
}

// A driver woken by its device's interrupt pulses every 20 (irq 5), working 30 in each job, and
// a loop released by its own timer every 2000 with one job of 2500: the driver is event-driven
// (no period from its 20-cycle gaps, no deadline, no miss) and named so in the headline; the
// loop periodic, its period the timer's interval (its expiries 2000 apart), one miss.
static void test_irq_released_task_is_event_driven(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RECEIVE, 500, SRV);          // SRV: the driver
    th(s, KEV_TH_RECEIVE, 500, TASK);         // TASK: the loop, its timer's pulses direct
    for (unsigned k = 0; k < 40; k++) {
        uint64_t t = 1000 + 20 * (uint64_t)k;
        kx_stats_event(s, mk(KEV_C_INT, KEV_INT_ENTER, t, 5, 0, 0, 0, 2));
        pulse_send(s, t, 0x500);
        pulse_recv(s, t, 0x500, SRV);
        kx_stats_event(s, mk(KEV_C_INT, KEV_INT_EXIT, t + 1, 5, 0, 0, 0, 2));
        th(s, KEV_TH_READY, t + 1, SRV);
        th(s, KEV_TH_RUNNING, t + 2, SRV);
        th(s, KEV_TH_RECEIVE, t + 32, SRV);   // 30 of work: past the next interrupt's time
    }
    for (unsigned k = 0; k < 5; k++)
        loop_job(s, 3000 + (uint64_t)k * P, k == 2 ? 2500 : 400, 0);
    kx_stats_finish(s);
    const struct kx_task *d = task(s, SRV), *l = task(s, TASK);
    assert_string_equal(kx_task_kind(d), "event-driven");
    assert_int_equal(d->by[KX_REL_IRQ], 40);
    assert_int_equal(d->period, 0);
    assert_int_equal(d->deadline, 0);
    assert_int_equal(d->misses, 0);
    assert_string_equal(kx_task_kind(l), "periodic");
    assert_int_equal(l->by[KX_REL_TIMER], 5);
    assert_int_equal(l->period, P);
    assert_string_equal(kx_task_period_from(l), "timer");
    assert_int_equal(l->misses, 1);
    char head[512], lb[80], want[160];
    kx_tasks_headline(s, head, sizeof(head));
    snprintf(want, sizeof(want), "2 task(s), 1 deadline miss(es): %s 1 (deadline ",
             kx_label(&s->m, l->th, lb, sizeof(lb)));
    assert_non_null(strstr(head, want));
    snprintf(want, sizeof(want), "1 without a deadline, not judged (event-driven: give one with "
             "--deadline TASK=TIME): %s", kx_label(&s->m, d->th, lb, sizeof(lb)));
    assert_non_null(strstr(head, want));
    kx_stats_free(s);
    free(s);
}

// Timer-released jobs every P, each 400 but two of 2500 (misses); the capture lost events
// (a DROPPED) between 6500 and 7200, inside the second overrun (7000-9500): that job is not
// judged, the first (3000-5500) is: one miss, said "at least".
static void test_lost_events_not_judged(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    th(s, KEV_TH_RECEIVE, 500, TASK);
    for (unsigned k = 0; k < 5; k++)
        loop_job(s, 1000 + (uint64_t)k * P, k == 1 || k == 3 ? 2500 : 400, k == 3 ? 7200 : 0);
    kx_stats_finish(s);
    const struct kx_task *l = task(s, TASK);
    assert_int_equal(l->misses, 1);
    assert_int_equal(l->spoiled, 1);
    char head[512];
    kx_tasks_headline(s, head, sizeof(head));
    assert_non_null(strstr(head, "at least 1 deadline miss(es)"));
    kx_stats_free(s);
    free(s);
}

// Every instance reaches the sink, judged, in release order, once: TASK's and CLOCK's against
// the period, SRV's (released by messages) against none.
static unsigned seen, with_deadline;
static uint64_t last_id;
static void on_inst(void *user, const struct kx_inst *i)
{
    (void)user;
    assert_true(i->id > last_id);
    assert_true(i->deadline == P || i->deadline == 0);
    with_deadline += i->deadline == P;
    last_id = i->id;
    seen++;
}

static void test_sink_gets_every_instance(void **state)
{
    (void)state;
    struct kx_stats *s = new_stats();
    kx_stats_sink(s, &(struct kx_sink){ .inst = on_inst });
    th(s, KEV_TH_RECEIVE, 500, TASK);
    th(s, KEV_TH_RECEIVE, 500, CLOCK);
    th(s, KEV_TH_RECEIVE, 500, SRV);
    for (unsigned k = 0; k < 4; k++)
        imu_period(s, 1000 + (uint64_t)k * P, 0x100);
    seen = 0, last_id = 0, with_deadline = 0;
    kx_stats_finish(s);
    assert_int_equal(seen, s->tasks->ninst);
    assert_int_equal(seen, 4 + 4 + 4);            // TASK, SRV and CLOCK (woken each period)
    assert_int_equal(with_deadline, 4 + 4);
    kx_stats_free(s);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_instance_a_period_with_a_send_inside),
        cmocka_unit_test(test_overrun_queued_pulse),
        cmocka_unit_test(test_dropped_pulses_missed_periods),
        cmocka_unit_test(test_receive_that_blocks_ends_pending_pulses),
        cmocka_unit_test(test_timer_pulses_the_kernel_says_dropped),
        cmocka_unit_test(test_exit_path_is_no_job),
        cmocka_unit_test(test_message_released_task_is_event_driven),
        cmocka_unit_test(test_exiting_job_is_judged),
        cmocka_unit_test(test_irq_released_task_is_event_driven),
        cmocka_unit_test(test_lost_events_not_judged),
        cmocka_unit_test(test_sleep_task_mutex_inside),
        cmocka_unit_test(test_given_deadline_by_name),
        cmocka_unit_test(test_open_instance_judged_past_its_deadline),
        cmocka_unit_test(test_sink_gets_every_instance),
        cmocka_unit_test(test_tick_gap_in_instances),
        cmocka_unit_test(test_stalled_cpu_in_instances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
