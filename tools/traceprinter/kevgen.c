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

// What to generate, from the command line.
struct gen_opts {
    unsigned long n, k, drain, seed;
    unsigned policy;
    int big, errs;
    const char *out;
};

// Reads the options into o: -1 to go on, else the exit status (0 after --help, 2 bad usage).
static int parse_args(int argc, char **argv, struct gen_opts *o)
{
    static const char *const policies[] = { "switch", "overwrite", "ring", "fill" };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-e")) {
            o->errs = 1;
            continue;
        } else if (!strcmp(a, "-b")) {
            o->big = 1;
            continue;
        } else if (!v) {
            bad = 1;
        } else if (!strcmp(a, "-n")) {
            bad = number(v, &o->n);
        } else if (!strcmp(a, "-k")) {
            bad = number(v, &o->k) || o->k == 0 || o->k > TRACE_MAX_BUFS;
        } else if (!strcmp(a, "-d")) {
            bad = number(v, &o->drain);
        } else if (!strcmp(a, "-s")) {
            bad = number(v, &o->seed);
        } else if (!strcmp(a, "-o")) {
            o->out = v;
        } else if (!strcmp(a, "-x")) {
            bad = 1;
            for (unsigned p = 0; p < 4; p++)
                if (!strcmp(v, policies[p]))
                    o->policy = p, bad = 0;
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
    if (!o->out) {
        fprintf(stderr, "kevgen: -o FILE is required\n");
        return 2;
    }
    return -1;
}

// Runs the workload through a ring of o->k buffers into the capture c; the events generated
// (in fill mode those recorded: tracing stopped with the ring full), or -1 when the ring
// cannot be set up.
static int64_t generate(const struct gen_opts *o, struct kev_slot *mem, struct kcap *c)
{
    static struct trace_ring ring;
    if (trace_ring_init(&ring, mem, o->k * KEV_BUF_BYTES, (unsigned)o->k) ||
        trace_ring_set_policy(&ring, o->policy))
        return -1;
    ring.tr_big = (unsigned)o->big; // strings in the file's byte order, as a big-endian target
    trace_filter_all(&ring, 1);
    trace_host_port.now = 0xffff0000ull; // the low word wraps early in every trace
    trace_ring_start(&ring);
    kcap_begin(c, o->big, 25000000);
    c->calls_vary = (unsigned)o->errs;
    uint64_t emitted = kcap_workload(&ring, c, o->n, (unsigned)o->seed, (unsigned)o->drain);
    kcap_finish(c, &ring);
    if (ring.tr_filled) { // fill mode stops tracing: later events were never generated
        struct trace_counts cnt;
        trace_ring_counts(&ring, 0, &cnt);
        emitted = cnt.recorded;
    }
    return (int64_t)emitted;
}

int main(int argc, char **argv)
{
    struct gen_opts o = { .n = 10000, .k = 4, .drain = 200, .seed = 1,
                          .policy = TRACE_POLICY_SWITCH };
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    struct kev_slot *mem = malloc(o.k * KEV_BUF_BYTES);
    struct kcap c;
    int64_t emitted = mem ? generate(&o, mem, &c) : -1;
    if (emitted < 0) {
        fprintf(stderr, "kevgen: cannot set up %lu buffers\n", o.k);
        return 1;
    }
    FILE *f = fopen(o.out, "wb");
    if (!f || fwrite(c.data, 1, c.len, f) != c.len || fclose(f)) {
        fprintf(stderr, "kevgen: cannot write %s\n", o.out);
        return 1;
    }
    printf("generated %llu events\n", (unsigned long long)emitted);
    kcap_free(&c);
    free(mem);
    return 0;
}
