// SPDX-License-Identifier: MIT
// Where the trace goes: a file on the host through semihosting (QEMU, or a debug probe on a
// board), and/or a framed byte stream on the board's trace UART (trace/kev_stream.h) that tools/kevcapture
// turns back into the same file. Both sinks get exactly the same bytes. On a board with no host
// files at all (x86-pc: the file fails with ENOSYS) the stream is the storage, even without -u.
#include "tracelogger.h"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <errno.h>
#include <trace/kev_stream.h>

#include <board_user.h>     // the trace stream UART, mapped into this process

static int fd = -1;
static bool fd_opened;    // the file exists (out_close closes fd, out_where still asks)
static bool uart;
static uint16_t seq;
static uint32_t file_crc;
static uint64_t total;
static uint8_t frame[KS_MAX_FRAME];

static void uart_send(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        trace_uart_putc(p[i]);
}

int out_open(const struct tl_opts *o)
{
    uart = o->uart;
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
            if (!uart) {
                uart = true;
                trace_uart_init();
            }
            printf("tracelogger: no host files on this board: the trace goes to UART 1 only\n");
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
    if (uart) {
        // Only the stream's END frame carries the whole file's CRC: a file on the host needs
        // none, and on several CPUs the logger's time per buffer decides whether it keeps up.
        file_crc = ks_crc32(file_crc, b, n);
        for (size_t off = 0; off < n; off += KS_MAX_PAYLOAD) {
            size_t len = n - off < KS_MAX_PAYLOAD ? n - off : KS_MAX_PAYLOAD;
            uart_send(frame, ks_frame(frame, KS_DATA, seq++, b + off, len));
        }
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
    return 0;
}

int out_close(void)
{
    int r = 0;
    if (uart) {
        uint8_t end[8];
        for (int i = 0; i < 4; i++) {
            end[i] = (uint8_t)(total >> (8 * i));
            end[4 + i] = (uint8_t)(file_crc >> (8 * i));
        }
        uart_send(frame, ks_frame(frame, KS_END, seq++, end, sizeof(end)));
    }
    if (fd >= 0) {
        r = close(fd);
        fd = -1;
    }
    return r;
}

const char *out_where(const struct tl_opts *o)
{
    if (fd_opened && uart)
        return "the file and UART 1";
    return fd_opened ? o->file : "UART 1";
}

uint64_t out_bytes(void)
{
    return total;
}
