// SPDX-License-Identifier: MIT
// tflood: pid 1 of the logger stress image. Starts the tracelogger (its options come from
// the semihosting command line, e.g. "-d1 -k 4 -x bufpolicy=switch -x delay=20"), traces only
// class USER, inserts a flood of user events (payload: their sequence number), stops, and
// prints what the kernel counted, so that the host can check the file against it:
//   tflood: generated G recorded R dropped D overwritten O
// "-A flood=N" on the same command line sets N (default 20000); "-A threads=T" floods from T
// threads at once, N events each (default 1; on several CPUs they run side by side: payload
// (thread << 24) | sequence); "-A pin=C" binds flooder k to CPU (C + k) mod the CPU count, and
// "-A migrate=M" moves each flooder to the next CPU after every M of its events (ThreadCtl:
// a thread changing CPUs in mid-trace); "-A classes=M" traces the classes of bit mask M too;
// "-A kstamp=1" has the kernel stamp the events at the drain (TraceUserEventAt with time 0:
// no clock read per insert; the BENCH lines of -A smpbench=1 then carry a _kstamp suffix);
// "-A bench=1" also prints the logger's sustained rate as BENCH lines (run under -icount
// shift=0); "-A respawn=T" floods from T threads run one after another instead, each on its
// own stack, N events each, payload (k << 24) | sequence for thread k = 1..T, "-A spawners=S"
// created by S threads at once, "-A idle=1" each after a thread that inserts nothing
// (tf_respawn.c); "-A pace=MS" sleeps MS between events, a quiet system for the logger's
// flush interval (test/qemu/test_stream_live.sh).
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev.h>
#include "tf_respawn.h"

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);

static uint32_t arg_value(const char *cmd, const char *key, uint32_t dflt)
{
    const char *p = strstr(cmd, key);
    return p ? (uint32_t)strtoul(p + strlen(key), NULL, 10) : dflt;
}

#define MAX_FLOODERS 4
static uint32_t flood_n, flood_pin = ~0u, flood_migrate, flood_pace, ncpus = 1;
static bool kstamp;
static KSTACK(flood_stacks[MAX_FLOODERS], 512);

static void go_to_cpu(uint32_t cpu)
{
    if (ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << (cpu % ncpus))) < 0)
        printf("tflood: cannot move to CPU %lu\n", (unsigned long)(cpu % ncpus));
}

static void flood(uint32_t who)
{
    uint32_t cpu = flood_pin == ~0u ? who : flood_pin + who;
    if (flood_pin != ~0u)
        go_to_cpu(cpu);
    for (uint32_t i = 0; i < flood_n; i++) {
        if (flood_migrate && i && i % flood_migrate == 0)
            go_to_cpu(++cpu);
        if (kstamp)
            TraceUserEventAt(1, 0, who << 24 | i, 0);
        else
            TraceEvent(KTRACE_INSERTSUSEREVENT, 1, who << 24 | i, 0);
        if (flood_pace)
            ThreadSleep((uint64_t)flood_pace * 1000000u);
    }
}

static int flooder(void *arg)
{
    flood((uint32_t)(uintptr_t)arg);
    return 0;
}

// The tracelogger spawned, once it is ready, and tracing started with the user class and the
// classes=M of cmd. Returns its pid, or minus main's exit status (its wait status in *st
// when it exited).
static int start_logger(const char *cmd, int *st)
{
    int logger = ProcSpawn("tracelogger", 0, 0);
    if (logger < 0) {
        printf("tflood: no tracelogger\n");
        return -1;
    }
    // Wait for the logger to be ready (its buffers allocated and the control shared), or
    // gone (it rejected its options: report its status). On one CPU it is one or the other
    // already; on several it runs beside us: up to a second.
    for (int tries = 0; tries < 1000; tries++) {
        TimerTimeout(1);
        if (ProcWait(logger, st) == logger) {
            printf("tflood: tracelogger exited with status %d\n", KW_EXITSTATUS(*st));
            return -3;
        }
        if (TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0) == 0 ||
            (errno != ECANCELED && errno != EPERM))
            break;
        ThreadSleep(1000000);
    }
    TraceEvent(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    // -A classes=M: also the classes whose bits are set in M (bit c: KEV_C_* number c; 24 is
    // INT and PR_TH), to see where the logger and the flooders ran when a flood loses events.
    uint32_t more = arg_value(cmd, "classes=", 0);
    for (unsigned c = 0; c < KEV_NCLASS; c++)
        if ((more >> c) & 1u)
            TraceEvent(KTRACE_ADDCLASS, c, 0, 0);
    if (TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0) < 0) {
        printf("tflood: cannot start tracing\n");
        return -1;
    }
    return logger;
}

// The flood's options from cmd into the flooders' settings; the number of flooders.
static uint32_t options_read(const char *cmd)
{
    uint32_t threads = arg_value(cmd, "threads=", 1);
    if (threads < 1 || threads > MAX_FLOODERS)
        threads = 1;
    flood_n = arg_value(cmd, "flood=", 20000);
    flood_pin = arg_value(cmd, "pin=", ~0u);
    flood_migrate = arg_value(cmd, "migrate=", 0);
    flood_pace = arg_value(cmd, "pace=", 0);
    kstamp = arg_value(cmd, "kstamp=", 0) != 0;
    SysInfo(KSYSINFO_NCPUS, &ncpus);
    if (!ncpus)
        ncpus = 1;
    return threads;
}

// What a flood measured: its events (n from each of its flooders; n is 0 when there is no
// rate to report), its cycles, and the kernel entries taken exclusive and the calls run
// shared meanwhile (kernel/klock.h).
struct flood_figures {
    uint64_t cycles;
    uint32_t n, threads, excl, shared;
};

