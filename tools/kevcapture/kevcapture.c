// SPDX-License-Identifier: MIT
// kevcapture: rebuilds a .kev file from the tracelogger's framed byte stream (tracelogger -u),
// read from a file, a pipe, a pty, a serial port (QEMU: -serial file:uart.bin) or a TCP port
// (OpenOCD's `rtt server`, tools/kevdump/kevrtt -l: the RTT transport). Every damaged
// or missing frame is reported; the exit status says whether the file is complete. The
// board's loss reports (LOSS frames) are said too; its heartbeats carry nothing a file needs.
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>
#include <trace/kev_stream.h>
#include <kevhost/tool_opts.h>

static const struct tool_opt opts[] = {
    { 'o', 'o', NULL, "FILE", "where to write the trace (default capture.kev)", NULL },
    { 'q', 'q', NULL, NULL, "only report problems", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevcapture", "[-o OUT.kev] [-q] [INPUT]",
    "Rebuilds a .kev trace from the tracelogger's framed stream (tracelogger -u, or\n"
    "-x rtt through a probe's RTT server).\n"
    "  INPUT     a file, pipe, pty or serial device (default: standard input), or\n"
    "            HOST:PORT, a TCP server such as OpenOCD's `rtt server start PORT 0`\n"
    "            (tried for 10 s); a terminal is switched to raw mode; reading stops\n"
    "            at the END frame\n",
    opts, "Exit status: 0 complete and undamaged, 1 damaged or incomplete, 2 bad usage.\n",
};

struct ctx {
    FILE *out;
    const char *in_name;
    int write_failed;
};

static void on_data(void *arg, const uint8_t *p, size_t n)
{
    struct ctx *c = arg;
    if (fwrite(p, 1, n, c->out) != n)
        c->write_failed = 1;
}

// The board dropped buffers because the host did not take the stream: the file holds the
// same gap (its trailer counts those events lost on that CPU), so it is complete as written.
static void on_loss(void *arg, const struct ks_loss *l)
{
    struct ctx *c = arg;
    fprintf(stderr, "kevcapture: %s: the board lost %llu events on CPU %lu in %lu buffers (seq "
            "%lu...) at byte %llu: the host %s (%llu lost there in all)\n", c->in_name,
            (unsigned long long)l->events, (unsigned long)l->cpu, (unsigned long)l->buffers,
            (unsigned long)l->first_seq, (unsigned long long)l->offset,
            l->reason == KS_LOSS_HOST_STOP ? "asked it to stop sending"
                                           : "did not take the stream",
            (unsigned long long)l->total);
}

static void on_problem(void *arg, enum ks_problem what, uint64_t off, uint32_t detail)
{
    struct ctx *c = arg;
    switch (what) {
    case KS_P_JUNK:
        fprintf(stderr, "kevcapture: %s: %lu bytes outside frames at offset %llu (skipped)\n",
                c->in_name, (unsigned long)detail, (unsigned long long)off);
        break;
    case KS_P_CRC:
        fprintf(stderr, "kevcapture: %s: frame %lu at offset %llu is damaged (CRC mismatch); "
                "its data is missing from the output\n", c->in_name, (unsigned long)detail,
                (unsigned long long)off);
        break;
    case KS_P_GAP:
        fprintf(stderr, "kevcapture: %s: %lu frame(s) missing before offset %llu\n", c->in_name,
                (unsigned long)detail, (unsigned long long)off);
        break;
    case KS_P_BADLEN:
        fprintf(stderr, "kevcapture: %s: bad frame header at offset %llu (length %lu)\n",
                c->in_name, (unsigned long long)off, (unsigned long)detail);
        break;
    }
}

// HOST:PORT, retried for 10 s (the server may start after us, as a probe's RTT server does
// once the control block is found).
static int tcp_connect(const char *where)
{
    char host[128];
    const char *colon = strrchr(where, ':');
    size_t hn = (size_t)(colon - where);
    snprintf(host, sizeof(host), "%.*s", (int)(hn < sizeof(host) ? hn : sizeof(host) - 1), where);
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai, *a;
    int r = getaddrinfo(hn ? host : "localhost", colon + 1, &hints, &ai);
    if (r) {
        fprintf(stderr, "kevcapture: %s: %s\n", where, gai_strerror(r));
        return -1;
    }
    int fd = -1, err = 0;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        for (a = ai; a && fd < 0; a = a->ai_next) {
            fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
            if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
                err = errno;
                close(fd);
                fd = -1;
            }
        }
        if (fd < 0)
            usleep(100000);
    }
    freeaddrinfo(ai);
    if (fd < 0)
        fprintf(stderr, "kevcapture: cannot connect to %s: %s\n", where, strerror(err));
    return fd;
}

