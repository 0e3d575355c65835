// SPDX-License-Identifier: MIT
// kbench: kernel cost benchmarks. Run under QEMU with -icount shift=0, where one instruction
// takes one nanosecond of virtual time, so the 25 MHz cycle counter advances once every 40
// instructions: instructions = cycles * 1e9 / 25e6. Each figure is the median of 5 runs of
// N operations, and includes the loop around the call (a few instructions).
// Prints "BENCH <name> <value> insns". On a kernel built without trace hooks (the baseline
// image kbench_notrace) the names end in _notrace; with hooks, the kernel figures are given
// with tracing off, then on in fast and in wide mode (every class, ring policy), and the
// cost of one trace event is measured inside the kernel (KTRACE_BENCH), and of one flush of a
// buffer (the tracelogger's flush interval), and the events each
// operation records in fast mode are counted (KTRACE_QUERYEVENTS) so that the script can give
// the cost added per recorded event.
#include <board_user.h>
#include <kern.h>
#include <spin_turns.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <trace/kev.h>

#define RUNS 5

static uint32_t insns_per_ns;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// Instructions per operation for `cycles` spent on n operations.
static uint64_t per_op(uint64_t cycles, uint32_t n)
{
    return (cycles * insns_per_ns * 1000000000ull / ClockCyclesPerSec() + n / 2) / n;
}

static uint64_t median(uint64_t *v)
{
    qsort(v, RUNS, sizeof(v[0]), cmp_u64);
    return v[RUNS / 2];
}

static uint64_t bench_null(uint32_t n)
{
    uint64_t t0 = ClockCycles();
    for (uint32_t i = 0; i < n; i++)
        KCALL0(KC_Null);
    return ClockCycles() - t0;
}

static volatile int yield_stop;
static KSTACK(ystack, 1024);

static int yielder(void *arg)
{
    (void)arg;
    while (!yield_stop)
        ThreadYield();
    return 0;
}

// x86: the switch when both threads use the x87 unit between yields, so
// every switch hands the FPU over (kernel/arch/x86/fpu.c: one #NM trap, FXSAVE, FXRSTOR).
static inline __attribute__((always_inline)) void touch_fpu(const bool fpu)
{
#if defined(__i386__)
    if (fpu)
        __asm__ volatile("fld1\n\tfstp %%st(0)" ::: "memory");
#else
    (void)fpu;
#endif
}

static int yielder_fpu(void *arg)
{
    (void)arg;
    while (!yield_stop) {
        touch_fpu(true);
        ThreadYield();
    }
    return 0;
}

// Two threads of equal priority yielding to each other: every yield is one switch (with
// `fpu`, each touches the FPU before it yields). `fpu` is a constant at each call.
static inline __attribute__((always_inline)) uint64_t switch_loop(uint32_t n, const bool fpu)
{
    yield_stop = 0;
    ThreadSetPrio(0, 50, SCHED_POLICY_FIFO);
    int t = ThreadCreate(fpu ? yielder_fpu : yielder, NULL, ystack, sizeof(ystack), 50,
                         SCHED_POLICY_FIFO);
    ThreadYield();
    uint64_t t0 = ClockCycles();
    for (uint32_t i = 0; i < n; i++) {
        touch_fpu(fpu);
        ThreadYield();              // to the other thread, which yields back: 2 switches
    }
    uint64_t c = ClockCycles() - t0;
    yield_stop = 1;
    ThreadYield();
    ThreadJoin(t, NULL);
    ThreadSetPrio(0, 100, SCHED_POLICY_RR);
    return c / 2;
}

static uint64_t bench_switch(uint32_t n) { return switch_loop(n, false); }

#if defined(__i386__)
// Printed by the image without trace hooks only: the FPU's share of a switch.
static void fpu_benches(void)
{
    uint64_t v[RUNS];
    const uint32_t n = 4000;
    for (int r = 0; r < RUNS; r++)
        v[r] = per_op(switch_loop(n, true), n);
    printf("BENCH context_switch_fpu_insns_notrace %s insns\n", u64txt(median(v)).s);
}
#endif

static uint64_t bench_roundtrip(int coid, uint32_t n)
{
    uint64_t t0 = ClockCycles();
    for (uint32_t i = 0; i < n; i++)
        MsgSend(coid, NULL, 0, NULL, 0);
    return ClockCycles() - t0;
}

