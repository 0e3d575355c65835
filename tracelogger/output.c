// SPDX-License-Identifier: MIT
// Where the trace goes: a file on the host through semihosting (QEMU, or a debug probe on a
// board), and/or a framed byte stream on the board's trace UART (trace/kev_stream.h) that tools/kevcapture
// turns back into the same file, and/or the same frames in an RTT up-channel that a debug probe
// reads (rtt.c). Every sink gets exactly the same bytes. On a board with no host
// files at all (x86-pc: the file fails with ENOSYS) the stream is the storage, even without -u.
#include "tracelogger.h"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <errno.h>
#include <kern.h>
#include <trace/kev_stream.h>

#include <board_user.h>     // the trace stream UART, mapped into this process

static int fd = -1;
static bool fd_opened;    // the file exists (out_close closes fd, out_where still asks)
static bool uart;
static int rtt;             // 0, or -x rtt's mode (1 block, 2 skip)
static uint64_t rtt_failed; // out_write calls whose RTT copy lost a frame
static uint16_t seq;
static uint32_t file_crc;
static uint64_t total;
static uint8_t frame[KS_MAX_FRAME];
// Cycles the logger spent handing frames to each stream sink (the UART's register writes,
// the RTT copy and its waits for the probe): the rate each transport sustains (make bench).
static uint64_t uart_cycles, rtt_cycles;

static void uart_send(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        trace_uart_putc(p[i]);
}

int out_open(const struct tl_opts *o)
{
    uart = o->uart;
    rtt = o->rtt;
    if (rtt)
        rtt_open(rtt == 1);
    seq = 0;
    file_crc = 0;
    total = 0;
    if (uart)
        trace_uart_init();
    if (o->file && o->file[0]) {
        fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        fd_opened = fd >= 0;
        if (fd < 0 && errno == ENOSYS) {
            // A board with no host files (x86-pc): the UART stream is the storage, -u or not
            // (a command line written for a board with semihosting still gets its trace).
            if (!uart && !rtt) {
                uart = true;
                trace_uart_init();
            }
            printf("tracelogger: no host files on this board: the trace goes to %s only\n",
                   uart ? "UART 1" : "the RTT up-channel");
            return 0;
        }
        if (fd < 0) {
            printf("tracelogger: cannot create %s on the host (errno %d)\n", o->file, errno);
            return -1;
        }
    }
    return 0;
}

int out_write(const void *p, size_t n)
{
    const uint8_t *b = p;
    total += n;
    int lost = 0;
    if (uart || rtt) {
        // Only the stream's END frame carries the whole file's CRC: a file on the host needs
        // none, and on several CPUs the logger's time per buffer decides whether it keeps up.
        file_crc = ks_crc32(file_crc, b, n);
        for (size_t off = 0; off < n; off += KS_MAX_PAYLOAD) {
            size_t len = n - off < KS_MAX_PAYLOAD ? n - off : KS_MAX_PAYLOAD;
            size_t flen = ks_frame(frame, KS_DATA, seq++, b + off, len);
            uint64_t t0 = ClockCycles();
            if (uart)
                uart_send(frame, flen);
            uint64_t t1 = ClockCycles();
            if (rtt && rtt_write(frame, flen) < 0)
                lost = 1;
            uart_cycles += t1 - t0;
            rtt_cycles += ClockCycles() - t1;
        }
        rtt_failed += (uint64_t)lost;
    }
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

int out_close(void)
{
    int r = 0;
    if (uart || rtt) {
        uint8_t end[8];
        for (int i = 0; i < 4; i++) {
            end[i] = (uint8_t)(total >> (8 * i));
            end[4 + i] = (uint8_t)(file_crc >> (8 * i));
        }
        size_t flen = ks_frame(frame, KS_END, seq++, end, sizeof(end));
        if (uart)
            uart_send(frame, flen);
        if (rtt) {
            rtt_write(frame, flen);
            rtt_close();
            if (rtt_lost_frames())
                printf("tracelogger: RTT: %s bytes in %s frames not taken by a probe (lost; %s "
                       "buffers incomplete)\n", u64txt(rtt_lost_bytes()).s,
                       u64txt(rtt_lost_frames()).s, u64txt(rtt_failed).s);
        }
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

uint64_t out_sink_cycles(bool of_rtt)
{
    return of_rtt ? rtt_cycles : uart_cycles;
}

uint64_t out_bytes(void)
{
    return total;
}
