// SPDX-License-Identifier: MIT
// The D engine with firings on four CPUs at once (d/dvm.h, CONCURRENCY; dvm_opts.concurrent):
// four host threads, each one CPU, fire the same program with no lock around the engine, as
// the kernel's CPUs do. Built under ThreadSanitizer (tools/dtrace/module.mk), which fails the
// run on any data race. The truths are the firing threads' own counts:
// - per-CPU aggregations count every firing of their CPU;
// - an associative array keyed by cpu (each key written by one CPU, the hash and its chunks by
//   all) holds each CPU's count;
// - self-> variables set and cleared by the threads each CPU fires as, with 32 of them live per
//   CPU at a time and a dynamic-variable space that holds a few times what is live, pair every
//   set with its clear: no set lost, none seen twice, and no dynamic-variable drop, which needs
//   the freed chunks back in use (dyn_reclaim: after the firings that could hold them ended).
//   A kernel's firing runs with interrupts off and ends within its budget; a host thread may be
//   descheduled inside one for a whole timeslice, holding back every chunk freed meanwhile, so
//   the CPUs meet at a barrier every ROUND sends, as a kernel's CPUs are never more than a
//   firing apart in a firing's terms: what is freed while one CPU is inside a firing stays
//   bounded, and the space holds it;
// - stack( ) interned by all CPUs at once keeps one id a stack: 8 distinct stacks, 8 ids;
// - first, on one thread: a chunk freed while another CPU is inside a firing (its epoch odd, set
//   by hand) is not reused until that firing ends, and is reused after: with all the space
//   freed once behind such a firing, every further creation is a drop, and none once it ends.
// Globals are left out: racy by design, as DTrace's (and a race to ThreadSanitizer).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <d/dcc.h>
#include <d/dif.h>
#include <d/dprobes.h>
#include <d/dstacks.h>
#include <d/dvm.h>
#include "../../trace/d/dvm_impl.h"   /* a CPU's epoch (check_grace) */

#define NCPU    4u
#define NFIRE   20000u      // sends per CPU
#define LIVE    32u         // self-> variables live per CPU at a time
#define NSTACKS 8u
#define ROUND   32u         // sends between two barriers

static uint8_t arena[2 << 20] __attribute__((aligned(8)));
static uint8_t mem[8 << 20] __attribute__((aligned(8)));
static struct dvm_state st;
static _Thread_local unsigned stack_pick;   // which of the NSTACKS stacks this firing has
static int failures, checks;
static pthread_barrier_t round_barrier;

// One TAP line: "ok N - ..." or "not ok N - ...", the description with the values seen.
#define CHECK(cond, ...) do {                                                       \
        int ok_ = (cond);                                                           \
        failures += !ok_;                                                           \
        printf("%sok %d - ", ok_ ? "" : "not ", ++checks);                          \
        printf(__VA_ARGS__);                                                        \
    } while (0)

static unsigned fake_stack(unsigned kind, uint64_t *pcs, unsigned max)
{
    (void)kind;
    unsigned n = 3u < max ? 3u : max;
    for (unsigned k = 0; k < n; k++)
        pcs[k] = 0x1000u + stack_pick * 0x10u + k;
    return n;
}

static const char prog[] =
    "#pragma D option strsize=16\n"
    "msg:::send { @sends[cpu] = count(); n[cpu]++; self->x = timestamp + 1; }\n"
    "msg:::receive { this->had = self->x != 0; }\n"
    "msg:::receive /this->had/ { @paired[cpu] = count(); self->x = 0; }\n"
    "msg:::receive /!this->had/ { @unpaired[cpu] = count(); }\n"
    "msg:::reply { @stacks[stack()] = count(); }\n"
    "msg:::error { @final[arg0] = sum(n[arg0]); }\n";

// One CPU: thread t (tid cpu * 1000 + t + 1) sets its variable at send i (t = i % 64) and
// clears it at the receive LIVE sends later, so LIVE are live at a time.
static void *cpu_main(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    struct dvm_ctx ctx = { cpu, 50, 0, 1, 0, 1000, 0, 0, "smp", 10, 64 };
    uint64_t args[DVM_NARGS] = { 0 };
    for (unsigned i = 0; i < NFIRE + LIVE; i++) {
        if (i % ROUND == 0)
            pthread_barrier_wait(&round_barrier);
        ctx.timestamp = 1000u + i;
        if (i < NFIRE) {
            ctx.tid = (int32_t)(cpu * 1000u + i % 64u + 1u);
            dvm_fire(&st, &ctx, DPROBE_MSG_SEND, args);
            stack_pick = (i + cpu) % NSTACKS;
            dvm_fire(&st, &ctx, DPROBE_MSG_REPLY, args);
        }
        if (i >= LIVE) {
            ctx.tid = (int32_t)(cpu * 1000u + (i - LIVE) % 64u + 1u);
            dvm_fire(&st, &ctx, DPROBE_MSG_RECEIVE, args);
        }
    }
    return NULL;
}

