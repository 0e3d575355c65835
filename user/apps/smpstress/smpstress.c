// SPDX-License-Identifier: MIT
// smpstress: pid 1 of the multiprocessor stress image; prints TAP. On every CPU at once:
//   1. thread churn: rounds of unbound threads that yield and move between CPUs, each
//      created, run and joined: every one ran exactly once (its own counter is 1), and its
//      join returned its own status (none lost, none run twice);
//   2. kills mid-IPC: a client process (st_peer) with a thread bound to each other CPU sends
//      to this process's server threads without end; it is killed while they send, on their
//      CPUs, and started again, KILLS times: each time reported killed by KSIG_KILL
//      (ProcWait), and the servers receive from the new one after every kill;
//   3. while 2 runs, a client/server pair bound to each of CPUs 1..n-1, each pair on its own
//      channel (the message fast path on every CPU at once, different channels, beside the
//      clients of 2 sending to one channel and being killed): every reply answers its own
//      request (every fourth is answered by MsgError, with an error number of its own, which
//      the client's MsgSend returns), each server saw its client's numbers in order with none
//      missing or twice, and the rounds each client counted are the rounds its server counted;
//   4. the servers then end on request and are joined: the kernel's thread count is back
//      where it was before the test;
//   5-8. mutexes and semaphores on every CPU at once, and kills mid-wait (st_sync.c), run
//      right after test 1;
//   9. pulses from every CPU to one channel, senders killed mid-stream (st_pulse.c);
//   10. sleeps on every CPU, and pulse senders sleeping on every refusal, each woken within
//      its bound of the time asked by the generic timer's counter, none stalled (st_wake.c);
//   11. MsgError on the message fast path, as MsgReply (st_error.c);
//   12. calls with a timeout on the shared side, and the timeouts ending them (st_timed.c).
//   13. the tick on idle CPUs: counted every period, the other CPUs' shares shared (st_idle.c).
//   14-17. priority inheritance across CPUs: a contended mutex ping-pong taking no exclusive
//      entry, an inversion across CPUs undone by inheritance, chains of owners under stress,
//      a condvar producer/consumer taking no exclusive entry (st_pi.c), run after test 8.
//   18. device interrupts and InterruptUnmask on the shared side: a driver process's interrupts
//       at the device's programmed rate, with no exclusive entry beyond the ticks, and wrong
//       unmasks answered as on one CPU (st_irq.c, the process st_drv).
//   19. the calls that touch only their caller and the clock, on every CPU at once, shared
//       (st_local.c).
//   20. the console's calls on every CPU at once, shared, each DebugWrite line whole
//       (st_console.c; test/qemu/test_console_cpus.sh reads the lines off the console).
//   21. (`xwake` alone, not in the full run) threads made ready on a CPU's queue while that
//       CPU chooses, for a capture of them (st_xwake.c; test/qemu/test_states_cpus.sh).
// Arguments (QEMU_ARGS="smpstress ..."): `icount`, the run's clock is QEMU's instruction count
// (the wake-up test then holds each sleep to its bound); `pulse`, `wake`, `error`, `timed`,
// `idle`, `pi` (14-17), `irq`, `local`, `console` or `xwake`, that test alone
// (scripts/stress-wake.sh runs them many times), `wake-sleepers` its sleepers alone; `hold`,
// on a stall the wake-up test spins for a debugger instead of ending; `refusal-sleep=NS`, the
// pulse test's senders sleep NS on every refusal instead of yielding (a tick's sleep after 64
// refusals); `seed=N`, a pseudo-random spin before each measured sleep and up to 999 ns more
// asked: another interleaving of the CPUs per seed. Anything else is refused.
// The truth each check compares with is the program's own bookkeeping (what it created,
// started, killed) or the generic timer's counter, never what the kernel reports about itself.
#include "st_sync.h"
#include "st_kill.h"
#include <kern.h>
#include <stdbool.h>
#include <stdio.h>
#include "st_pulse.h"
#include "st_wake.h"
#include "st_sleep.h"
#include "st_error.h"
#include "st_msg.h"
#include "st_timed.h"
#include "st_idle.h"
#include "st_pi.h"
#include "st_irq.h"
#include "st_local.h"
#include "st_console.h"
#include "st_xwake.h"
#include <stdlib.h>
#include <string.h>

