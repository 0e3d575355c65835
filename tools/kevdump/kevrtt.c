// SPDX-License-Identifier: MIT
// kevrtt: a stand-in for a debug probe's RTT reader, for targets no probe attaches to (QEMU).
// Through a GDB server (QEMU's -gdb) it finds the RTT control block, and while the target runs
// it repeatedly stops it, reads up-channel 0 between the read and write offsets with `m`
// packets, advances the read offset with `M` as a probe does, and lets it run on. The bytes
// (the tracelogger's framed stream, tracelogger -x rtt) go to a file or to one TCP client,
// like OpenOCD's `rtt server`, so `kevcapture HOST:PORT` rebuilds the .kev from either.
// QEMU's gdbstub stops the whole VM for each access (a real probe reads over SWD without
// stopping the core): the stop/continue sequence is ^C, wait for the stop reply, m/M, `c`.
#include <kevhost/gdb_remote.h>
#include "gdb_target.h"
#include "rtt_find.h"
#include <trace/kev_bytes.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <kevhost/tool_opts.h>

static const struct tool_opt opts[] = {
    { 'g', 'g', NULL, "HOST:PORT", "the GDB server (QEMU -gdb tcp::PORT, OpenOCD 3333, J-Link 2331;\n"
      "unix:PATH for QEMU's -gdb unix:PATH,server=on,wait=off)", NULL },
    { 'a', 'a', NULL, "ADDR", "the control block's address", NULL },
    { 's', 's', NULL, "START:LEN", "or scan this RAM range for its ID (\"SEGGER RTT\")", NULL },
    { 'o', 'o', NULL, "FILE", "write the stream here (default: standard output)", NULL },
    { 'l', 'l', NULL, "PORT", "or serve it to one TCP client on PORT (as OpenOCD's rtt server; 0: any free\n"
      "port, said on standard error)", NULL },
    { 'i', 'i', NULL, "USEC", "pause between reads while the channel is empty (default 1000)", NULL },
    { 't', 't', NULL, "SEC", "give up when no control block appears within SEC s (default 30)", NULL },
    { 'q', 'q', NULL, NULL, "no summary", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevrtt", "-g HOST:PORT (-a ADDR | -s START:LEN) [-o FILE | -l PORT]\n"
    "              [-i USEC] [-t SEC] [-q]",
    "Reads the tracelogger's RTT up-channel (tracelogger -x rtt) through a GDB server\n"
    "while the target runs, as a debug probe would, until the target ends.\n",
    opts, "Exit status: 0 the target ended after its stream was read, 1 error, 2 usage.\n",
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

// The listening socket for -l PORT (0: one the system picks), opened before the GDB server is
// connected (which halts the target), and said on standard error: "kevrtt: the stream is
// served on 127.0.0.1:PORT", the line a reader started beside it waits for.
static int serve_listen(const char *port)
{
    char *end;
    unsigned long n = strtoul(port, &end, 10);
    if (!*port || *end || n > 65535) {
        fprintf(stderr, "kevrtt: -l %s: a port number from 0 (any free one) to 65535 is expected\n",
                port);
        return -1;
    }
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)n),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof(a);
    if (s >= 0)
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 1) < 0 ||
        getsockname(s, (struct sockaddr *)&a, &alen) < 0) {
        fprintf(stderr, "kevrtt: cannot listen on port %s: %s\n", port, strerror(errno));
        if (s >= 0)
            close(s);
        return -1;
    }
    fprintf(stderr, "kevrtt: the stream is served on 127.0.0.1:%u\n", ntohs(a.sin_port));
    return s;
}

// The one client of the listening socket s (closed here), or -1.
static int serve_accept(int s)
{
    int c = accept(s, NULL, NULL);
    close(s);
    if (c < 0) {
        fprintf(stderr, "kevrtt: accept: %s\n", strerror(errno));
        return -1;
    }
    // A small send buffer, as a probe's server keeps: a client that stops reading stops the
    // reading of the channel within a second, as on a desk (loopback's grows to megabytes).
    int snd = 16384;
    setsockopt(c, SOL_SOCKET, SO_SNDBUF, &snd, sizeof(snd));
    return c;
}

