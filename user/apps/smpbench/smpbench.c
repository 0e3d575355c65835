// SPDX-License-Identifier: MIT
// smpbench: what tracing and messages cost on several CPUs (scripts/bench-smp.sh runs it with
// 1, 2 and 4 CPUs under -icount shift=0). Under -icount QEMU runs the CPUs in turn and one
// nanosecond of virtual time is one instruction on whichever CPU runs, so every figure here is
// instructions summed over the CPUs. Prints "BENCH <name> <value> <unit>" lines:
//   smp_trace_event_insns_<n>cpu  one worker per CPU, each bound to its CPU, runs the kernel's
//       own measuring loop (KTRACE_BENCH: 4096 simple events written into its CPU's buffer, less
//       the same loop without them): the event's cost when every CPU writes events in turn.
//   smp_kernel_event_insns_<n>cpu  one worker per CPU, each bound to its CPU (ThreadCtl), makes
//       null kernel calls with class KER_CALL traced (fast: 2 events a call) and then with
//       tracing stopped: (traced - untraced) / events generated. Equal for 1, 2 and 4 CPUs
//       means the CPUs' trace buffers cost nothing to share.
//   smp_kernel_events_per_s_<n>cpu  events generated per second of virtual time, all CPUs.
//   smp_kernel_events_cpu<k>_<n>cpu  events CPU k recorded (the check that each wrote its own).
//   msg_roundtrip_same_cpu_insns, msg_roundtrip_cross_cpu_insns  MsgSend to a server thread
//       bound to the client's CPU, then to CPU 1 (the client stays on CPU 0), tracing off.
// `smpbench pairs` (QEMU_ARGS) measures instead, on whatever clock the run has (bench-smp.sh
// runs it with QEMU_ICOUNT=none: the host's):
//   smp_msg_roundtrips_per_s_<n>pair  n client/server pairs (1, then 2), each pair's two
//       threads bound to its own CPU with ThreadCtl, each pair on its own channel: round trips
//       per second of the counter, all pairs together, the median of 5 phases (one pair's and
//       two pairs' phases in turn, so that a changing host load weighs on both). Two pairs at
//       twice one pair's rate means message passing on different CPUs does not serialise.
//   smp_msg_exclusive_entries_per_1000_roundtrips_<n>pair, smp_msg_shared_calls_per_1000_...
//       how the pairs' kernel entries ran (SysInfo's counts; kernel/klock.h): under the
//       big lock's exclusive side, or in its shared mode; deterministic under -icount.
//   smp_msg_{exclusive_entries,ipis,ticks}_per_100k_roundtrips_<n>pair  the same exclusive
//       entries, the reschedule IPIs the CPUs took and the kernel's ticks meanwhile (SysInfo):
//       exclusive entries beyond the ticks and the setup, and IPIs, are work one pair makes
//       for the other's CPU (docs/smp.md, "Cache lines").
//   smp_msg_ticks_shared_per_100k_roundtrips_<n>pair  of those ticks, the ones taken on the
//       shared side (SysInfo KSYSINFO_TICKS_SHARED; the rest were exclusive entries).
// `smpbench sync` the same for mutexes and semaphores (kernel/sync.c's shared side):
//   smp_sync_ops_per_s_<n>pair  n pairs of threads, each pair bound to its own CPU with its own
//       mutex and two semaphores; an operation is one thread's MutexLock, MutexUnlock, SemPost
//       to its partner and SemWait for the partner's post (so each blocks and is woken once).
//   smp_sync_exclusive_entries_per_1000_ops_<n>pair, smp_sync_shared_calls_per_1000_ops_<n>pair
//       as for the message pairs.
// `smpbench pulses`: the same for pulses (sb_pulses.c).
// `smpbench dcount [ROUNDS]`: a pair per CPU, once, for a D program's counts to be held to
// (test/qemu/test_dshared.sh; dcount below). Under a D program (image smpbenchd: dtrace -c
// smpbench) `smpbench pairs` gives bench-smp.sh's smp_msg_..._dtrace_<n>pair figures.
#include <kern.h>
#include <string.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <trace/kev.h>
#include "sb_pairs.h"
#include "sb_pulses.h"
#include "sb_runq.h"