#define MAXCPU 4
#define CHURN_ROUNDS 16
#define CHURN_T 4
#define KILLS 8
#define STACK 2048
#define QUIT 0xffffffffu

static KSTACK(stacks[CHURN_T + MAXCPU], STACK);   // (st_pi.c: 8)
static KSTACK(pair_stacks[2 * MAXCPU], STACK);
static volatile uint32_t runs[CHURN_ROUNDS * CHURN_T];
static uint32_t ncpu;

static int churn(void *arg)
{
    uint32_t id = (uint32_t)(uintptr_t)arg;
    __atomic_add_fetch(&runs[id], 1, __ATOMIC_SEQ_CST);
    for (uint32_t i = 0; i < 8; i++) {
        ThreadYield();
        if (i == 3)     // to another CPU, then free again
            ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << ((id + 1u) % ncpu)));
        if (i == 5)
            ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)((1u << ncpu) - 1u));
    }
    return (int)(id & 0x7fu);
}

static bool check_churn(void)
{
    uint32_t bad_join = 0;
    for (uint32_t r = 0; r < CHURN_ROUNDS; r++) {
        int tids[CHURN_T];
        for (uint32_t k = 0; k < CHURN_T; k++) {
            uint32_t id = r * CHURN_T + k;
            tids[k] = ThreadCreate(churn, (void *)(uintptr_t)id, stacks[k],
                                   sizeof(stacks[0]), 50 + (int)k, 0);
        }
        for (uint32_t k = 0; k < CHURN_T; k++) {
            int st = -1;
            if (tids[k] < 0 || ThreadJoin(tids[k], &st) != 0 ||
                st != (int)((r * CHURN_T + k) & 0x7fu))
                bad_join++;
        }
    }
    uint32_t not_once = 0;
    for (uint32_t i = 0; i < CHURN_ROUNDS * CHURN_T; i++)
        not_once += runs[i] != 1;
    printf("%s 1 - %u threads on %lu CPUs (moved between CPUs) each ran exactly once and were "
           "joined with their own status (%lu not once, %lu bad joins)\n",
           not_once || bad_join ? "not ok" : "ok", CHURN_ROUNDS * CHURN_T, (unsigned long)ncpu,
           (unsigned long)not_once, (unsigned long)bad_join);
    return !not_once && !bad_join;
}

// Threads alive in the whole system: the kernel's thread slots that answer ThreadInfo.
// The processes' threads alive (pid 0's, the kernel's own, are not counted: the boot thread
// may still be ending on its CPU when main first counts, on the host's clock: "before 6,
// after 5" in one CI run once the console's calls ran shared and main got here sooner).
static uint32_t live_threads(void)
{
    uint32_t slots = 0, n = 0;
    struct kthread_info ti;
    SysInfo(KSYSINFO_NTHREAD, &slots);
    for (uint32_t i = 0; i < slots; i++)
        n += ThreadInfo(i, &ti) == 0 && ti.pid != 0;
    return n;
}

static int chid;
static volatile uint32_t received;

// A client's message (union request, st_msg.h): its number, or QUIT.

// Two of these on CPU 0 answer every client with the count of messages received so far.
static int server(void *arg)
{
    ThreadCtl(KTCTL_RUNMASK, arg);
    for (;;) {
        union request rq = { 0 };
        int rcvid = MsgReceive(chid, &rq, sizeof(rq), NULL);
        if (rcvid <= 0)
            continue;
        uint32_t v = rq.v;
        uint32_t n = __atomic_add_fetch(&received, 1, __ATOMIC_SEQ_CST);
        MsgReply(rcvid, 0, &n, sizeof(n));     // the client may be dead by now: refused
        if (v == QUIT)
            return 0;
    }
}

// Whether the servers receive new messages: waits for a few while the clients send (up to
// 5 s: on the host's clock a loaded host may not run the virtual CPUs for a while).
static bool messages_flow(void)
{
    uint32_t before = received;
    for (uint32_t ms = 0; ms < 5000; ms++) {
        ThreadSleep(1000000);
        if (received - before >= 8)
            return true;
    }
    return false;
}

