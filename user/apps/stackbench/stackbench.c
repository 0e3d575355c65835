// SPDX-License-Identifier: MIT
// stackbench: what stacks cost at a profile tick (scripts/bench-stacks.sh, docs/PERFORMANCE.md).
// It spins a fixed amount of work at the bottom of a known chain (main -> bench_a .. bench_e
// -> bench_spin), so that every tick lands in a 7-frame user stack, and prints the spin's
// instruction count (QEMU -icount shift=0: one instruction a nanosecond):
//   stackbench spin      "BENCH stackbench_spin_insns N": the script compares boots whose D
//                        program differs (none, profile-997 count( ), @[ustack()] = count( ))
//   stackbench sample    also the cost of one stack sample in a capture: the spin with
//                        KTRACE_STACKSAMPLE at 1000 Hz minus without, per STACK event
//                        recorded (ring policy, class SYSTEM alone), median of RUNS
#include <board_user.h>
#include <kern.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev.h>

#define RUNS   5
#define SPIN_N 4000000u     // about 50 ticks of spinning

static volatile unsigned sink;

__attribute__((noinline)) static unsigned bench_spin(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sink += i;
    return sink;
}

__attribute__((noinline)) static unsigned bench_e(unsigned n) { return bench_spin(n) + sink; }
__attribute__((noinline)) static unsigned bench_d(unsigned n) { return bench_e(n) + sink; }
__attribute__((noinline)) static unsigned bench_c(unsigned n) { return bench_d(n) + sink; }
__attribute__((noinline)) static unsigned bench_b(unsigned n) { return bench_c(n) + sink; }
__attribute__((noinline)) static unsigned bench_a(unsigned n) { return bench_b(n) + sink; }

// Instructions for `cycles` of the board's counter (-icount shift=0: 1 insn = 1 ns).
static uint64_t insns(uint64_t cycles)
{
    return cycles * 1000000000ull / ClockCyclesPerSec();
}

static uint64_t spin(void)
{
    uint64_t t0 = ClockCycles();
    bench_a(SPIN_N);
    return insns(ClockCycles() - t0);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t recorded(void)
{
    struct ktrace_query q;
    TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0);
    return q.recorded;
}

static void sample_cost(void)
{
    uint32_t nbufs = BOARD_TRACE_BUFS < 4 ? BOARD_TRACE_BUFS : 4;
    if (TraceEvent(KTRACE_ALLOCBUFFER, nbufs, 0, 0) < 0) {
        printf("stackbench: cannot allocate trace buffers: no sample figure\n");
        return;
    }
    TraceEvent(KTRACE_SETPOLICY, KTRACE_POLICY_RING, 0, 0);    // wraps: no logger needed
    TraceEvent(KTRACE_DELALLCLASSES, 0, 0, 0);
    TraceEvent(KTRACE_ADDCLASS, KEV_C_SYSTEM, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    uint64_t v[RUNS], per = 0, samples = 0;
    for (int r = 0; r < RUNS; r++) {
        uint64_t off = spin();
        TraceEvent(KTRACE_STACKSAMPLE, 1000, 0, 0);
        uint64_t e0 = recorded();
        uint64_t on = spin();
        uint64_t n = recorded() - e0;
        TraceEvent(KTRACE_STACKSAMPLE, 0, 0, 0);
        v[r] = n && on > off ? (on - off + n / 2) / n : 0;
        samples += n;
    }
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
    qsort(v, RUNS, sizeof(v[0]), cmp_u64);
    per = v[RUNS / 2];
    printf("BENCH stack_sample_insns %s insns\n", u64txt(per).s);
    printf("stackbench: %s samples in %d runs\n", u64txt(samples).s, RUNS);
}

int main(void)
{
    static char buf[512];     // the whole boot command line must fit (kargs)
    char *argv[32];          // every word of the line is split before the part is found
    int argc = kargs("stackbench", buf, sizeof(buf), argv, 32);
    if (argc < 0) {
        printf("stackbench: the boot command line is longer than the %u bytes it reads\n",
               (unsigned)sizeof(buf) - 2);
        return 2;
    }
    bool sample = argc > 1 && strcmp(argv[1], "sample") == 0;
    uint64_t v[RUNS];
    for (int r = 0; r < RUNS; r++)
        v[r] = spin();
    qsort(v, RUNS, sizeof(v[0]), cmp_u64);
    printf("BENCH stackbench_spin_insns %s insns\n", u64txt(v[RUNS / 2]).s);
    if (sample)
        sample_cost();
    return 0;
}
