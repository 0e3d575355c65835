// SPDX-License-Identifier: MIT
// taskedge: three tasks where the system misbehaves, each measured by the program on its own
// clock, for the task-instance analysis to be held against (docs/analysis.md, "Task
// instances"; test/qemu/test_taskedge.sh). One after the other, each alone on CPU 0:
//
//   thread   prio  does
//   lossy    210   a timer every PERIOD_US; L_JOBS receives, WORK_US of work each; in job
//                  STALL_AT it works through QMAX + LOST more periods (and in OVER_AT a
//                  third of a period more than one, so the next pulse waits queued): the kernel queues QMAX
//                  of their pulses (its bound on one process's queued pulses) and drops the
//                  LOST after them (it says "timer pulse ... lost" on the console for each).
//                  The program numbers each pulse it receives by its period: one more each
//                  time, and after the QMAX queued ones the periods it counted on its clock
//                  during the stall beyond QMAX. Job k's release is the first release + k
//                  periods; it missed when it ended more than a period after it.
//   exiter   210   a timer every PERIOD_US; E_JOBS jobs (one of E_WORST_US), then joins a
//                  helper (209) that works HELPER_US, prints a line and returns: the code after
//                  its last job is its exit path, no job.
//   server   210   receives requests, works what each asks, replies, reads its clock (the
//                  request's end) and receives again: released by messages only.
//   client   205   S_REQS requests at irregular intervals (sleeps), its clock read before each
//                  send (the request's release); then returns.
//
// main (230 to make them, then 200, below them) waits for each part, then prints (times in
// cycles since boot):
//   taskedge: lossy job J period K release R end E
//   taskedge: lossy jobs J periods K lost N misses M period_us P
//   taskedge: exiter job J release R end E
//   taskedge: exiter jobs J worst W misses M
//   taskedge: server req I send S end E
//   taskedge: server reqs R deadline_us D misses M     (ended more than D after its send)
//   taskedge: cps HZ
// The work is a calibrated loop, not a clock read (on the Cortex-M ClockCycles is a kernel
// call, traced); the threads run above the tracelogger (200), so only an interrupt comes
// between a clock read and the kernel call after it.
#include <kern.h>
#include <stdio.h>

#include <busy.h>

#define PERIOD_US   1000u
#define WORK_US     150u
#define QMAX        16u     // pulses the kernel queues for one process (KMAX_PULSES_PER_PROC)
#define LOST        5u
#define L_JOBS      40u
#define STALL_AT    8u
#define OVER_AT     30u     // a job over its period: the next pulse comes queued
#define OVER_US     1300u
#define HELPER_US   3000u   // the exiter's exit path waits for a helper this long
#define E_JOBS      12u
#define E_WORST     5u      // the exiter's longest job
#define E_WORST_US  600u
#define S_REQS      16u
#define DEADLINE_US 600u    // the server's deadline the test declares (--deadline)
#define MAIN_PRIO   200
#define TASK_PRIO   210
#define CLIENT_PRIO 205

struct req {
    uint32_t i, work_us;
};
union srv_msg {
    struct kpulse p;
    struct req r;
};

static const uint32_t s_work_us[S_REQS] = { 200, 900, 300, 250, 1200, 200, 800, 350,
                                            200, 950, 300, 700, 250, 200, 1100, 300 };
static const uint32_t s_gap_ms[S_REQS] = { 2, 5, 3, 2, 7, 3, 4, 2, 6, 3, 2, 5, 3, 4, 2, 3 };

static int done, srv_coid, srv_chid;
static uint32_t loops_per_ms, cps;
static uint64_t period;
static uint64_t l_rel[L_JOBS], l_end[L_JOBS], l_got; // l_got: the last pulse's wake
static unsigned l_k[L_JOBS], l_lost;
static uint64_t e_rel[E_JOBS], e_end[E_JOBS];
static uint64_t s_send[S_REQS], s_end[S_REQS];
// Stacks: lossy's (it waits to the end); the exiter's, then the client's; the helper's, then
// the server's (each reused only once its thread is joined: netduinoplus2 gives 8 KB).
static KSTACK(stk_a, 1024);
static KSTACK(stk_b, 2048);
static KSTACK(stk_e, 1024);