// ---- 3: a client/server pair on each of CPUs 1..n-1, each on its own channel ----
static int pair_chid[MAXCPU];
static volatile uint32_t pair_stop;
static volatile uint32_t pair_sent[MAXCPU], pair_served[MAXCPU], pair_bad[MAXCPU];

// Every fourth request is answered by MsgError, with an error number of its own (1..4000):
// the client's MsgSend must fail with that number, and only those.
static bool pair_fails(uint32_t v)
{
    return (v & 3u) == 0;
}

static uint32_t pair_errno(uint32_t v)
{
    return 1u + (v >> 2) % 4000u;
}

static int pair_server(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg, expect = 1;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
    for (;;) {
        union request rq = { 0 };
        int rcvid = MsgReceive(pair_chid[c], &rq, sizeof(rq), NULL);
        if (rcvid <= 0) {
            pair_bad[c]++;
            continue;
        }
        uint32_t v = rq.v, answer = v * 2u + 1u;
        if (v != QUIT) {
            if (v != expect)
                pair_bad[c]++;      // lost, repeated or out of order
            expect = v + 1u;
            pair_served[c]++;
        }
        if (v != QUIT && pair_fails(v))
            MsgError(rcvid, (int)pair_errno(v));
        else
            MsgReply(rcvid, 0, &answer, sizeof(answer));
        if (v == QUIT)
            return 0;
    }
}

static int pair_client(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
    int coid = ConnectAttach(0, pair_chid[c]);
    for (uint32_t n = 1; !pair_stop; n++) {
        uint32_t answer = 0;
        int32_t r = MsgSend_r(coid, &n, sizeof(n), &answer, sizeof(answer));   // (errno is
        if (pair_fails(n) ? r != -(int32_t)pair_errno(n)        // the process's, not the thread's)
                          : r != 0 || answer != n * 2u + 1u)
            pair_bad[c]++;
        pair_sent[c]++;
    }
    uint32_t quit = QUIT, answer;
    MsgSend(coid, &quit, sizeof(quit), &answer, sizeof(answer));
    ConnectDetach(coid);
    return 0;
}

// Starts the pairs (below the clients of test 2 in priority: they run while those wait).
static void pairs_start(int *tids)
{
    for (uint32_t c = 1; c < ncpu; c++) {
        pair_chid[c] = ChannelCreate(0);
        tids[2 * c] = ThreadCreate(pair_server, (void *)(uintptr_t)c, pair_stacks[2 * c],
                                   sizeof(pair_stacks[0]), 20, 0);
        tids[2 * c + 1] = ThreadCreate(pair_client, (void *)(uintptr_t)c, pair_stacks[2 * c + 1],
                                       sizeof(pair_stacks[0]), 20, 0);
    }
}

static bool pairs_stop(const int *tids)
{
    uint32_t joined = 0, bad = 0, idle = 0, uneven = 0;
    pair_stop = 1;
    for (uint32_t c = 1; c < ncpu; c++) {
        joined += tids[2 * c + 1] > 0 && ThreadJoin(tids[2 * c + 1], NULL) == 0;
        joined += tids[2 * c] > 0 && ThreadJoin(tids[2 * c], NULL) == 0;
        ChannelDestroy(pair_chid[c]);
        bad += pair_bad[c];
        idle += pair_sent[c] == 0;
        uneven += pair_sent[c] != pair_served[c];
    }
    bool ok = joined == 2 * (ncpu - 1) && !bad && !idle && !uneven;
    printf("%s 3 - a client/server pair on each of CPUs 1..%lu, own channels, during the kills: "
           "%lu joined of %lu, %lu bad replies or out-of-order messages, %lu pairs idle, %lu "
           "whose client and server counts differ (CPU 1: %lu round trips)\n",
           ok ? "ok" : "not ok", (unsigned long)(ncpu - 1), (unsigned long)joined,
           (unsigned long)(2 * (ncpu - 1)), (unsigned long)bad, (unsigned long)idle,
           (unsigned long)uneven, (unsigned long)pair_sent[1]);
    return ok;
}

