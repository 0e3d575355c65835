// SPDX-License-Identifier: MIT
// Where the trace goes: a file on the host through semihosting (QEMU, or a debug probe on a
// board), and/or the live stream (stream.c): frames on the board's trace UART that
// tools/kevcapture turns back into the same file, and/or the same frames in an RTT up-channel
// that a debug probe reads (rtt.c). Every sink gets exactly the same bytes: a buffer the
// stream's host does not take is dropped from the file too, and counted. On a board with no
// host files at all (x86-pc: the file fails with ENOSYS) the stream is the storage, even
// without -u.
#include "tracelogger.h"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>
#include <kern.h>
#include <trace/kev.h>

static int fd = -1;
static bool fd_opened;    // the file exists (out_close closes fd, out_where still asks)
static bool uart;
static int rtt;             // 0, or -x rtt's mode (1 block, 2 skip)
static uint64_t rtt_failed; // out_write calls whose RTT copy lost a frame
static uint64_t total;

int out_open(const struct tl_opts *o)
{
    uart = o->uart;
    rtt = o->rtt;
    if (rtt)
        rtt_open(rtt == 1);
    total = 0;
    if (o->file && strcmp(o->file, "-") == 0) {    // no file: the stream is the storage
        if (!uart && !rtt) {
            printf("tracelogger: -f - (no file) needs a stream: -u or -x rtt\n");
            return -1;
        }
        return stream_open(uart, rtt, o->verbose, o->wire);
    }
    if (o->file && o->file[0]) {
        fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        fd_opened = fd >= 0;
        if (fd < 0 && errno == ENOSYS) {
            // A board with no host files (x86-pc): the UART stream is the storage, -u or not
            // (a command line written for a board with semihosting still gets its trace).
            if (!uart && !rtt)
                uart = true;
            if (stream_open(uart, rtt, o->verbose, o->wire) < 0)
                return -1;
            printf("tracelogger: no host files on this board: the trace goes to %s only\n",
                   uart ? "UART 1" : "the RTT up-channel");
            return 0;
        }
        if (fd < 0) {
            printf("tracelogger: cannot create %s on the host (errno %d)\n", o->file, errno);
            return -1;
        }
    }
    return stream_open(uart, rtt, o->verbose, o->wire);
}

// The bytes to every sink; a kernel buffer's (below) go to the stream at the send priority.
static int write_sinks(const void *p, size_t n, bool below)
{
    const uint8_t *b = p;
    total += n;
    int lost = stream_data(b, n, below) < 0;
    rtt_failed += (uint64_t)lost;
    if (fd >= 0) {
        while (n) {
            ssize_t w = write(fd, b, n);
            if (w <= 0)
                return -1;
            b += w;
            n -= (size_t)w;
        }
    }
    // With a file, the file is the trace and the RTT copy's losses are reported apart
    // (out_close); with RTT the storage, a buffer it lost counts as not stored.
    return lost && !fd_opened ? -1 : 0;
}

int out_write(const void *p, size_t n)
{
    return write_sinks(p, n, false);
}

int out_buffer(const struct kev_slot *s, unsigned nslots, const struct tl_buf *b)
{
    size_t n = (size_t)nslots * sizeof(*s);
    unsigned why = stream_refuses(n);
    if (why) {
        stream_drop(b, why);
        return 1;
    }
    return write_sinks(s, n, true) < 0 ? -1 : 0;
}

int out_close(void)
{
    int r = 0;
    stream_end();
    if (rtt) {
        rtt_close();
        if (rtt_lost_frames())
            printf("tracelogger: RTT: %s bytes in %s frames not taken by a probe (lost; %s "
                   "buffers incomplete)\n", u64txt(rtt_lost_bytes()).s,
                   u64txt(rtt_lost_frames()).s, u64txt(rtt_failed).s);
    }
    if (fd >= 0) {
        r = close(fd);
        fd = -1;
    }
    return r;
}

const char *out_where(const struct tl_opts *o)
{
    if (fd_opened && (uart || rtt))
        return uart && rtt ? "the file, UART 1 and RTT" : uart ? "the file and UART 1"
                                                                : "the file and RTT";
    if (!fd_opened && rtt)
        return uart ? "UART 1 and RTT" : "RTT";
    return fd_opened ? o->file : "UART 1";
}

uint64_t out_bytes(void)
{
    return total;
}