// A channel with a timer pulsing it every PERIOD_US: its chid, and the timer in *timer.
static int periodic_channel(int *timer)
{
    int chid = ChannelCreate(0);
    if (chid < 0)
        return -1;
    *timer = TimerCreate(ConnectAttach(0, chid), 1, 0);
    if (*timer < 0 || TimerSettime(*timer, PERIOD_US, PERIOD_US))
        return -1;
    return chid;
}

static int lossy(void *arg)
{
    (void)arg;
    int timer, chid = periodic_channel(&timer);
    if (busy_on_cpu0() || chid < 0)
        return 1;
    unsigned k = 0;
    uint64_t t0 = 0;
    for (unsigned j = 0; j < L_JOBS; j++) {
        struct kpulse p;
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            return 1;
        uint64_t t = ClockCycles();
        if (!j)
            t0 = t;
        l_k[j] = k;
        l_got = t;
        l_rel[j] = t0 + k * period;
        if (j == STALL_AT) {            // QMAX + LOST periods and a half without receiving
            busy_us(loops_per_ms, (QMAX + LOST) * PERIOD_US + PERIOD_US / 2);
            uint64_t crossed = (ClockCycles() - l_rel[j]) / period;
            l_lost = crossed > QMAX ? (unsigned)(crossed - QMAX) : 0;
        } else {
            busy_us(loops_per_ms, j == OVER_AT ? OVER_US : WORK_US);
        }
        if (j == L_JOBS - 1 && (TimerDestroy(timer) || SemPost(done)))
            return 1;                   // main, below, runs once this waits again
        l_end[j] = ClockCycles();
        k += 1 + (j == STALL_AT + QMAX ? l_lost : 0); // the queued ones taken: the lost skipped
    }
    struct kpulse p;
    MsgReceive(chid, &p, sizeof(p), NULL); // never comes: its last job ends here
    return 1;
}

static int helper(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    busy_us(loops_per_ms, HELPER_US);
    return 0;
}

static int exiter(void *arg)
{
    (void)arg;
    int timer, chid = periodic_channel(&timer);
    if (busy_on_cpu0() || chid < 0)
        return 1;
    for (unsigned j = 0; j < E_JOBS; j++) {
        struct kpulse p;
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            return 1;
        uint64_t t = ClockCycles();
        e_rel[j] = j ? e_rel[0] + j * period : t;
        busy_us(loops_per_ms, j == E_WORST ? E_WORST_US : WORK_US);
        e_end[j] = ClockCycles();
    }
    // its exit path, not a job: a join of a helper's HELPER_US of work, a line on the console
    TimerDestroy(timer);
    int st = 1, th = ThreadCreate(helper, NULL, stk_e, sizeof(stk_e), TASK_PRIO - 1, 0);
    if (th < 0 || ThreadJoin(th, &st) || st)
        return 1;
    printf("taskedge: exiter leaves after %u jobs\n", E_JOBS);
    return 0;
}

static int server(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    for (;;) {
        union srv_msg m;
        int rcvid = MsgReceive(srv_chid, &m, sizeof(m), NULL);
        if (rcvid <= 0 || m.r.i >= S_REQS)
            return 1;
        busy_us(loops_per_ms, m.r.work_us);
        if (MsgReply(rcvid, 0, NULL, 0))
            return 1;
        s_end[m.r.i] = ClockCycles();
    }
}

static int client(void *arg)
{
    (void)arg;
    if (busy_on_cpu0())
        return 1;
    for (unsigned i = 0; i < S_REQS; i++) {
        ThreadSleep((uint64_t)s_gap_ms[i] * 1000000u);
        struct req r = { i, s_work_us[i] };
        s_send[i] = ClockCycles();
        if (MsgSend(srv_coid, &r, sizeof(r), NULL, 0))
            return 1;
    }
    return 0;
}