// Tests 2 to 4: servers on CPU 0 (with main), a client process with a thread on each other
// CPU killed mid-IPC again and again, messages flowing between kills (2), client/server pairs
// on their own channels meanwhile (3), then every server joined and no thread left over (4;
// threads0: those before). Returns how many failed.
static int kill_tests(uint32_t threads0)
{
    // Servers on CPU 0 (with main), clients on the others.
    chid = ChannelCreate(0);
    int stid[2];
    for (int i = 0; i < 2; i++)
        stid[i] = ThreadCreate(server, (void *)1u, stacks[CHURN_T + i], sizeof(stacks[0]), 90, 0);
    int pair_tids[2 * MAXCPU];
    pairs_start(pair_tids);
    uint32_t spawn_arg = (uint32_t)chid | ncpu << 16;
    int peer = ProcSpawn("st_peer", 0, spawn_arg);
    uint32_t killed_ok = 0, flowed = 0;
    for (uint32_t k = 0; k < KILLS; k++) {
        flowed += messages_flow();
        int st;
        if (st_kill_reported(peer, &st))
            killed_ok++;
        else
            printf("# st_peer: pid %d status %#x\n", peer, st);
        peer = ProcSpawn("st_peer", 0, spawn_arg);
    }
    flowed += messages_flow();
    bool ok2 = killed_ok == KILLS && flowed == KILLS + 1;
    printf("%s 2 - a client with a thread on each of CPUs 1..%lu killed mid-IPC %u times: %lu "
           "reported killed by KSIG_KILL; messages flowed before each kill and after the last "
           "(%lu of %u; %lu received)\n", ok2 ? "ok" : "not ok", (unsigned long)(ncpu - 1),
           KILLS, (unsigned long)killed_ok, (unsigned long)flowed, KILLS + 1,
           (unsigned long)received);
    bool ok4 = pairs_stop(pair_tids);
    int st;
    if (peer > 0 && ProcKill(peer) == 0)
        ProcWait(peer, &st);
    int coid = ConnectAttach(0, chid);
    uint32_t quit = QUIT, r;
    int joined = 0;
    for (int i = 0; i < 2; i++)
        MsgSend(coid, &quit, sizeof(quit), &r, sizeof(r));
    for (int i = 0; i < 2; i++)
        joined += stid[i] > 0 && ThreadJoin(stid[i], NULL) == 0;
    ConnectDetach(coid);
    ChannelDestroy(chid);
    ThreadSleep(1000000);           // killed processes' threads end on their own CPUs
    uint32_t threads1 = live_threads();
    bool ok3 = joined == 2 && threads1 == threads0;
    printf("%s 4 - the servers ended and were joined; threads before %lu, after %lu\n",
           ok3 ? "ok" : "not ok", (unsigned long)threads0, (unsigned long)threads1);
    return !ok2 + !ok3 + !ok4;
}

// The tests a command line may run alone ("smpstress pulse wake"), a bit each.
enum only {
    ONLY_PULSE = 1u << 0, ONLY_WAKE = 1u << 1, ONLY_ERROR = 1u << 2, ONLY_TIMED = 1u << 3,
    ONLY_IDLE = 1u << 4, ONLY_PI = 1u << 5, ONLY_IRQ = 1u << 6, ONLY_LOCAL = 1u << 7,
    ONLY_CONSOLE = 1u << 8, ONLY_XWAKE = 1u << 9,
};

// The arguments: the tests to run alone into *only (0: all), virtual time (icount) into
// *virtual_time, and the settings of the tests. 0, or 2 after saying which is unknown.
static int args_read(int argc, char **argv, unsigned *only, bool *virtual_time)
{
    static const struct { const char *name; unsigned bit; } tests[] = {
        { "pulse", ONLY_PULSE }, { "wake", ONLY_WAKE }, { "error", ONLY_ERROR },
        { "timed", ONLY_TIMED }, { "idle", ONLY_IDLE }, { "pi", ONLY_PI }, { "irq", ONLY_IRQ },
        { "local", ONLY_LOCAL }, { "console", ONLY_CONSOLE }, { "xwake", ONLY_XWAKE },
    };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned t = 0;
        while (t < sizeof(tests) / sizeof(tests[0]) && strcmp(a, tests[t].name))
            t++;
        if (t < sizeof(tests) / sizeof(tests[0]))
            *only |= tests[t].bit;
        else if (!strcmp(a, "icount"))
            *virtual_time = true;
        else if (!strcmp(a, "wake-sleepers"))
            *only |= ONLY_WAKE, wake_no_pulses = 1;
        else if (!strcmp(a, "hold"))
            wake_hold_on_stall = 1;
        else if (!strncmp(a, "seed=", 5))
            sleep_seed = (uint32_t)strtoul(a + 5, NULL, 0);
        else if (!strncmp(a, "refusal-sleep=", 14))
            pulse_refusal_sleep_ns = strtoul(a + 14, NULL, 0);
        else {
            printf("not ok - smpstress: unknown argument '%s' (icount, pulse, wake, error, "
                   "timed, idle, pi, irq, local, console, xwake, wake-sleepers, hold, seed=N, "
                   "refusal-sleep=NS)\n", a);
            return 2;
        }
    }
    return 0;
}