#define MAXW 4
#define CALLS 16000u
#define ROUNDS 2000u
#define STACK 2048

// MAXW + 1 (a worker per CPU, and the roundtrip's server at MAXW), and a server per pair past
// them (pairs_phase_of: dcount runs MAXW pairs, whose clients take the first MAXW).
static KSTACK(stacks[2 * MAXW + 1], STACK);
static volatile uint32_t ready_n, go, done_n;
static volatile uint64_t end_cycles[MAXW];
static volatile uint32_t bench_kind;    // KTRACE_BENCH_*, or ~0: null kernel calls
#define HOOK_CALLS 32u
#ifndef SB_BUFS
#define SB_BUFS 32
#endif

// Virtual nanoseconds (= instructions summed over the CPUs) for `cycles` of the counter.
static uint64_t insns(uint64_t cycles)
{
    uint64_t hz = ClockCyclesPerSec();
    return cycles / hz * 1000000000u + cycles % hz * 1000000000u / hz;
}

static int worker(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << k));
    __atomic_add_fetch(&ready_n, 1, __ATOMIC_SEQ_CST);
    while (!go)
        ;
    if (bench_kind == ~0u)
        for (uint32_t i = 0; i < CALLS; i++)
            KCALL0(KC_Null);
    else
        for (uint32_t i = 0; i < HOOK_CALLS; i++)
            TraceEvent(KTRACE_BENCH, bench_kind, KTRACE_BENCH_MAX, 0);
    end_cycles[k] = ClockCycles();
    return 0;
}

// A phase's start: once its `threads` threads are ready (each spinning until `go`), the counter,
// read just before they are let go.
static uint64_t phase_start(uint32_t threads)
{
    while (ready_n < threads)
        ThreadSleep(1000000);
    uint64_t t0 = ClockCycles();
    go = 1;
    return t0;
}

// One phase: every CPU's worker makes CALLS null calls at once; cycles from the start to the
// last worker's end. The main thread waits on CPU 0's worker's CPU, blocked in ThreadJoin.
static uint64_t phase(uint32_t n, uint32_t kind)
{
    int tids[MAXW];
    bench_kind = kind;
    ready_n = 0;
    go = 0;
    for (uint32_t k = 0; k < n; k++)
        tids[k] = ThreadCreate(worker, (void *)(uintptr_t)k, stacks[k], sizeof(stacks[0]), 50, 0);
    uint64_t t0 = phase_start(n), last = t0;
    for (uint32_t k = 0; k < n; k++) {
        ThreadJoin(tids[k], NULL);
        if (end_cycles[k] > last)
            last = end_cycles[k];
    }
    return last - t0;
}

// The median of RUNS phases: QEMU's turns between the CPUs make single runs vary.
#define RUNS 5
// v[0..r-1] sorted; v[r] goes to its place.
static void sort_in(uint64_t *v, int r)
{
    for (int i = r; i > 0 && v[i] < v[i - 1]; i--) {
        uint64_t x = v[i];
        v[i] = v[i - 1];
        v[i - 1] = x;
    }
}

static uint64_t phase_median(uint32_t n, uint32_t kind)
{
    uint64_t v[RUNS];
    for (int r = 0; r < RUNS; r++) {
        v[r] = phase(n, kind);
        sort_in(v, r);
    }
    return v[RUNS / 2];
}