static int peer_coid;

// The kernel's tick interrupt, whole (entry, the tick's work, exit), as this thread sees it: a
// span of spin_turns (spin_turns.h) less its own instructions, over the ticks that came in it. The span
// is long (TICK_SPAN_TURNS: some 400 ticks) so that the counter's step (40 instructions at
// 25 MHz under -icount shift=0) is a tenth of an instruction a tick, and the clock reads
// around it count for nothing.
#define TICK_SPAN_TURNS 200000000u
static uint64_t bench_tick(void)
{
    uint32_t k0 = 0, k1 = 0;
    SysInfo(KSYSINFO_TICKS, &k0);
    uint64_t t0 = ClockCycles();
    spin_turns(TICK_SPAN_TURNS);
    uint64_t c = ClockCycles() - t0;
    SysInfo(KSYSINFO_TICKS, &k1);
    uint64_t all = per_op(c, 1), loop = 2ull * TICK_SPAN_TURNS;
    return k1 != k0 && all > loop ? (all - loop + (k1 - k0) / 2u) / (k1 - k0) : 0;
}

// Events generated so far (KTRACE_QUERYEVENTS); 0 when tracing is not set up.
static uint64_t events_now(void)
{
    struct ktrace_query q;
    return TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0) < 0 ? 0 : q.generated;
}

// With count set, also print the events recorded per operation (hundredths, as "2.00"): the
// count taken around the RUNS runs of nops operations. scripts/bench-kernel.sh divides the
// traced cost over the uninstrumented one by it (trace_added_per_event_*).
static void print_events(const char *name, uint64_t events, uint64_t nops)
{
    uint64_t h = (events * 100u + nops / 2u) / nops;
    printf("BENCH %s_events_per_op %s.%s%s events\n", name, u64txt(h / 100u).s,
           h % 100u < 10u ? "0" : "", u64txt(h % 100u).s);
}

static void kernel_benches(const char *suffix, int count)
{
    uint64_t v[RUNS], e0;
    const uint32_t n = 4000;

    e0 = events_now();
    for (int r = 0; r < RUNS; r++)
        v[r] = per_op(bench_null(n), n);
    if (count)
        print_events("kcall_null", events_now() - e0, (uint64_t)RUNS * n);
    printf("BENCH kcall_null_insns%s %s insns\n", suffix, u64txt(median(v)).s);
    e0 = events_now();
    for (int r = 0; r < RUNS; r++)
        v[r] = per_op(bench_switch(n), n);
    if (count)      // 2 switches per iteration
        print_events("context_switch", events_now() - e0, (uint64_t)RUNS * n * 2u);
    printf("BENCH context_switch_insns%s %s insns\n", suffix, u64txt(median(v)).s);
    e0 = events_now();
    for (int r = 0; r < RUNS; r++)
        v[r] = per_op(bench_roundtrip(peer_coid, n), n);
    if (count)
        print_events("msg_roundtrip", events_now() - e0, (uint64_t)RUNS * n);
    printf("BENCH msg_roundtrip_insns%s %s insns\n", suffix, u64txt(median(v)).s);
    for (int r = 0; r < RUNS; r++)
        v[r] = bench_tick();
    printf("BENCH tick_interrupt_insns%s %s insns\n", suffix, u64txt(median(v)).s);
}

// One 2-word user event (KTRACE_INSERTSUSEREVENT) from kt_peer, a process without
// KAPP_F_TRACE: it times n of them and replies the cycles (loop included, as bench_null).
static uint64_t user_event_cost(void)
{
    const uint32_t n = 4000;
    uint64_t v[RUNS];
    for (int r = 0; r < RUNS; r++) {
        uint32_t cmd[2] = { 0x55455654, n };    // "UEVT"
        uint64_t cycles = 0;
        if (MsgSend(peer_coid, cmd, sizeof(cmd), &cycles, sizeof(cycles)) < 0)
            printf("kbench: user event bench failed\n");
        v[r] = per_op(cycles, n);
    }
    return median(v);
}

// Cycles for n iterations of one KTRACE_BENCH kind, measured around the kernel call.
static uint64_t trace_bench(uint32_t kind, uint32_t n)
{
    uint64_t t0 = ClockCycles();
    if (TraceEvent(KTRACE_BENCH, kind, n, 0) < 0)
        printf("kbench: KTRACE_BENCH %lu failed\n", (unsigned long)kind);
    return ClockCycles() - t0;
}