// The flood: from f->threads flooders at once, or with -A respawn=T from T threads one after
// another (tf_respawn.c); its figures into f.
static void flood_all(const char *cmd, struct flood_figures *f)
{
    uint32_t excl0 = 0, shared0 = 0;
    SysInfo(KSYSINFO_KENTRIES_EXCLUSIVE, &excl0);
    SysInfo(KSYSINFO_KCALLS_SHARED, &shared0);
    uint64_t t0 = ClockCycles();
    uint32_t respawn = arg_value(cmd, "respawn=", 0);
    int tids[MAX_FLOODERS];
    if (respawn) {
        tf_respawn(respawn, f->n, arg_value(cmd, "spawners=", 1), arg_value(cmd, "idle=", 0) != 0);
        f->threads = 1;
        f->n = 0;      // no rate to report
    } else {
        for (uint32_t k = 1; k < f->threads; k++)
            tids[k] = ThreadCreate(flooder, (void *)(uintptr_t)k, flood_stacks[k],
                                   sizeof(flood_stacks[k]), 0, 0);
        flood(0);
        for (uint32_t k = 1; k < f->threads; k++)
            if (tids[k] > 0)
                ThreadJoin(tids[k], NULL);
    }
    f->cycles = ClockCycles() - t0;
    uint32_t excl1 = excl0, shared1 = shared0;
    SysInfo(KSYSINFO_KENTRIES_EXCLUSIVE, &excl1);
    SysInfo(KSYSINFO_KCALLS_SHARED, &shared1);
    f->excl = excl1 - excl0;
    f->shared = shared1 - shared0;
}

// The flood's BENCH lines: -A smpbench=1's and -A bench=1's (this one when the logger lost
// nothing, q).
static void bench_print(const char *cmd, const struct flood_figures *f,
                        const struct ktrace_query *q)
{
    // Events per second of all flooders together, and instructions per event. Under -icount
    // shift=0 one instruction is one nanosecond: the whole path (the inserting call, the
    // event, the logger's share). The counter's rate need not divide 10^9 (TIM2 on
    // netduinoplus2: 166666667 Hz), so whole seconds and the remainder are converted apart,
    // without overflow.
    uint64_t cycles = f->cycles, hz = ClockCyclesPerSec(), total = (uint64_t)f->n * f->threads;
    uint64_t rate = cycles ? total * hz / cycles : 0;
    uint64_t ns = cycles / hz * 1000000000u + cycles % hz * 1000000000u / hz;
    uint64_t insns = total ? (ns + total / 2) / total : 0;
    unsigned long threads = f->threads;
    // -A smpbench=1 (scripts/bench-smp.sh, ring mode: loss is the point): what one user
    // event costs, in instructions summed over the CPUs (under -icount the virtual CPUs run in
    // turn and time counts every CPU's instructions), with `threads` flooders at once; and
    // their events per second, meaningful without -icount: the counter then follows the
    // host's clock and the CPUs run at once (QEMU's threads, one per virtual CPU), so it grows
    // with CPUs as far as the host has cores for them.
    if (arg_value(cmd, "smpbench=", 0) && cycles) {
        const char *sfx = kstamp ? "_kstamp" : "";
        printf("BENCH smp_user_event_insns%s_%lucpu %s insns\n", sfx, threads, u64txt(insns).s);
        printf("BENCH smp_user_events_per_s%s_%lucpu %s events/s\n", sfx, threads,
               u64txt(rate).s);
        // how the flood's kernel entries ran (kernel/klock.h): exclusive entries serialise
        // the CPUs, shared calls (a full ring's drain) do not; per 100 000 events, all CPUs
        printf("BENCH smp_user_exclusive_entries_per_100k_events%s_%lucpu %s entries\n", sfx,
               threads, u64txt((uint64_t)f->excl * 100000u / total).s);
        printf("BENCH smp_user_shared_calls_per_100k_events%s_%lucpu %s calls\n", sfx,
               threads, u64txt((uint64_t)f->shared * 100000u / total).s);
    }
    if (arg_value(cmd, "bench=", 0) != 0 && q->dropped + q->overwritten == 0 && cycles) {
        printf("BENCH logger_lossless_events_per_s %s events/s\n", u64txt(rate).s);
        printf("BENCH logger_lossless_mb_per_s %s.%02lu MB/s\n",
               u64txt(rate * 16 / 1000000).s,
               (unsigned long)(rate * 16 / 10000 % 100));
        printf("BENCH logger_insns_per_event %s insns\n", u64txt(insns).s);
    }
}

int main(void)
{
    static char cmd[256];
    uintptr_t blk[2] = { (uintptr_t)cmd, sizeof(cmd) - 1 };   // words of the pointer size (semihosting)
    if (sys_semihost(0x15, (uintptr_t)blk) == 0)
        cmd[blk[1]] = '\0';
    struct flood_figures f = { 0 };
    f.threads = options_read(cmd);
    f.n = flood_n;

    int st = 0, logger = start_logger(cmd, &st);
    if (logger < 0)
        return -logger;
    flood_all(cmd, &f);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    struct ktrace_query q;
    TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0);
    printf("tflood: generated %s recorded %s dropped %s overwritten %s\n",
           u64txt(q.generated).s, u64txt(q.recorded).s,
           u64txt(q.dropped).s, u64txt(q.overwritten).s);
    ProcWait(logger, &st);
    bench_print(cmd, &f, &q);
    return KW_EXITED(st) ? KW_EXITSTATUS(st) : 4;
}