static void kernel_events(uint32_t n)
{
    if (TraceEvent(KTRACE_ALLOCBUFFER, SB_BUFS, 0, 0) != SB_BUFS) {
        printf("smpbench: cannot allocate %d trace buffers\n", SB_BUFS);
        return;
    }
    TraceEvent(KTRACE_SETPOLICY, KTRACE_POLICY_RING, 0, 0);    // wraps: no logger needed
    TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0);
    TraceEvent(KTRACE_SETALLCLASSESFAST, 0, 0, 0);
    // The event inside the kernel: class USER on, KTRACE_BENCH on every CPU.
    TraceEvent(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    uint64_t loop = phase_median(n, KTRACE_BENCH_LOOP), ev = phase_median(n, KTRACE_BENCH_SIMPLE);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0);
    uint64_t hooks = (uint64_t)n * HOOK_CALLS * KTRACE_BENCH_MAX;
    if (ev > loop)
        printf("BENCH smp_trace_event_insns_%lucpu %s insns\n", (unsigned long)n,
               u64txt((insns(ev - loop) + hooks / 2) / hooks).s);
    TraceEvent(KTRACE_ADDCLASS, KEV_C_KER_CALL, 0, 0);
    TraceEvent(KTRACE_SETALLCLASSESFAST, 0, 0, 0);
    uint64_t off = phase_median(n, ~0u);
    struct ktrace_query q0, q1;
    TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q0, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    uint64_t on = phase_median(n, ~0u);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q1, 0, 0);
    uint64_t events = (q1.generated - q0.generated + RUNS / 2) / RUNS;
    if (!events || on <= off) {
        printf("smpbench: no events (%s) or no cost\n", u64txt(events).s);
        return;
    }
    uint64_t d = insns(on) - insns(off);
    printf("BENCH smp_kernel_event_insns_%lucpu %s insns\n", (unsigned long)n,
           u64txt((d + events / 2) / events).s);
    printf("BENCH smp_kernel_events_per_s_%lucpu %s events/s\n", (unsigned long)n,
           u64txt(events * ClockCyclesPerSec() / on).s);
    for (uint32_t k = 0; k < n && k < KTRACE_QUERY_CPUS; k++) {
        struct ktrace_cpu_counts *a = &q1.cpu[k], *b = &q0.cpu[k];
        uint64_t e = (a->recorded + a->dropped + a->overwritten -
                      (b->recorded + b->dropped + b->overwritten) + RUNS / 2) / RUNS;
        printf("BENCH smp_kernel_events_cpu%lu_%lucpu %s events\n", (unsigned long)k,
               (unsigned long)n, u64txt(e).s);
    }
    TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
}

static int chid;

static int server(void *arg)
{
    ThreadCtl(KTCTL_RUNMASK, arg);
    for (;;) {
        union {
            uint32_t v;
            struct kpulse p;    // a receive buffer must be able to hold a pulse
        } u;
        int rcvid = MsgReceive(chid, &u, sizeof(u), NULL);
        if (rcvid <= 0)
            return 0;
        MsgReply(rcvid, 0, NULL, 0);
        if (u.v == 0)
            return 0;
    }
}

// Instructions per round trip to a server bound to CPU `cpu` (the client is on CPU 0).
static uint64_t roundtrip(uint32_t cpu)
{
    chid = ChannelCreate(0);
    int st = ThreadCreate(server, (void *)(uintptr_t)(1u << cpu), stacks[MAXW],
                          sizeof(stacks[0]), 100, 0);
    int coid = ConnectAttach(0, chid);
    uint32_t one = 1, zero = 0;
    MsgSend(coid, &one, sizeof(one), NULL, 0);      // the server is on its CPU from here
    uint64_t t0 = ClockCycles();
    for (uint32_t i = 0; i < ROUNDS; i++)
        MsgSend(coid, &one, sizeof(one), NULL, 0);
    uint64_t c = ClockCycles() - t0;
    MsgSend(coid, &zero, sizeof(zero), NULL, 0);
    ThreadJoin(st, NULL);
    ConnectDetach(coid);
    ChannelDestroy(chid);
    return (insns(c) + ROUNDS / 2) / ROUNDS;
}

// ---- pairs: round trips per second of n client/server pairs, a pair per CPU ----
// Round trips per pair and phase: about a second of the host's clock for one pair (about
// 180 000 a second; at 20 000 a phase lasts 0.1 s, and a 2-pair phase, which ends with its
// slower pair, catches the host's every hiccup).
#define PAIR_ROUNDS 160000u
// Round trips per client in a phase: PAIR_ROUNDS, or dcount's own (below).
static volatile uint32_t pair_rounds = PAIR_ROUNDS;

int pair_chid[MAXW];

// A pair's client: ready, then waits for the phase's start (sb_pairs.h).
void pair_ready_wait_go(void)
{
    __atomic_add_fetch(&ready_n, 1, __ATOMIC_SEQ_CST);
    while (!go)
        ;
}

void pair_done(uint32_t k)
{
    end_cycles[k] = ClockCycles();
}