struct totals {
    unsigned sends_agg, paired_agg, unpaired_agg, stacks_agg, final_agg;
    int64_t sends[NCPU], paired[NCPU], unpaired[NCPU], final[NCPU], stacks;
    uint64_t ids[64];
    unsigned nids;
};

static void agg_cb(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals)
{
    struct totals *t = arg;
    uint64_t key;
    memcpy(&key, keys, 8);
    if (agg == t->stacks_agg) {
        t->stacks += vals[0];
        unsigned k = 0;
        while (k < t->nids && t->ids[k] != key)
            k++;
        if (k == t->nids && t->nids < 64)
            t->ids[t->nids++] = key;
        return;
    }
    if (key >= NCPU)
        return;
    if (agg == t->sends_agg)
        t->sends[key] += vals[0];
    else if (agg == t->paired_agg)
        t->paired[key] += vals[0];
    else if (agg == t->unpaired_agg)
        t->unpaired[key] += vals[0];
    else if (agg == t->final_agg)
        t->final[key] += vals[0];
}

static unsigned agg_index(const char *name)
{
    for (unsigned k = 0; k < st.obj.hdr->dh_naggs; k++)
        if (!strcmp(dif_str(&st.obj, st.obj.aggs[k].dg_name), name))
            return k;
    fprintf(stderr, "no aggregation @%s\n", name);
    exit(1);
}

static struct dvm_state st2;

// The grace period alone (the last truth above), on one thread: CPU 1 "inside a firing" while
// CPU 0 sets and clears self-> variables of as many threads as the space has chunks, and more.
static void check_grace(void)
{
    static const char src[] = "#pragma D option strsize=16\n"
                              "msg:::send { self->x = 1; } msg:::receive { self->x = 0; }\n";
    struct dcc_in in = { src, sizeof(src) - 1, 0, 1, NULL, 0 };
    struct dcc_out out;
    char err[256];
    struct dvm_opts o = { 4u << 10, 4u << 10, 4u << 10, DVM_BUF_SWITCH, 1, 2, 0, 0, 1 };
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0 ||
        dvm_load(&st2, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0) {
        fprintf(stderr, "grace: cannot load the program\n");
        exit(1);
    }
    unsigned n = st2.dyn.nchunks;
    struct dvm_ctx ctx = { 0, 60, 0, 1, 0, 1, 0, 0, "grace", 10, 1 };
    uint64_t args[DVM_NARGS] = { 0 };
    __atomic_store_n(&st2.cpus[1].epoch, 1u, __ATOMIC_RELEASE);   // CPU 1 enters a firing
    for (unsigned i = 0; i < 2u * n; i++) {
        ctx.tid = (int32_t)(i + 1u);
        dvm_fire(&st2, &ctx, DPROBE_MSG_SEND, args);
        dvm_fire(&st2, &ctx, DPROBE_MSG_RECEIVE, args);
    }
    uint64_t held = st2.stats[0].dynvardrops;
    __atomic_store_n(&st2.cpus[1].epoch, 2u, __ATOMIC_RELEASE);   // ... and leaves it
    for (unsigned i = 0; i < 4u * n; i++) {
        ctx.tid = (int32_t)(i + 1u);
        dvm_fire(&st2, &ctx, DPROBE_MSG_SEND, args);
        dvm_fire(&st2, &ctx, DPROBE_MSG_RECEIVE, args);
    }
    uint64_t after = st2.stats[0].dynvardrops - held;
    CHECK(held == n, "grace: %llu of %u creations dropped while CPU 1 was inside a firing: those "
          "past the space's %u chunks (none reused under the firing)\n",
          (unsigned long long)held, 2u * n, n);
    CHECK(after == 0, "grace: %llu creations dropped once CPU 1 left its firing\n",
          (unsigned long long)after);
}