// A 16 KB buffer's cache clean for a probe (KTRACE_BENCH_CLEAN: 256 lines of 64 bytes on the
// Cortex-A53, none where there is no data cache), 64 a call: one call's loop holds the kernel
// about as long as the hooks' KTRACE_BENCH_MAX do.
static uint64_t clean_cost(void)
{
    const uint32_t n = 64;
    uint64_t v[RUNS];
    if (TraceEvent(KTRACE_BENCH, KTRACE_BENCH_CLEAN, 0, 0) == 1)
        return 0;               // no data cache: nothing is cleaned (a timed loop read 0 or 1)
    for (int r = 0; r < RUNS; r++) {
        uint64_t base = trace_bench(KTRACE_BENCH_LOOP, n), c = trace_bench(KTRACE_BENCH_CLEAN, n);
        v[r] = c > base ? per_op(c - base, n) : 0;
    }
    return median(v);
}

// Instructions per hook: the kind's loop minus the empty loop, median of RUNS.
static uint64_t hook_cost(uint32_t kind)
{
    const uint32_t n = KTRACE_BENCH_MAX; // one call's most (uapi/ktrace.h)
    uint64_t v[RUNS];
    for (int r = 0; r < RUNS; r++) {
        uint64_t base = trace_bench(KTRACE_BENCH_LOOP, n), c = trace_bench(kind, n);
        v[r] = c > base ? per_op(c - base, n) : 0;
    }
    return median(v);
}

// The decisions' hooks (REMAIN_CPU at a tick that keeps its thread, SURRENDER, SIGNAL_SEND,
// STEAL), with SYSTEM as the caller set it: "off" or "on".
static void decision_costs(const char *state)
{
    printf("BENCH remain_cpu_tick_%s_insns %s insns\n", state,
           u64txt(hook_cost(KTRACE_BENCH_REMAIN)).s);
    printf("BENCH surrender_%s_insns %s insns\n", state,
           u64txt(hook_cost(KTRACE_BENCH_SURRENDER)).s);
    printf("BENCH signal_send_%s_insns %s insns\n", state,
           u64txt(hook_cost(KTRACE_BENCH_SIGNAL)).s);
    printf("BENCH steal_%s_insns %s insns\n", state,
           u64txt(hook_cost(KTRACE_BENCH_STEAL)).s);
}

// One flush (KTRACE_FLUSHBUFFER, the tracelogger's every -x flush interval) that closes a
// buffer holding an event, with the buffer switch it causes at the next event: n times
// (an event, a flush) less n times (an event, a bare TraceEvent call), plus one bare call.
static uint64_t flush_cost(void)
{
    const uint32_t n = 2000;
    uint64_t v[RUNS];
    for (int r = 0; r < RUNS; r++) {
        uint64_t t0 = ClockCycles();
        for (uint32_t i = 0; i < n; i++) {
            TraceEvent(KTRACE_INSERTSUSEREVENT, 1, i, 0);
            TraceEvent(KTRACE_FLUSHBUFFER, 0, 0, 0);
        }
        uint64_t t1 = ClockCycles();
        for (uint32_t i = 0; i < n; i++) {
            TraceEvent(KTRACE_INSERTSUSEREVENT, 1, i, 0);
            TraceEvent(KTRACE_QUERYVERSION, 0, 0, 0);
        }
        uint64_t t2 = ClockCycles();
        for (uint32_t i = 0; i < n; i++)
            TraceEvent(KTRACE_QUERYVERSION, 0, 0, 0);
        uint64_t t3 = ClockCycles();
        uint64_t a = t1 - t0, b = t2 - t1, c = t3 - t2;
        v[r] = a + c > b ? per_op(a + c - b, n) : 0;
    }
    return median(v);
}

// The ring: 8 buffers of 16 KB, or as many as the board's pool holds (BOARD_TRACE_BUFS:
// 2 on netduinoplus2). The ring policy wraps, so the count does not change the figures.
#define KB_BUFS (BOARD_TRACE_BUFS < 8 ? BOARD_TRACE_BUFS : 8)