// The tests the command line named, alone: the number that failed.
static int only_run(unsigned only, bool vt)
{
    int f = only & ONLY_PULSE ? !pulse_test(ncpu, 9, vt) : 0;
    f += only & ONLY_WAKE ? !wake_test(ncpu, 10, vt) : 0;
    f += only & ONLY_ERROR ? !error_test(ncpu, 11, stacks[0], sizeof(stacks[0]), vt) : 0;
    f += only & ONLY_TIMED ? !timed_test(ncpu, 12, stacks[0], sizeof(stacks[0]), vt) : 0;
    f += only & ONLY_IDLE ? !idle_test(ncpu, 13, vt) : 0;
    f += only & ONLY_PI ? st_pi_tests(ncpu, &stacks[0][0], sizeof(stacks[0])) : 0;
    f += only & ONLY_IRQ ? !irq_test(18, vt) : 0;
    f += only & ONLY_LOCAL ? !local_test(ncpu, 19, stacks[0], sizeof(stacks[0]), vt) : 0;
    f += only & ONLY_CONSOLE ? !console_test(ncpu, 20, stacks[0], sizeof(stacks[0]), vt) : 0;
    f += only & ONLY_XWAKE ? !xwake_test(ncpu, 21, stacks[0], sizeof(stacks[0])) : 0;
    return f;
}

// Every test, 1 to 20 in their order: the number that failed.
static int all_run(bool virtual_time)
{
    printf("1..20\n");
    uint32_t threads0 = live_threads();
    int fails = !check_churn();
    fails += st_sync_tests(ncpu);
    // (Right after test 8, before anything else uses the stacks.)
    fails += st_pi_tests(ncpu, &stacks[0][0], sizeof(stacks[0]));

    fails += kill_tests(threads0);
    fails += !pulse_test(ncpu, 9, virtual_time);
    fails += !wake_test(ncpu, 10, virtual_time);
    // (test 1's, long joined)
    fails += !error_test(ncpu, 11, stacks[0], sizeof(stacks[0]), virtual_time);
    fails += !timed_test(ncpu, 12, stacks[0], sizeof(stacks[0]), virtual_time);
    fails += !idle_test(ncpu, 13, virtual_time);
    fails += !irq_test(18, virtual_time);
    // (test 1's, long joined; the same)
    fails += !local_test(ncpu, 19, stacks[0], sizeof(stacks[0]), virtual_time);
    fails += !console_test(ncpu, 20, stacks[0], sizeof(stacks[0]), virtual_time);
    return fails;
}

int main(void)
{
    SysInfo(KSYSINFO_NCPUS, &ncpu);
    if (ncpu > MAXCPU)
        ncpu = MAXCPU;
    if (ncpu < 2) {
        printf("1..0 # SKIP one CPU\n");
        return 0;
    }
    // (the whole boot's line: under dtrace and appinit, test_states_cpus.sh's holds theirs too)
    static char buf[320];
    char *argv[24];
    int argc = kargs("smpstress", buf, sizeof(buf), argv, 24);
    if (argc < 0) {
        printf("not ok - smpstress: the command line does not fit its %u bytes\n",
               (unsigned)sizeof(buf));
        return 2;
    }
    unsigned only = 0;
    bool virtual_time = false;
    if (args_read(argc, argv, &only, &virtual_time) != 0)
        return 2;
    int fails = only ? only_run(only, virtual_time) : all_run(virtual_time);
    printf("smpstress: done\n");
    return fails;
}