int main(void)
{
    check_grace();
    struct dcc_in in = { prog, sizeof(prog) - 1, 0, 1, NULL, 0 };
    struct dcc_out out;
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0) {
        fprintf(stderr, "compile failed: %s\n", out.err);
        return 1;
    }
    // dynvarsize: room for what is live (LIVE per CPU, and n[]'s NCPU elements) and what the
    // CPUs free while one of them is inside a firing (a round each, a limbo and a dirty list
    // each), about 8 x what is live: 1/80 of what the run frees, so that it runs only if freed
    // chunks are reused
    struct dvm_opts o = { 64u << 10, 64u << 10, 48u << 10, DVM_BUF_SWITCH, 1, NCPU, 0, 0, 1 };
    char err[256];
    if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0) {
        fprintf(stderr, "load failed: %s\n", err);
        return 1;
    }
    dvm_stack = fake_stack;
    // No dynamic variable here holds a string: a chunk's value is 8 bytes, not a string's slot
    // (as DTrace sizes its chunks by the program's variables); and each CPU closes a limbo
    // every eighth of its share of the chunks, so that dirty lists and limbos stay a quarter
    CHECK(st.dyn.valmax == 8u, "a chunk's value is %u bytes with no string variable (8)\n",
          st.dyn.valmax);
    unsigned eighth = st.dyn.nchunks / (8u * NCPU);
    CHECK(st.dyn.batch == (eighth > 32u ? 32u : eighth),
          "a CPU closes its limbo every %u frees of %u chunks on %u CPUs\n", st.dyn.batch,
          st.dyn.nchunks, NCPU);
    unsigned live_room = st.dyn.nchunks;
    CHECK(live_room >= NCPU * (LIVE + 1u) && live_room <= 10u * NCPU * (LIVE + 1u),
          "dynvarsize gives %u chunks for %u live and %u deletions: reuse is needed\n", live_room,
          NCPU * (LIVE + 1u), NCPU * NFIRE);
    pthread_t th[NCPU];
    pthread_barrier_init(&round_barrier, NULL, NCPU);
    for (unsigned c = 0; c < NCPU; c++)
        pthread_create(&th[c], NULL, cpu_main, (void *)(uintptr_t)c);
    for (unsigned c = 0; c < NCPU; c++)
        pthread_join(th[c], NULL);
    // n[] read back through one CPU's firings, after the others have stopped
    struct dvm_ctx ctx0 = { 0, 50, 1, 1, 0, 1, 0, 0, "smp", 10, 64 };
    for (unsigned c = 0; c < NCPU; c++) {
        uint64_t args[DVM_NARGS] = { c };
        dvm_fire(&st, &ctx0, DPROBE_MSG_ERROR, args);
    }
    struct totals t = { agg_index("sends"), agg_index("paired"), agg_index("unpaired"),
                        agg_index("stacks"), agg_index("final"), { 0 }, { 0 }, { 0 },
                        { 0 }, 0, { 0 }, 0 };
    for (unsigned c = 0; c < NCPU; c++)
        dvm_agg_walk(&st, c, agg_cb, &t);
    uint64_t drops = 0, dyndrops = 0, aggdrops = 0, errors = 0;
    for (unsigned c = 0; c < NCPU; c++) {
        drops += st.stats[c].drops;
        dyndrops += st.stats[c].dynvardrops;
        aggdrops += st.stats[c].aggdrops;
        errors += st.stats[c].errors;
        CHECK(t.sends[c] == NFIRE, "CPU %u: count() of its sends %lld (it fired %u)\n", c,
              (long long)t.sends[c], NFIRE);
        CHECK(t.final[c] == NFIRE, "CPU %u: n[cpu] %lld (it fired %u)\n", c,
              (long long)t.final[c], NFIRE);
        CHECK(t.paired[c] == NFIRE && t.unpaired[c] == 0,
              "CPU %u: %lld receives found their send's self->x, %lld did not (%u sent)\n", c,
              (long long)t.paired[c], (long long)t.unpaired[c], NFIRE);
    }
    CHECK(t.stacks == (int64_t)(NCPU * NFIRE) && t.nids == NSTACKS,
          "stack(): %lld firings under %u ids (%u fired, %u stacks)\n", (long long)t.stacks,
          t.nids, NCPU * NFIRE, NSTACKS);
    unsigned same = 0;
    for (unsigned a = 0; a < t.nids; a++)
        for (unsigned b = a + 1; b < t.nids; b++) {
            unsigned na, nb, ka, kb;
            const uint64_t *pa = dvm_stack_get(&st, t.ids[a], &na, &ka);
            const uint64_t *pb = dvm_stack_get(&st, t.ids[b], &nb, &kb);
            same += !pa || !pb || (na == nb && !memcmp(pa, pb, na * 8u));
        }
    CHECK(same == 0, "stack(): %u pairs of ids name one stack\n", same);
    CHECK(!drops && !dyndrops && !aggdrops && !errors,
          "no loss: drops %llu, dynamic-variable drops %llu, aggregation drops %llu, errors %llu\n",
          (unsigned long long)drops, (unsigned long long)dyndrops,
          (unsigned long long)aggdrops, (unsigned long long)errors);
    printf("1..%d\n", checks);
    return failures ? 1 : 0;
}
