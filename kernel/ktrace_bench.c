// SPDX-License-Identifier: MIT
// KTRACE_BENCH (uapi/ktrace.h): loops of one hook each, which kbench times (BENCH
// trace_disabled_hook_insns, trace_simple_event_insns, trace_combine_event_insns; make bench),
// so that what a hook costs is measured on the kernel's own code: a disabled class hook, a
// simple event, a combine event, the decisions' hooks (REMAIN_CPU, SURRENDER, SIGNAL_SEND,
// STEAL), the traced tick's look at a probe's flush request, a buffer's cache clean for a
// probe, and a stall of the kernel for the tests.
#include <kernel/ktrace.h>
#include <kernel/ktrace_tick.h>
#include <kernel/kview.h>
#include <arch_cache.h>

// A tick's mark and its exit's test, into the thread it interrupted (the caller): as
// tick_traced and ktrace_exit_end run them.
static inline void remain_hook(struct cpu *c, struct thread *cur)
{
    ktrace_tick_mark();
    if ((uintptr_t)cur != c->trace_ran)
        (void)ktrace_tick_kept(c, cur);
}

// A steal's hook, as sched.c's steal_taken runs it for the thread it took: the queue's CPU
// noted for dequeue, then STEAL (a running thread's rq_cpu is read by nothing but that).
static inline void steal_hook(struct thread *t, unsigned from)
{
    thread_set_rq_cpu(t, from);
    ktrace_steal(t, from);
}

static int claimed_loop(uint32_t n);

// One loop per kind, so that each loop holds nothing but its hook; the barrier keeps the
// compiler from hoisting the hook's flag load out of the loop.
#define BENCH_LOOP(n, body)                           \
    for (uint32_t i = 0; i < (n); i++) {              \
        body;                                         \
        __asm__ volatile("" ::: "memory");            \
    }

// Out of line: its loops' code does not move with ktrace_call's (BENCH trace_*_event_insns).
__attribute__((noinline)) int ktrace_bench(uint32_t kind, uint32_t n)
{
    static const uint32_t w[4] = { 1, 2, 3, 4 };
    struct cpu *c = this_cpu();
    struct thread *cur = c->current;
    if (n > KTRACE_BENCH_MAX)   // bounded kernel work (uapi/ktrace.h)
        return -EINVAL;
    switch (kind) {
    case KTRACE_BENCH_LOOP:
        BENCH_LOOP(n, (void)i);
        return 0;
    case KTRACE_BENCH_DISABLED:     // class SYSTEM, off during the measurement
        BENCH_LOOP(n, ktrace_timer(i, 0));
        return 0;
    case KTRACE_BENCH_SIMPLE:
        BENCH_LOOP(n, trace_emit_simple(&ktrace, KEV_C_USER, 1, i, 0));
        return 0;
    case KTRACE_BENCH_COMBINE:
        BENCH_LOOP(n, trace_emit_words(&ktrace, KEV_C_USER, 2, w, 4));
        return 0;
    case KTRACE_BENCH_REMAIN:
        BENCH_LOOP(n, remain_hook(c, cur));
        return 0;
    case KTRACE_BENCH_SURRENDER:
        BENCH_LOOP(n, ktrace_surrender(cur, 0));
        return 0;
    case KTRACE_BENCH_SIGNAL:
        BENCH_LOOP(n, ktrace_signal_send(cur, 1));
        return 0;
    case KTRACE_BENCH_PROBE_TICK:
        BENCH_LOOP(n, ktrace_probe_tick());
        return 0;
    case KTRACE_BENCH_CLEAN:        // (the ring's pool: allocated by the caller)
        if (!ktrace.tr_mem)
            return -ECANCELED;
        if (!ARCH_DCACHE)
            return 1;
        BENCH_LOOP(n, trace_port_publish(ktrace.tr_mem, KEV_BUF_BYTES));
        return 0;
    case KTRACE_BENCH_STEAL:
        BENCH_LOOP(n, steal_hook(cur, c->id));
        return 0;
    case KTRACE_BENCH_CLAIMED:
        return claimed_loop(n);
    case KTRACE_BENCH_STALL:
        return n > KTRACE_BENCH_STALL_MAX ? -EINVAL : kview_stall(n);
    default:
        return -EINVAL;
    }
}

// KTRACE_BENCH_CLAIMED: host words with every buffer claimed as a reader holding it would (the
// claim of its sequence), for the loop's length (on the stack: a bench's, no kernel RAM kept
// for it); the ring's own words (a probe's, or none) are given back after.
static int claimed_loop(uint32_t n)
{
    uint32_t claim_words[TRACE_MAX_BUFS];
    const uint32_t *own = ktrace.tr_acks;
    for (unsigned i = 0; i < ktrace.tr_nbufs; i++)
        claim_words[i] = ~(ktrace.tr_buf[i].tb_seq + 1u);
    trace_ring_set_acks(&ktrace, claim_words);
    BENCH_LOOP(n, trace_emit_simple(&ktrace, KEV_C_USER, 1, i, 0));
    trace_ring_set_acks(&ktrace, own);
    return 0;
}