static int start(int (*fn)(void *), uint8_t *stk, size_t n, int prio, const char *name)
{
    int t = ThreadCreate(fn, NULL, stk, n, prio, 0);
    if (t >= 0)
        ThreadName(t, name);
    return t;
}

int main(void)
{
    int st = 0, bad = 0;
    cps = ClockCyclesPerSec();
    period = (uint64_t)PERIOD_US * cps / 1000000u;
    done = SemCreate(0);
    srv_chid = ChannelCreate(0);
    srv_coid = ConnectAttach(0, srv_chid);
    if (busy_on_cpu0() || done < 0 || srv_chid < 0 || srv_coid < 0) {
        printf("taskedge: set-up failed\n");
        return 1;
    }
    loops_per_ms = busy_calibrate(cps);
    // lossy: posts `done` in its last job, then waits in its receive to the end
    if (start(lossy, stk_a, sizeof(stk_a), TASK_PRIO, "lossy") < 0 || ThreadSetPrio(0, MAIN_PRIO, 0)) {
        printf("taskedge: thread creation failed\n");
        return 1;
    }
    if (SemWait(done))
        bad = 1;
    int te = start(exiter, stk_b, sizeof(stk_b), TASK_PRIO, "exiter");
    if (te < 0 || ThreadJoin(te, &st))
        bad = 1;
    bad |= st;
    int ts = start(server, stk_e, sizeof(stk_e), TASK_PRIO, "server");
    int tc = start(client, stk_b, sizeof(stk_b), CLIENT_PRIO, "client");
    if (ts < 0 || tc < 0 || ThreadJoin(tc, &st))
        bad = 1;
    bad |= st;

    unsigned misses = 0;
    for (unsigned j = 0; j < L_JOBS; j++) {
        misses += l_end[j] - l_rel[j] > period;
        printf("taskedge: lossy job %u period %u release %s", j, l_k[j], u64txt(l_rel[j]).s);
        printf(" end %s\n", u64txt(l_end[j]).s);
    }
    // the last job's pulse came while lossy waited: its period by the clock is the one counted
    uint64_t off = l_got - l_rel[L_JOBS - 1];
    if (off > period / 4 || l_lost != LOST) {
        printf("taskedge: lossy's count is off: %u lost (%u planned), last pulse %s cycles after "
               "its period's start\n", l_lost, LOST, u64txt(off).s);
        bad = 1;
    }
    printf("taskedge: lossy jobs %u periods %u lost %u misses %u period_us %u\n", L_JOBS,
           l_k[L_JOBS - 1] + 1, l_lost, misses, PERIOD_US);
    uint64_t worst = 0;
    misses = 0;
    for (unsigned j = 0; j < E_JOBS; j++) {
        uint64_t r = e_end[j] - e_rel[j];
        worst = r > worst ? r : worst;
        misses += r > period;
        printf("taskedge: exiter job %u release %s", j, u64txt(e_rel[j]).s);
        printf(" end %s\n", u64txt(e_end[j]).s);
    }
    printf("taskedge: exiter jobs %u worst %s misses %u\n", E_JOBS, u64txt(worst).s, misses);
    uint64_t dl = (uint64_t)DEADLINE_US * cps / 1000000u;
    misses = 0;
    for (unsigned i = 0; i < S_REQS; i++) {
        misses += s_end[i] - s_send[i] > dl;
        printf("taskedge: server req %u send %s", i, u64txt(s_send[i]).s);
        printf(" end %s\n", u64txt(s_end[i]).s);
    }
    printf("taskedge: server reqs %u deadline_us %u misses %u\n", S_REQS, DEADLINE_US, misses);
    printf("taskedge: cps %lu\n", (unsigned long)cps);
    printf("taskedge: done, %s\n", bad ? "FAILED" : "ok");
    return bad != 0;
}
