// SPDX-License-Identifier: MIT
// dbench: host cost of one probe firing through the D engine (compile once, load, then fire
// kercall::MsgSend:entry in batches, the consumer draining the buffer between batches).
// Prints "BENCH d_host_ns_per_firing_<case> <ns> ns", the median of repeated runs; then
// "BENCH d_host_ns_per_printa", one printa( ) of an 8-entry aggregation by the consumer with
// the host dtrace's 16 MB of merge memory (its cost must follow the entries, not the memory).
#include <d/dcc.h>
#include <d/dcons.h>
#include <d/dvm.h>
#include <d/dstacks.h>
#include "dbench_cases.h"   // the cases the target benchmark runs too
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS   15
#define BATCH  4096
#define ROUNDS 16

static uint8_t arena[2 << 20] __attribute__((aligned(8)));
static uint8_t mem[32 << 20] __attribute__((aligned(8)));
static struct dvm_state st;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void drain(void *arg, const struct dvm_rechdr *h)
{
    (*(uint64_t *)arg) += h->rh_size;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ustack_count's stacks on the host: a fixed eight-frame stack (the host has no target stack
 * to walk), so the figure is the engine's part: interning and keying by the stack. */
static unsigned bench_stack(unsigned kind, uint64_t *pcs, unsigned max)
{
    (void)kind;
    unsigned n = max < 8 ? max : 8;
    for (unsigned i = 0; i < n; i++)
        pcs[i] = 0x80100u + 0x40u * i;
    return n;
}

static int bench(const char *name, const char *src)
{
    struct dcc_in in = { src, strlen(src), 0, 0, NULL, 0 };
    static struct dcc_out out;
    char err[256];
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0) {
        fprintf(stderr, "dbench: %s: %s\n", name, out.err);
        return 1;
    }
    struct dvm_opts o = { 4u << 20, 4u << 20, 1u << 20, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
    if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0) {
        fprintf(stderr, "dbench: %s: %s\n", name, err);
        return 1;
    }
    uint32_t id = st.obj.probes[0].dp_id;
    struct dvm_ctx ctx = { 0, 100, 101, 1, 0, 0, 0, 0, "bench", 0, 1 };
    uint64_t args[DVM_NARGS] = { 0 }, bytes = 0, res[RUNS];
    args[1] = (uint64_t)(uintptr_t)d_bench_msg; /* a send's message */
    dvm_uread = d_bench_uread;
    dvm_stack = bench_stack;
    for (int run = 0; run < RUNS; run++) {
        uint64_t t0 = now_ns();
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < BATCH; k++) {
                args[0] = (uint64_t)k * 37u;
                ctx.timestamp += 100;
                ctx.tid = 101 + (k & 7);
                dvm_fire(&st, &ctx, id, args);
            }
            dvm_buf_read(&st, 0, 0, drain, &bytes);
        }
        res[run] = now_ns() - t0;
    }
    qsort(res, RUNS, sizeof(res[0]), cmp_u64);
    double per = (double)res[RUNS / 2] / (BATCH * ROUNDS);
    if (st.stats[0].drops || st.stats[0].errors) {
        fprintf(stderr, "dbench: %s: unexpected drops or errors\n", name);
        return 1;
    }
    printf("BENCH d_host_ns_per_firing_%s %.1f ns\n", name, per);
    return 0;
}

static void discard(void *arg, const char *s, size_t n)
{
    (void)s;
    (*(uint64_t *)arg) += n;
}

static int bench_printa(void)
{
    static const char src[] = "kercall::MsgSend:entry { @[pid, tid] = count(); }";
    struct dcc_in in = { src, strlen(src), 0, 0, NULL, 0 };
    static struct dcc_out out;
    char err[256];
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0) {
        fprintf(stderr, "dbench: printa: %s\n", out.err);
        return 1;
    }
    struct dvm_opts o = { 4u << 20, 4u << 20, 1u << 20, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
    if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0) {
        fprintf(stderr, "dbench: printa: %s\n", err);
        return 1;
    }
    struct dvm_ctx ctx = { 0, 100, 101, 1, 0, 0, 0, 0, "bench", 0, 1 };
    for (int k = 0; k < 64; k++) {
        ctx.tid = 101 + (k & 7);
        dvm_fire(&st, &ctx, st.obj.probes[0].dp_id, NULL);
    }
    static struct dcons cons;
    static uint8_t cmem[16u << 20] __attribute__((aligned(8))); /* as tools/dtrace/dtrace.c */
    uint64_t bytes = 0, res[RUNS];
    struct dcons_out so = { discard, &bytes };
    dcons_init(&cons, &st, &so, &so, cmem, sizeof(cmem));
    enum { CALLS = 2000 };
    for (int run = 0; run < RUNS; run++) {
        uint64_t t0 = now_ns();
        for (int k = 0; k < CALLS; k++)
            dcons_print_agg(&cons, 0, NULL);
        res[run] = now_ns() - t0;
    }
    qsort(res, RUNS, sizeof(res[0]), cmp_u64);
    if (bytes < (uint64_t)RUNS * CALLS * 8u * 20u) { /* 8 rows a call, or it measured nothing */
        fprintf(stderr, "dbench: printa printed %llu bytes\n", (unsigned long long)bytes);
        return 1;
    }
    printf("BENCH d_host_ns_per_printa %.1f ns\n", (double)res[RUNS / 2] / CALLS);
    return 0;
}

int main(void)
{
    int rc = 0;
#define RUN_CASE(name, program) rc |= bench(name, program);
    D_BENCH_CASES(RUN_CASE)
#undef RUN_CASE
    rc |= bench_printa();
    return rc;
}