static int pair_server(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << k));
    for (;;) {
        union pair_msg u;
        int rcvid = MsgReceive(pair_chid[k], &u, sizeof(u), NULL);
        if (rcvid <= 0)
            return 0;
        MsgReply(rcvid, 0, NULL, 0);
        if (u.v == 0)
            return 0;
    }
}

static int pair_client(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << k));
    int coid = ConnectAttach(0, pair_chid[k]);
    uint32_t one = 1, zero = 0;
    MsgSend(coid, &one, sizeof(one), NULL, 0);      // both threads on CPU k from here
    pair_ready_wait_go();
    for (uint32_t i = 0, n = pair_rounds; i < n; i++)
        MsgSend(coid, &one, sizeof(one), NULL, 0);
    pair_done(k);
    MsgSend(coid, &zero, sizeof(zero), NULL, 0);
    ConnectDetach(coid);
    return 0;
}

// Counter cycles from the start to the last pair's end, n pairs at once (sb_pairs.h).
uint64_t pairs_phase_of(uint32_t n, int (*server)(void *), int server_prio,
                        int (*client)(void *), int client_prio)
{
    int cl[MAXW], sv[MAXW];
    ready_n = 0;
    go = 0;
    for (uint32_t k = 0; k < n; k++) {
        pair_chid[k] = ChannelCreate(0);
        sv[k] = ThreadCreate(server, (void *)(uintptr_t)k, stacks[MAXW + 1 + k], sizeof(stacks[0]),
                             server_prio, 0);
        cl[k] = ThreadCreate(client, (void *)(uintptr_t)k, stacks[k],
                             sizeof(stacks[0]), client_prio, 0);
    }
    uint64_t t0 = phase_start(n), last = t0;
    for (uint32_t k = 0; k < n; k++) {
        ThreadJoin(cl[k], NULL);
        ThreadJoin(sv[k], NULL);
        if (end_cycles[k] > last)
            last = end_cycles[k];
        ChannelDestroy(pair_chid[k]);
    }
    return last - t0;
}

uint32_t sysinfo(uint32_t what)
{
    uint32_t v = 0;
    SysInfo(what, &v);
    return v;
}

// ---- sync: mutex and semaphore operations per second of n pairs of threads, a pair per CPU ----
#define SYNC_ROUNDS 10000u

static int sync_mutex[MAXW], sync_sem[MAXW][2];

// Thread `side` (0 or 1) of pair k: lock and unlock the pair's mutex, post the partner's
// semaphore, wait on its own; SYNC_ROUNDS times.
static int sync_thread(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg >> 1, side = (uint32_t)(uintptr_t)arg & 1u;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << k));
    __atomic_add_fetch(&ready_n, 1, __ATOMIC_SEQ_CST);
    while (!go)
        ;
    int m = sync_mutex[k], mine = sync_sem[k][side], partner = sync_sem[k][side ^ 1u];
    for (uint32_t i = 0; i < SYNC_ROUNDS; i++) {
        MutexLock(m);
        MutexUnlock(m);
        SemPost(partner);
        SemWait(mine);
    }
    SemPost(partner);           // its last wait
    end_cycles[k] = ClockCycles();
    return 0;
}

// Counter cycles from the start to the last pair's end, n pairs at once.
static uint64_t sync_phase(uint32_t n)
{
    int tid[MAXW][2];
    ready_n = 0;
    go = 0;
    for (uint32_t k = 0; k < n; k++) {
        sync_mutex[k] = MutexCreate();
        sync_sem[k][0] = SemCreate(0);
        sync_sem[k][1] = SemCreate(0);
        for (uint32_t side = 0; side < 2; side++)
            tid[k][side] = ThreadCreate(sync_thread, (void *)(uintptr_t)(k << 1 | side),
                                        side ? stacks[MAXW - 1 - k] : stacks[k],
                                        sizeof(stacks[0]), 60, 0);
    }
    uint64_t t0 = phase_start(2 * n), last = t0;
    for (uint32_t k = 0; k < n; k++) {
        ThreadJoin(tid[k][0], NULL);
        ThreadJoin(tid[k][1], NULL);
        if (end_cycles[k] > last)
            last = end_cycles[k];
        MutexDestroy(sync_mutex[k]);
        SemDestroy(sync_sem[k][0]);
        SemDestroy(sync_sem[k][1]);
    }
    return last - t0;
}

