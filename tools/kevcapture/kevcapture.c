// SPDX-License-Identifier: MIT
// kevcapture: rebuilds a .kev file from the tracelogger's framed byte stream (tracelogger -u),
// read from a file, a pipe, a pty, a serial port (QEMU: -serial file:uart.bin) or a TCP port
// (OpenOCD's `rtt server`, tools/kevdump/kevrtt -l: the RTT transport), through the live
// reader (kev_live.h): the file is written unit by unit as the stream arrives, every damaged
// or missing piece is reported once, and the exit status says whether the file is complete.
// The board's loss reports (LOSS frames) are said too; its heartbeats carry nothing a file needs.
#include <stdio.h>
#include <string.h>
#include <kevhost/kev_input.h>
#include <kevhost/kev_live.h>
#include <kevhost/tool_opts.h>

static const struct tool_opt opts[] = {
    { 'o', 'o', NULL, "FILE", "where to write the trace (default capture.kev; after a board\n"
      "reset, the next segment goes to FILE-2.kev, ...)", NULL },
    { 'f', 'f', "follow", NULL, "read a file as it grows (QEMU's -serial file: while the\n"
      "board runs) until the trace's end", NULL },
    { 'q', 'q', NULL, NULL, "only report problems", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevcapture", "[-o OUT.kev] [-f] [-q] [INPUT]",
    "Rebuilds a .kev trace from the tracelogger's framed stream (tracelogger -u, or\n"
    "-x rtt through a probe's RTT server), writing it as it arrives.\n"
    "  INPUT     a file, pipe, pty or serial device (default: standard input), or\n"
    "            HOST:PORT, a TCP server such as OpenOCD's `rtt server start PORT 0`\n"
    "            (tried for 10 s); a terminal is switched to raw mode; reading stops\n"
    "            at the END frame\n",
    opts, "Exit status: 0 complete and undamaged, 1 damaged or incomplete, 2 bad usage.\n",
};

struct ctx {
    uint64_t bytes;
    unsigned segments;
};

static void on_unit(void *user, const uint8_t *p, size_t n, enum kev_live_unit kind)
{
    struct ctx *c = user;
    (void)p, (void)kind;
    c->bytes += n;
}

// The board dropped buffers because the host did not take the stream: the file holds the
// same gap (its trailer counts those events lost on that CPU), so it is complete as written.
static void on_loss(void *user, struct kev_reader *r, const struct ks_loss *l)
{
    (void)r;
    fprintf(stderr, "kevcapture: %s: the board lost %llu events on CPU %lu in %lu buffers (seq "
            "%lu...) at byte %llu: the host %s (%llu lost there in all)\n", (const char *)user,
            (unsigned long long)l->events, (unsigned long)l->cpu, (unsigned long)l->buffers,
            (unsigned long)l->first_seq, (unsigned long long)l->offset,
            l->reason == KS_LOSS_HOST_STOP ? "asked it to stop sending"
                                           : "did not take the stream",
            (unsigned long long)l->total);
}

static void on_fault(void *user, enum kev_live_fault f, const char *what)
{
    (void)user, (void)f;
    fprintf(stderr, "kevcapture: %s\n", what);
}

int main(int argc, char **argv)
{
    const char *out_name = "capture.kev", *in_name = NULL;
    int quiet = 0, follow = 0, opt;
    struct tool_args a = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        switch (opt) {
        case 'o': out_name = a.val; break;
        case 'f': follow = 1; break;
        case 'q': quiet = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    if (a.ind < argc - 1)
        return tool_usage_error(&cmd, "only one INPUT, got %s and %s", argv[a.ind], argv[a.ind + 1]);
    if (a.ind < argc)
        in_name = argv[a.ind];

    struct kev_input in;
    if (kev_input_open("kevcapture", in_name, follow, &in) < 0)
        return 1;
    struct kev_live_consumer file;
    struct kev_live_file *w = kev_live_file_open("kevcapture", out_name, &file);
    struct kev_live *l = kev_live_new(in.name);
    if (!w || !l) {
        if (!l)
            fprintf(stderr, "kevcapture: out of memory\n");
        return 1;
    }
    struct ctx c = { 0, 0 };
    const struct kev_live_consumer count = { .user = &c, .unit = on_unit, .fault = on_fault };
    const struct kev_live_consumer losses = { .user = in.name, .loss = on_loss };
    kev_live_attach(l, &file);
    kev_live_attach(l, &count);
    kev_live_attach(l, &losses);

    static uint8_t buf[1u << 16];
    long n;
    while (!kev_live_done(l) && (n = kev_input_read(&in, buf, sizeof(buf), -1)) >= 0)
        kev_live_feed(l, buf, (size_t)n);
    if (!kev_live_done(l))
        kev_live_finish(l);
    kev_input_close(&in);
    int bad = !kev_live_sound(l);
    const struct kev_live_counts *k = kev_live_counts(l);
    if (kev_live_file_close(w) < 0)
        bad = 1;
    if (!quiet || bad)
        fprintf(bad ? stderr : stdout, "kevcapture: %llu bytes in %llu frames written to %s%s%s\n",
                (unsigned long long)c.bytes, (unsigned long long)k->frames, out_name,
                k->segments > 1 ? " and the files of the segments after it" : "",
                bad ? " (INCOMPLETE)" : "");
    if (k->board_lost)
        fprintf(stderr, "kevcapture: the board reported %llu events lost in LOSS frames (counted "
                "in the file's trailer)\n", (unsigned long long)k->board_lost);
    kev_live_free(l);
    return bad ? 1 : 0;
}