int main(int argc, char **argv)
{
    const char *out_name = "capture.kev", *in_name = NULL;
    int quiet = 0, opt;
    struct tool_args a = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        switch (opt) {
        case 'o': out_name = a.val; break;
        case 'q': quiet = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    if (a.ind < argc - 1)
        return tool_usage_error(&cmd, "only one INPUT, got %s and %s", argv[a.ind], argv[a.ind + 1]);
    if (a.ind < argc)
        in_name = argv[a.ind];

    int fd = 0;
    if (in_name && access(in_name, F_OK) != 0 && strchr(in_name, ':')) {
        if ((fd = tcp_connect(in_name)) < 0)
            return 1;
    } else if (in_name && (fd = open(in_name, O_RDONLY)) < 0) {
        fprintf(stderr, "kevcapture: cannot open %s: %s\n", in_name, strerror(errno));
        return 1;
    }
    if (isatty(fd)) {
        struct termios t;
        if (tcgetattr(fd, &t) == 0) {
            cfmakeraw(&t);
            tcsetattr(fd, TCSANOW, &t);
        }
    }
    struct ctx c = { fopen(out_name, "wb"), in_name ? in_name : "stdin", 0 };
    if (!c.out) {
        fprintf(stderr, "kevcapture: cannot create %s: %s\n", out_name, strerror(errno));
        return 1;
    }
    static struct ks_decoder d;
    ks_decoder_init(&d);
    d.on_data = on_data;
    d.on_problem = on_problem;
    d.on_loss = on_loss;
    d.arg = &c;

    uint8_t buf[4096];
    ssize_t n;
    while (!d.ended && (n = read(fd, buf, sizeof(buf))) > 0)
        ks_decode(&d, buf, (size_t)n);
    int bad = ks_decoder_finish(&d);
    if (fclose(c.out) != 0 || c.write_failed) {
        fprintf(stderr, "kevcapture: writing %s failed\n", out_name);
        return 1;
    }
    if (!d.ended)
        fprintf(stderr, "kevcapture: %s: the stream ended without its END frame: the trace is "
                "incomplete\n", c.in_name);
    else if (d.end_len != (uint32_t)d.data_bytes || d.end_crc != d.file_crc)
        fprintf(stderr, "kevcapture: %s: the stream announced %lu bytes (CRC %08lx) but %llu "
                "arrived (CRC %08lx)\n", c.in_name, (unsigned long)d.end_len,
                (unsigned long)d.end_crc, (unsigned long long)d.data_bytes,
                (unsigned long)d.file_crc);
    if (!quiet || bad)
        fprintf(bad ? stderr : stdout, "kevcapture: %llu bytes in %llu frames written to %s%s\n",
                (unsigned long long)d.data_bytes, (unsigned long long)d.frames, out_name,
                bad ? " (INCOMPLETE)" : "");
    if (d.loss_frames)
        fprintf(stderr, "kevcapture: the board reported %llu events lost in %llu LOSS frames "
                "(counted in the file's trailer)\n", (unsigned long long)d.lost_events,
                (unsigned long long)d.loss_frames);
    return bad ? 1 : 0;
}
