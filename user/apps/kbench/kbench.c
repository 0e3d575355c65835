// SPDX-License-Identifier: MIT
// kbench: kernel cost benchmarks. Run under QEMU with -icount shift=0, where one instruction
// takes one nanosecond of virtual time, so the 25 MHz cycle counter advances once every 40
// instructions: instructions = cycles * 1e9 / 25e6. Each figure is the median of 5 runs of
// N operations, and includes the loop around the call (a few instructions).
// Prints "BENCH <name> <value> insns".
#include <kern.h>
#include <stdio.h>
#include <stdlib.h>

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
static uint8_t ystack[1024] __attribute__((aligned(8)));

static int yielder(void *arg)
{
    (void)arg;
    while (!yield_stop)
        ThreadYield();
    return 0;
}

// Two threads of equal priority yielding to each other: every yield is one switch.
static uint64_t bench_switch(uint32_t n)
{
    yield_stop = 0;
    ThreadSetPrio(0, 50, SCHED_POLICY_FIFO);
    int t = ThreadCreate(yielder, NULL, ystack, sizeof(ystack), 50, SCHED_POLICY_FIFO);
    ThreadYield();
    uint64_t t0 = ClockCycles();
    for (uint32_t i = 0; i < n; i++)
        ThreadYield();              // to the other thread, which yields back: 2 switches
    uint64_t c = ClockCycles() - t0;
    yield_stop = 1;
    ThreadYield();
    ThreadJoin(t, NULL);
    ThreadSetPrio(0, 100, SCHED_POLICY_RR);
    return c / 2;
}

static uint64_t bench_roundtrip(int coid, uint32_t n)
{
    uint64_t t0 = ClockCycles();
    for (uint32_t i = 0; i < n; i++)
        MsgSend(coid, NULL, 0, NULL, 0);
    return ClockCycles() - t0;
}

int main(void)
{
    insns_per_ns = 1;
    uint64_t v[RUNS];
    const uint32_t n = 4000;

    for (int r = 0; r < RUNS; r++)
        v[r] = per_op(bench_null(n), n);
    printf("BENCH kcall_null_insns %llu insns\n", (unsigned long long)median(v));

    for (int r = 0; r < RUNS; r++)
        v[r] = per_op(bench_switch(n), n);
    printf("BENCH context_switch_insns %llu insns\n", (unsigned long long)median(v));

    // Message round trip to a server in another process (kt_peer, higher priority than its
    // clients' default so it is always waiting in MsgReceive).
    int chid = ChannelCreate(0);
    int pid = ProcSpawn("kt_peer", 0, (uint32_t)chid);
    int32_t hello[4];
    struct kmsg_info info;
    int rcvid = MsgReceive(chid, hello, sizeof(hello), &info);
    MsgReply(rcvid, 0, NULL, 0);
    int coid = ConnectAttach(pid, hello[1]);
    for (int r = 0; r < RUNS; r++)
        v[r] = per_op(bench_roundtrip(coid, n), n);
    printf("BENCH msg_roundtrip_insns %llu insns\n", (unsigned long long)median(v));
    int32_t quit_cmd = 0x51554954;
    MsgSend(coid, &quit_cmd, sizeof(quit_cmd), NULL, 0);
    ProcWait(pid, NULL);
    return 0;
}