// A dropped event: the switch policy, every buffer FULL and nobody taking them (no logger
// here), then the same with every buffer claimed by a host reader (KTRACE_BENCH_CLAIMED). What
// a drop costs must not grow with what the ring holds.
static void drop_costs(void)
{
    TraceEvent(KTRACE_SETPOLICY, KTRACE_POLICY_SWITCH, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    for (uint32_t i = 0; i < KB_BUFS * KEV_BUF_SLOTS / KTRACE_BENCH_MAX + 2u; i++)
        trace_bench(KTRACE_BENCH_SIMPLE, KTRACE_BENCH_MAX);     // every buffer filled
    printf("BENCH trace_drop_full_insns %s insns\n", u64txt(hook_cost(KTRACE_BENCH_SIMPLE)).s);
    printf("BENCH trace_drop_claimed_insns %s insns\n",
           u64txt(hook_cost(KTRACE_BENCH_CLAIMED)).s);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
}

static void trace_costs(void)
{
    if (TraceEvent(KTRACE_ALLOCBUFFER, KB_BUFS, 0, 0) != KB_BUFS) {
        printf("kbench: cannot allocate %d trace buffers: no traced figures\n", KB_BUFS);
        return;
    }
    TraceEvent(KTRACE_SETPOLICY, KTRACE_POLICY_RING, 0, 0);     // wraps: no logger needed
    TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0);
    TraceEvent(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    printf("BENCH trace_disabled_hook_insns %s insns\n",
           u64txt(hook_cost(KTRACE_BENCH_DISABLED)).s);
    printf("BENCH trace_simple_event_insns %s insns\n",
           u64txt(hook_cost(KTRACE_BENCH_SIMPLE)).s);
    printf("BENCH trace_combine_event_insns %s insns\n",
           u64txt(hook_cost(KTRACE_BENCH_COMBINE)).s);
    printf("BENCH user_event_insns %s insns\n", u64txt(user_event_cost()).s);
    printf("BENCH trace_probe_tick_insns %s insns\n",
           u64txt(hook_cost(KTRACE_BENCH_PROBE_TICK)).s);
    printf("BENCH trace_cache_clean_buffer_insns %s insns\n", u64txt(clean_cost()).s);
    decision_costs("off");      // SYSTEM off: each hook's test alone
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    TraceEvent(KTRACE_ADDCLASS, KEV_C_SYSTEM, 0, 0);
    TraceEvent(KTRACE_SETALLCLASSESFAST, 0, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    decision_costs("on");       // SYSTEM on, fast: each hook's event
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    TraceEvent(KTRACE_DELCLASS, KEV_C_SYSTEM, 0, 0);

    TraceEvent(KTRACE_ADDALLCLASSES, 0, 0, 0);
    TraceEvent(KTRACE_SETALLCLASSESFAST, 0, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    kernel_benches("_trace_fast", 1);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    TraceEvent(KTRACE_SETALLCLASSESWIDE, 0, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    kernel_benches("_trace_wide", 0);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    // Last: its flushes leave the ring in another state than the figures above had.
    TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0);
    TraceEvent(KTRACE_ADDCLASS, KEV_C_USER, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    printf("BENCH trace_flush_insns %s insns\n", u64txt(flush_cost()).s);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    drop_costs();
    struct ktrace_query q;
    TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0);
    printf("kbench: %s events generated while measuring\n", u64txt(q.generated).s);
    TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
}

int main(void)
{
    insns_per_ns = 1;
    uint32_t hooks = 0;
    SysInfo(KSYSINFO_TRACE_HOOKS, &hooks);

    // Message round trips go to a server in another process (kt_peer).
    int chid = ChannelCreate(0);
    int pid = ProcSpawn("kt_peer", 0, (uint32_t)chid);
    int32_t hello[4];
    struct kmsg_info info;
    int rcvid = MsgReceive(chid, hello, sizeof(hello), &info);
    MsgReply(rcvid, 0, NULL, 0);
    peer_coid = ConnectAttach(pid, hello[1]);
    if (hooks) {
        kernel_benches("", 0);
        trace_costs();
    } else {
        kernel_benches("_notrace", 0);
#if defined(__i386__)
        fpu_benches();
#endif
    }
    int32_t quit_cmd = 0x51554954;
    MsgSend(peer_coid, &quit_cmd, sizeof(quit_cmd), NULL, 0);
    ProcWait(pid, NULL);
    return 0;
}
