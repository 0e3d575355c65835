// SPDX-License-Identifier: MIT
// The trace ring's locks under real concurrency (trace_ring.h, LOCKING): four host threads,
// each one CPU (test/unit/trace_port_threads/trace_port.h), write events into their own
// buffers with no lock of their own, while a logger thread takes and releases buffers (closing
// other CPUs' filling buffers past their mark) and a control thread changes filters. Built
// under ThreadSanitizer (trace/module.mk), which fails the run on any data race. The truths:
// what each writer generated (its own count), against what the saved buffers hold (each
// CPU's events, in its order, none twice) and the ring's per-CPU counts
// (recorded + dropped + overwritten == generated, recorded == the events saved).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace/trace_ring.h>

_Thread_local unsigned trace_thread_cpu;
uint64_t trace_thread_clock;
unsigned trace_thread_notes, trace_thread_stops;

#define NCPU     4u
#define NBUFS    8u
#define NEVENTS  40000u     // per writer

static struct kev_slot mem[NBUFS * KEV_BUF_SLOTS];
static struct trace_ring ring;
static unsigned writers_done;

struct saved {              // what the logger saved of one buffer
    uint32_t seq;
    unsigned n;
    struct kev_slot s[KEV_BUF_SLOTS];
};
static struct saved *saved;
static unsigned nsaved, cap;

static void *writer(void *arg)
{
    trace_thread_cpu = (unsigned)(uintptr_t)arg;
    for (uint32_t i = 0; i < NEVENTS; i++) {
        if (i % 7u == 3u) {     // a combine event now and then (the inline combine path)
            uint32_t w[4] = { trace_thread_cpu, i, ~i, i ^ 0x5a5a5a5au };
            trace_emit_words(&ring, KEV_C_PR_TH, KEV_TH_RUNNING, w, 4);
        } else {
            trace_emit_simple(&ring, KEV_C_PR_TH, KEV_TH_READY, trace_thread_cpu, i);
        }
    }
    __atomic_add_fetch(&writers_done, 1u, __ATOMIC_RELEASE);
    return NULL;
}

static void save_one(unsigned idx)
{
    unsigned n;
    uint32_t seq;
    const struct kev_slot *b = trace_ring_buffer(&ring, idx, &n, &seq);
    if (!b) {
        fprintf(stderr, "buffer %u taken but not the logger's\n", idx);
        exit(1);
    }
    if (nsaved == cap) {
        cap = cap ? 2u * cap : 64u;
        saved = realloc(saved, cap * sizeof(*saved));
    }
    saved[nsaved].seq = seq;
    saved[nsaved].n = n;
    memcpy(saved[nsaved].s, b, n * sizeof(*b));
    nsaved++;
    trace_ring_release(&ring, idx);
}

static void *logger(void *arg)
{
    (void)arg;
    trace_thread_cpu = 0;   // shares CPU 0 with a writer, as a logger does
    unsigned idx;
    while (__atomic_load_n(&writers_done, __ATOMIC_ACQUIRE) < NCPU) {
        if (trace_ring_take(&ring, &idx) == 0)
            save_one(idx);
        else
            sched_yield();
    }
    return NULL;
}

static void *control(void *arg)
{
    (void)arg;
    trace_thread_cpu = 1;
    for (unsigned k = 0; __atomic_load_n(&writers_done, __ATOMIC_ACQUIRE) < NCPU; k++) {
        trace_filter_class(&ring, KEV_C_COMM, k & 1u);     // a class nobody writes here
        trace_mode_event(&ring, KEV_C_COMM, 1, k & 1u);
        struct trace_counts c;
        trace_ring_counts(&ring, k % NCPU, &c);
        sched_yield();
    }
    return NULL;
}

static int by_seq(const void *a, const void *b)
{
    const struct saved *x = a, *y = b;
    return (int32_t)(x->seq - y->seq) < 0 ? -1 : (int32_t)(x->seq - y->seq) > 0;
}

static int run(unsigned policy, const char *name)
{
    int bad = 0;
    memset(mem, 0, sizeof(mem));
    nsaved = 0;
    writers_done = 0;
    if (trace_ring_init(&ring, mem, sizeof(mem), NBUFS) || trace_ring_set_policy(&ring, policy))
        return printf("not ok - %s: init\n", name), 1;
    trace_filter_all(&ring, 1);
    trace_ring_start(&ring);

    pthread_t w[NCPU], lg, ct;
    pthread_create(&lg, NULL, logger, NULL);
    pthread_create(&ct, NULL, control, NULL);
    for (unsigned c = 0; c < NCPU; c++)
        pthread_create(&w[c], NULL, writer, (void *)(uintptr_t)c);
    for (unsigned c = 0; c < NCPU; c++)
        pthread_join(w[c], NULL);
    pthread_join(lg, NULL);
    pthread_join(ct, NULL);
    trace_ring_stop(&ring);
    unsigned idx;
    while (trace_ring_take(&ring, &idx) == 0)
        save_one(idx);

    // Each CPU's events, buffer after buffer in sequence order: in its order, none twice,
    // every one carrying its CPU's number.
    qsort(saved, nsaved, sizeof(*saved), by_seq);
    uint64_t seen[NCPU] = { 0 };
    int64_t last[NCPU];
    for (unsigned c = 0; c < NCPU; c++)
        last[c] = -1;
    for (unsigned k = 0; k < nsaved; k++)
        for (unsigned i = 0; i < saved[k].n; i++) {
            const struct kev_slot *s = &saved[k].s[i];
            unsigned t = kev_hdr_type(s->header), cpu = kev_hdr_cpu(s->header);
            if (kev_hdr_class(s->header) != KEV_C_PR_TH || t == KEV_TYPE_CC || t == KEV_TYPE_CE)
                continue;
            if (cpu >= NCPU || s->data[1] != cpu) {
                printf("# %s: an event of CPU %u in CPU %u's slot\n", name, s->data[1], cpu);
                bad = 1;
                continue;
            }
            if ((int64_t)s->data[2] <= last[cpu]) {
                printf("# %s: CPU %u: event %u after %lld\n", name, cpu, s->data[2],
                       (long long)last[cpu]);
                bad = 1;
            }
            last[cpu] = s->data[2];
            seen[cpu]++;
        }
    uint64_t lost_all = 0;
    for (unsigned c = 0; c < NCPU; c++) {
        struct trace_counts n;
        trace_ring_counts(&ring, c, &n);
        uint64_t lost = n.dropped + n.overwritten;
        lost_all += lost;
        if (n.recorded + lost != NEVENTS || n.recorded != seen[c]) {
            printf("# %s: CPU %u: recorded %llu + lost %llu != %u, or saved %llu\n", name, c,
                   (unsigned long long)n.recorded, (unsigned long long)lost, NEVENTS,
                   (unsigned long long)seen[c]);
            bad = 1;
        }
    }
    printf("%s - %s: %u writers x %u events, %u buffers saved, %llu lost (counted)\n",
           bad ? "not ok" : "ok", name, NCPU, NEVENTS, nsaved, (unsigned long long)lost_all);
    return bad;
}

int main(void)
{
    printf("1..2\n");
    int bad = run(TRACE_POLICY_SWITCH, "switch policy, concurrent writers, logger, control");
    bad |= run(TRACE_POLICY_OVERWRITE, "overwrite policy (writers overwrite other CPUs' buffers)");
    free(saved);
    return bad;
}
