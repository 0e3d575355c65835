// SPDX-License-Identifier: MIT
// kevbench: host figures for the shared trace code.
//   BENCH trace_host_ns_per_event N ns      the producer's simple-event path (trace_ring with
//                                           the host port), median of repeated runs
//   BENCH kev_decode_events_per_s N events/s the decoder on a generated trace of at least
//                                           10 million events, median of repeated runs
// Timing uses CLOCK_MONOTONIC; the producer's own clock is the host port's fake counter.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <trace/kev_decode.h>
#include <kevhost/kev_capture.h>

#define RUNS 7
#define EMITS 2000000u
#define DECODE_EVENTS 10000000u

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof(v[0]), cmp_double);
    return v[n / 2];
}

static int count_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    *(uint64_t *)user += e->nw;
    return 0;
}

int main(void)
{
    static struct trace_ring ring;
    const unsigned nbufs = 64;
    struct kev_slot *mem = malloc((size_t)nbufs * KEV_BUF_BYTES);
    if (!mem)
        return 1;

    // Producer: ring mode, so no logger is needed and every emit takes the normal path
    // (the slow path runs once per buffer, as in the kernel).
    double ns[RUNS];
    for (unsigned run = 0; run < RUNS; run++) {
        trace_ring_init(&ring, mem, (size_t)nbufs * KEV_BUF_BYTES, nbufs);
        trace_ring_set_policy(&ring, TRACE_POLICY_RING);
        trace_filter_all(&ring, 1);
        trace_host_port.step = 1;
        trace_ring_start(&ring);
        double t0 = now_s();
        for (uint32_t i = 0; i < EMITS; i++)
            trace_emit_simple(&ring, KEV_C_PR_TH, KEV_TH_RUNNING, i, i >> 3);
        ns[run] = (now_s() - t0) * 1e9 / EMITS;
        trace_ring_stop(&ring);
    }
    printf("BENCH trace_host_ns_per_event %.2f ns\n", median(ns, RUNS));
    fflush(stdout);

    // Decoder: a workload trace captured by a logger that keeps up (nothing lost).
    trace_ring_init(&ring, mem, (size_t)nbufs * KEV_BUF_BYTES, nbufs);
    trace_filter_all(&ring, 1);
    trace_host_port.step = 0;
    trace_ring_start(&ring);
    struct kcap c;
    kcap_begin(&c, 0, 25000000);
    kcap_workload(&ring, &c, DECODE_EVENTS, 1, 10000);   // a drain every 10000: none lost
    kcap_finish(&c, &ring);
    static struct kev_reader rd;
    double eps[RUNS];
    uint64_t events = 0;
    for (unsigned run = 0; run < RUNS; run++) {
        uint64_t words = 0;
        double t0 = now_s();
        if (kev_open(&rd, c.data, c.len) || (kev_set_user(&rd, &words),
                                             kev_on_any(&rd, count_event), kev_decode(&rd))) {
            fprintf(stderr, "kevbench: decode failed: %s\n", kev_error(&rd));
            return 1;
        }
        eps[run] = (double)rd.kr_events / (now_s() - t0);
        events = rd.kr_events;
    }
    if (events < DECODE_EVENTS) {
        fprintf(stderr, "kevbench: only %llu events decoded\n", (unsigned long long)events);
        return 1;
    }
    printf("BENCH kev_decode_events_per_s %.0f events/s\n", median(eps, RUNS));
    fflush(stdout);
    fprintf(stderr, "kevbench: decoded %llu events, %zu bytes, %d runs\n",
            (unsigned long long)events, c.len, RUNS);
    kcap_free(&c);
    free(mem);
    return 0;
}