static int open_out(const char *name)
{
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        fprintf(stderr, "kevrtt: cannot create %s: %s\n", name, strerror(errno));
    return fd;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

// The control block in start+len: the tracelogger makes it when it starts, so the target runs
// between looks until it is there. Returns its address; 0 when none came within give_up
// seconds (said on stderr); -1 on a gdb error (in g->err).
static long long find_block(struct gdbr *g, unsigned long long start, unsigned long long len,
                            unsigned give_up)
{
    double t0 = now();
    for (;;) {
        long long a = rtt_find(g, start, len);
        if (a != 0)
            return a;
        if (now() - t0 > give_up) {
            fprintf(stderr, "kevrtt: no RTT control block in 0x%llx+0x%llx within %u s (is the "
                    "tracelogger running with -x rtt?)\n", start, len, give_up);
            return 0;
        }
        if (gdbr_cont(g) < 0)
            return -1;
        usleep(20000);
        if (gdbr_halt(g) < 0)
            return -1;
    }
}

// What up-channel 0 of the block at addr holds, copied into data (cap bytes) and taken (its
// read offset moved on), the target halted. Returns how many bytes; -1 on a gdb error (in
// g->err); -2 when the channel is larger than data (said on stderr).
static long take_up(struct gdbr *g, unsigned long long addr, uint8_t *data, size_t cap)
{
    struct rtt_channel ch;
    if (rtt_read_up(g, addr, 0, &ch) < 0)
        return -1;
    uint32_t wr = ch.wr_off, rd = ch.rd_off;
    if (wr == rd)
        return 0;
    // Up to the ring's end, then from its start: one or two reads.
    uint32_t n1 = wr > rd ? wr - rd : ch.size - rd, n2 = wr > rd ? 0 : wr;
    if (n1 + n2 > cap) {
        fprintf(stderr, "kevrtt: an up-channel of %u bytes is larger than this reader's "
                "buffer\n", (unsigned)ch.size);
        return -2;
    }
    if (gdbr_read(g, ch.buffer + rd, data, n1) < 0 ||
        (n2 && gdbr_read(g, ch.buffer, data + n1, n2) < 0))
        return -1;
    uint8_t le[4];
    kev_put_le32(le, wr);
    if (gdbr_write(g, addr + RTT_CB_HEAD_BYTES + RTT_CH_RD, le, 4) < 0)
        return -1;
    return (long)(n1 + n2);
}

// The stream relayed to out until the target ends (its halt fails): each look takes what the
// up-channel holds, the target running while it goes out; *total bytes in *polls looks.
// 0 at the target's end; 1 after saying why; -1 on a gdb error (in g->err).
static int relay(struct gdbr *g, unsigned long long addr, int out, unsigned interval_us,
                 uint64_t *total, uint64_t *polls)
{
    static uint8_t data[1u << 16];
    for (;;) {
        long got = take_up(g, addr, data, sizeof(data));
        if (got == -2)
            return 1;
        if (got < 0)
            return -1;
        (*polls)++;
        if (gdbr_cont(g) < 0)
            return -1;
        // The target runs while the bytes go out, as with a probe that reads without stopping
        // the core: a client that stops reading stalls this reader, never the target.
        if (got && write_all(out, data, (size_t)got) < 0) {
            fprintf(stderr, "kevrtt: writing the stream failed: %s\n", strerror(errno));
            return 1;
        }
        *total += (uint64_t)got;
        if (!got)
            usleep(interval_us);
        if (gdbr_halt(g) < 0)
            return 0;
    }
}

int main(int argc, char **argv)
{
    const char *out_name = NULL, *port = NULL;
    struct gdb_target tg = { 0 };
    unsigned interval_us = 1000, give_up = 30;
    int quiet = 0, opt, bad;
    struct tool_args ta = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &ta)) != TOOL_OPTS_END) {
        switch (opt) {
        case 'g': case 'a': case 's':
            if ((bad = gdb_target_opt(&cmd, &tg, opt, ta.val, "the control block's address")))
                return bad;
            break;
        case 'o': out_name = ta.val; break;
        case 'l': port = ta.val; break;
        case 'i': interval_us = (unsigned)strtoul(ta.val, NULL, 0); break;
        case 't': give_up = (unsigned)strtoul(ta.val, NULL, 0); break;
        case 'q': quiet = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    if ((bad = gdb_target_done(&cmd, &tg, &ta)))
        return bad;
    unsigned long long addr = tg.addr;
    if (out_name && port)
        return tool_usage_error(&cmd, "-o FILE or -l PORT, not both");

    int out = 1;
    if (out_name && strcmp(out_name, "-") != 0 &&
        (out = open_out(out_name)) < 0)
        return 1;
    int listener = port ? serve_listen(port) : -1;
    if (port && listener < 0)
        return 1;
    static struct gdbr g;
    if (gdbr_connect(&g, tg.server, GDBR_WAIT_MS) < 0) {
        fprintf(stderr, "kevrtt: %s\n", g.err);
        return 1;
    }
    if (port && (out = serve_accept(listener)) < 0) {
        gdbr_close(&g);
        return 1;
    }

    if (!addr) {
        long long a = find_block(&g, tg.scan_start, tg.scan_len, give_up);
        if (a < 0)
            goto gdb_error;
        if (a == 0) {
            gdbr_close(&g);
            return 1;
        }
        addr = (unsigned long long)a;
    }
    if (!quiet)
        fprintf(stderr, "kevrtt: RTT control block at 0x%llx\n", addr);

    uint64_t total = 0, polls = 0;
    double t1 = now();
    int r = relay(&g, addr, out, interval_us, &total, &polls);
    if (r > 0)
        return 1;
    if (r < 0 || !g.exited)
        goto gdb_error;
    double dt = now() - t1;
    if (!quiet)
        fprintf(stderr, "kevrtt: %llu bytes in %.2f s (%.0f KB/s, %llu reads); the target ended "
                "(status %d)\n", (unsigned long long)total, dt, dt > 0 ? total / dt / 1000 : 0.0,
                (unsigned long long)polls, g.exit_status);
    if (out != 1)
        close(out);
    gdbr_close(&g);
    return 0;
gdb_error:
    fprintf(stderr, "kevrtt: %s\n", g.err);
    gdbr_close(&g);
    return 1;
}
