// SPDX-License-Identifier: MIT
// kevgen: writes a synthetic .kev trace produced by the real trace ring (trace/trace_ring.c,
// with the host port's fake clock) and the real writer (trace/kev_file.c). Fixtures for the
// traceprinter script tests are generated with it, so none is hard-coded.
// Prints "generated N events" on stdout so tests can check recorded + lost == generated.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kevhost/kev_capture.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: kevgen [-b] [-e] [-n EVENTS] [-k BUFFERS] [-x POLICY] [-d DRAIN] [-s SEED]\n"
               "              -o FILE\n"
               "  -b          big-endian file (default little-endian)\n"
               "  -e          every 4th kernel call fails (EAGAIN) and every 8th is wide\n"
               "  -n EVENTS   events to generate (default 10000)\n"
               "  -k BUFFERS  kernel buffers (default 4, max %u)\n"
               "  -x POLICY   switch | overwrite | ring | fill (default switch)\n"
               "  -d DRAIN    the logger saves buffers every DRAIN events (default 200;\n"
               "              0: only at the end, a logger too slow to keep up)\n"
               "  -s SEED     workload seed (default 1)\n",
            TRACE_MAX_BUFS);
}

static int number(const char *s, unsigned long *v)
{
    char *end;
    *v = strtoul(s, &end, 0);
    return s[0] && !*end ? 0 : -1;
}

int main(int argc, char **argv)
{
    unsigned long n = 10000, k = 4, drain = 200, seed = 1;
    unsigned policy = TRACE_POLICY_SWITCH;
    int big = 0, errs = 0;
    const char *out = NULL;
    static const char *const policies[] = { "switch", "overwrite", "ring", "fill" };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-e")) {
            errs = 1;
            continue;
        } else if (!strcmp(a, "-b")) {
            big = 1;
            continue;
        } else if (!v) {
            bad = 1;
        } else if (!strcmp(a, "-n")) {
            bad = number(v, &n);
        } else if (!strcmp(a, "-k")) {
            bad = number(v, &k) || k == 0 || k > TRACE_MAX_BUFS;
        } else if (!strcmp(a, "-d")) {
            bad = number(v, &drain);
        } else if (!strcmp(a, "-s")) {
            bad = number(v, &seed);
        } else if (!strcmp(a, "-o")) {
            out = v;
        } else if (!strcmp(a, "-x")) {
            bad = 1;
            for (unsigned p = 0; p < 4; p++)
                if (!strcmp(v, policies[p]))
                    policy = p, bad = 0;
        } else {
            bad = 1;
        }
        if (bad) {
            fprintf(stderr, "kevgen: bad option or value: %s %s\n", a, v ? v : "");
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (!out) {
        fprintf(stderr, "kevgen: -o FILE is required\n");
        return 2;
    }
    struct kev_slot *mem = malloc(k * KEV_BUF_BYTES);
    static struct trace_ring ring;
    if (!mem || trace_ring_init(&ring, mem, k * KEV_BUF_BYTES, (unsigned)k) ||
        trace_ring_set_policy(&ring, policy)) {
        fprintf(stderr, "kevgen: cannot set up %lu buffers\n", k);
        return 1;
    }
    ring.tr_big = (unsigned)big; // strings in the file's byte order, as a big-endian target
    trace_filter_all(&ring, 1);
    trace_host_port.now = 0xffff0000ull; // the low word wraps early in every trace
    trace_ring_start(&ring);
    struct kcap c;
    kcap_begin(&c, big, 25000000);
    c.calls_vary = (unsigned)errs;
    uint64_t emitted = kcap_workload(&ring, &c, n, (unsigned)seed, (unsigned)drain);
    kcap_finish(&c, &ring);
    if (ring.tr_filled) { // fill mode stops tracing: later events were never generated
        struct trace_counts cnt;
        trace_ring_counts(&ring, 0, &cnt);
        emitted = cnt.recorded;
    }
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(c.data, 1, c.len, f) != c.len || fclose(f)) {
        fprintf(stderr, "kevgen: cannot write %s\n", out);
        return 1;
    }
    printf("generated %llu events\n", (unsigned long long)emitted);
    kcap_free(&c);
    free(mem);
    return 0;
}
