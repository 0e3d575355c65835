// SPDX-License-Identifier: MIT
// kevwire: the stream the tracelogger would send for a .kev file with its buffers in the
// compact wire encoding (kev_wire_stream.h), and what it costs: the bytes an event of any
// capture on the line, from the host (make bench's figure for captures of every shape), and
// a stream for the expansion's tests and the fuzzers' seeds. kevcapture reads the stream back
// into the same file.
#include <stdio.h>
#include <stdlib.h>
#include <kevhost/kev_wire_stream.h>
#include <kevhost/tool_file.h>
#include <kevhost/tool_opts.h>
#include <trace/kev_decode.h>
#include <trace/kev_stream.h>

static const struct tool_opt opts[] = {
    { 'o', 'o', NULL, "OUT", "write the stream to OUT", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevwire", "[-o OUT] FILE.kev",
    "The tracelogger's compact stream of a .kev file (its buffers in KEY and SLOTS\n"
    "frames, trace/kev_wire.h), as the board sends it over -u or -x rtt. Prints\n"
    "\"kevwire: N events, M bytes of file, S bytes of stream: B bytes an event (R x)\".\n",
    opts, "Exit status: 0, 1 when the file does not open or OUT cannot be written, 2 bad usage.\n",
};

struct ctx {
    FILE *out;
    uint64_t bytes;
    int failed;
};

static void put(void *user, const uint8_t *f, size_t n, unsigned type, size_t a, size_t z)
{
    struct ctx *c = user;
    (void)type, (void)a, (void)z;
    c->bytes += n;
    if (c->out && fwrite(f, 1, n, c->out) != n)
        c->failed = 1;
}

static int count_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    if (e->cls != KEV_C_CONTROL)    // (the ring's own TIME, BUFFER, ... are no events)
        ++*(uint64_t *)user;
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *in;
    int opt;
    struct tool_args a = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        if (opt == 'o')
            out = a.val;
        else
            return tool_opts_exit(opt);
    }
    if (tool_one_file(&cmd, &a, &in))
        return 2;
    size_t len;
    uint8_t *p = tool_read_file(in, &len);
    if (!p) {
        fprintf(stderr, "kevwire: cannot read %s\n", in);
        return 1;
    }
    static struct kev_reader rd;
    uint64_t events = 0;
    if (kev_open(&rd, p, len) == 0) {
        kev_set_user(&rd, &events);
        kev_on_any(&rd, count_event);
        kev_decode(&rd);
    }
    struct ctx c = { NULL, 0, 0 };
    if (out && !(c.out = fopen(out, "wb"))) {
        fprintf(stderr, "kevwire: cannot create %s\n", out);
        return 1;
    }
    const char *why = NULL;
    if (kev_wire_stream(p, len, put, &c, &why) < 0) {
        fprintf(stderr, "kevwire: %s: %s\n", in, why);
        return 1;
    }
    if (c.out && fclose(c.out))
        c.failed = 1;
    if (c.failed) {
        fprintf(stderr, "kevwire: writing %s failed\n", out);
        return 1;
    }
    printf("kevwire: %llu events, %zu bytes of file, %llu bytes of stream: %.2f bytes an event "
           "(%.2f x)\n", (unsigned long long)events, len, (unsigned long long)c.bytes,
           events ? (double)c.bytes / (double)events : 0.0,
           c.bytes ? (double)len / (double)c.bytes : 0.0);
    free(p);
    return 0;
}