// What a pairs mode measures: a phase of n pairs, the operations one pair does in it, and the
// names of its BENCH lines (smp_<what>_..._per_1000_<unit>s_<n>pair).
struct pair_bench {
    uint64_t (*phase)(uint32_t n);
    uint32_t ops;
    const char *what, *unit;
};

static uint64_t msg_phase(uint32_t n)
{
    return pairs_phase_of(n, pair_server, 60, pair_client, 60);
}

static const struct pair_bench msg_pairs = { msg_phase, PAIR_ROUNDS, "msg", "roundtrip" };
static const struct pair_bench sync_pairs = { sync_phase, 2 * SYNC_ROUNDS, "sync", "op" };

// count per `scale` of `of`, rounded, as text.
static struct u64txt per(uint32_t count, uint64_t of, uint32_t scale)
{
    return u64txt(((uint64_t)count * scale + of / 2) / of);
}

// One pair's phases and two pairs' phases taken in turn (1, 2, 1, 2, ...), so that a host
// whose load changes during the run weighs on both alike; the median of each.
static void pairs(uint32_t ncpu, const struct pair_bench *pb)
{
    uint32_t np = ncpu < 2 ? 1 : 2;
    uint64_t v[2][RUNS];
    uint32_t excl[2] = { 0, 0 }, shared[2] = { 0, 0 }, ipis[2] = { 0, 0 }, ticks[2] = { 0, 0 };
    uint32_t ticks_sh[2] = { 0, 0 };
    struct runq_counts rq[2] = { { 0, 0, 0 }, { 0, 0, 0 } }, rq0;
    for (int r = 0; r < RUNS; r++)
        for (uint32_t n = 1; n <= np; n++) {
            uint32_t e0 = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE);
            uint32_t s0 = sysinfo(KSYSINFO_KCALLS_SHARED);
            uint32_t i0 = sysinfo(KSYSINFO_IPIS), t0 = sysinfo(KSYSINFO_TICKS);
            uint32_t ts0 = sysinfo(KSYSINFO_TICKS_SHARED);
            runq_snap(&rq0);
            v[n - 1][r] = pb->phase(n);
            runq_add_since(&rq[n - 1], &rq0);
            sort_in(v[n - 1], r);
            excl[n - 1] += sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE) - e0;
            shared[n - 1] += sysinfo(KSYSINFO_KCALLS_SHARED) - s0;
            ipis[n - 1] += sysinfo(KSYSINFO_IPIS) - i0;
            ticks[n - 1] += sysinfo(KSYSINFO_TICKS) - t0;
            ticks_sh[n - 1] += sysinfo(KSYSINFO_TICKS_SHARED) - ts0;
        }
    for (uint32_t n = 1; n <= np; n++) {
        uint64_t c = v[n - 1][RUNS / 2] ? v[n - 1][RUNS / 2] : 1;
        printf("BENCH smp_%s_%ss_per_s_%lupair %s %ss/s\n", pb->what, pb->unit,
               (unsigned long)n, u64txt((uint64_t)n * pb->ops * ClockCyclesPerSec() / c).s,
               pb->unit);
        // Where the operations' kernel calls ran: exclusive entries (the big lock's way: every
        // one) and calls finished in shared mode, per 1000 operations, setup included.
        uint64_t trips = (uint64_t)n * pb->ops * RUNS;
        printf("BENCH smp_%s_exclusive_entries_per_1000_%ss_%lupair %s entries\n", pb->what,
               pb->unit, (unsigned long)n, per(excl[n - 1], trips, 1000u).s);
        printf("BENCH smp_%s_shared_calls_per_1000_%ss_%lupair %s calls\n", pb->what, pb->unit,
               (unsigned long)n, per(shared[n - 1], trips, 1000u).s);
        // Exclusive entries, reschedule IPIs taken and the kernel's ticks, per 100 000
        // operations (finer than the above): pairs bound to their own CPUs make no work for
        // another, so the IPIs should be 0 and the exclusive entries the ticks (one CPU takes
        // each, exclusive; the others' shares are shared) and the phases' setup.
        printf("BENCH smp_%s_exclusive_entries_per_100k_%ss_%lupair %s entries\n", pb->what,
               pb->unit, (unsigned long)n, per(excl[n - 1], trips, 100000u).s);
        printf("BENCH smp_%s_ipis_per_100k_%ss_%lupair %s ipis\n", pb->what, pb->unit,
               (unsigned long)n, per(ipis[n - 1], trips, 100000u).s);
        printf("BENCH smp_%s_ticks_per_100k_%ss_%lupair %s ticks\n", pb->what, pb->unit,
               (unsigned long)n, per(ticks[n - 1], trips, 100000u).s);
        // Of those ticks, the ones counted on the shared side (no timer due, untraced): the
        // rest were exclusive entries (docs/smp.md, "The tick").
        printf("BENCH smp_%s_ticks_shared_per_100k_%ss_%lupair %s ticks\n", pb->what, pb->unit,
               (unsigned long)n, per(ticks_sh[n - 1], trips, 100000u).s);
        runq_print(n, &rq[n - 1], trips);     // (a KLOCK_STATS kernel's: sb_runq.c)
    }
}

// `smpbench dcount [ROUNDS]` (test/qemu/test_dshared.sh, under a D program that counts the
// messages): one phase of a pair per CPU, every pair at once, ROUNDS round trips each (20000):
// each client makes ROUNDS + 2 MsgSends (one to start, one to end), the truth the D program's
// counts are held to; and how the phase's kernel entries ran (SysInfo's counts, as pairs).
static void dcount(uint32_t ncpu, uint32_t rounds)
{
    pair_rounds = rounds;
    uint32_t e0 = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE), s0 = sysinfo(KSYSINFO_KCALLS_SHARED);
    msg_phase(ncpu);
    uint32_t e = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE) - e0;
    uint32_t s = sysinfo(KSYSINFO_KCALLS_SHARED) - s0;
    printf("smpbench: dcount %lu pairs, %lu round trips each, %lu sends, %lu round trips, "
           "%lu exclusive entries, %lu shared calls\n", (unsigned long)ncpu,
           (unsigned long)rounds, (unsigned long)(ncpu * (rounds + 2u)),
           (unsigned long)(ncpu * rounds), (unsigned long)e, (unsigned long)s);
}

int main(void)
{
    uint32_t n = 1;
    SysInfo(KSYSINFO_NCPUS, &n);
    if (n > MAXW)
        n = MAXW;
    ThreadCtl(KTCTL_RUNMASK, (void *)1u);
    // The whole boot command line is read and split (user/lib/kargs.c): room for the part of
    // a dtrace that starts smpbench (its image smpbenchd, scripts/bench-smp.sh).
    static char buf[512];
    char *argv[48];
    int argc = kargs("smpbench", buf, sizeof(buf), argv, 48);
    if (argc > 0 && !strcmp(argv[argc - 1], "pairs")) {
        printf("smpbench: %lu CPUs, pairs\n", (unsigned long)n);
        pairs(n, &msg_pairs);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "dcount")) {
        uint32_t rounds = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 20000u;
        dcount(n, rounds ? rounds : 20000u);
        return 0;
    }
    if (argc > 0 && !strcmp(argv[argc - 1], "sync")) {
        printf("smpbench: %lu CPUs, sync\n", (unsigned long)n);
        pairs(n, &sync_pairs);
        return 0;
    }
    if (argc > 0 && !strcmp(argv[argc - 1], "pulses")) {
        printf("smpbench: %lu CPUs, pulses\n", (unsigned long)n);
        pulses_bench(n);
        return 0;
    }
    printf("smpbench: %lu CPUs\n", (unsigned long)n);
    kernel_events(n);
    printf("BENCH msg_roundtrip_same_cpu_insns_%lucpu %s insns\n", (unsigned long)n,
           u64txt(roundtrip(0)).s);
    if (n > 1)
        printf("BENCH msg_roundtrip_cross_cpu_insns_%lucpu %s insns\n", (unsigned long)n,
               u64txt(roundtrip(1)).s);
    return 0;
}
