// SPDX-License-Identifier: MIT
// kevrelay: carries the trace stream UART of a board in QEMU (the tracelogger's framed .kev,
// trace/kev_stream.h) to a live reader on a TCP port or a named pipe, while the system runs
// (scripts/qemu-run.sh, QEMU_STREAM=tcp:PORT|fifo:PATH).
//
// Why a relay: QEMU's UART models write to their character device synchronously, so a reader
// that stops reading would stop the virtual CPU with it. The relay reads QEMU all the time
// into its own buffer and gives the reader what it takes. When the buffer passes its high
// mark (all but 2 x KS_XOFF_ROOM bytes used) it sends KS_XOFF down the UART's receive line,
// and KS_XON once it has drained to half that mark: the tracelogger then drops whole buffers
// and counts them (LOSS frames), as a board on a desk does for a host that stops reading. A
// board that keeps sending past a full buffer (an image without flow control) has bytes
// dropped here, counted and said: never a stalled QEMU, never a silent loss.
//
// One reader at a time; a second one that connects while one is served is refused (closed at
// once), said. Bytes wait in the buffer until one comes (a reader started after QEMU gets the
// stream from its first byte, while the buffer holds it). A reader that goes away loses what
// its socket still held (counted: never "delivered"); one that comes after the stream's start
// was given to another, or dropped, gets the stream's header frames again (kept as they
// passed: the file's header and system page), then the stream from the next whole frame the
// buffer holds, so that it decodes from there and says what it missed (a jump in the frames'
// sequence). At QEMU's end the relay delivers what it holds, closes the reader's side (end of
// file) and exits; with no reader, or one that takes nothing, it waits -w seconds, then says
// how many bytes nobody read. Exit status 0 only when one reader took the whole stream.
#define _GNU_SOURCE // memmem
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <kevhost/tool_opts.h>
#include <trace/kev_stream.h>

static const struct tool_opt opts[] = {
    { 'q', 'q', "qemu", "SOCKET", "the Unix socket to create for QEMU's chardev (required)", NULL },
    { 'b', 'b', "buffer", "BYTES", "the relay's buffer (default 4 MiB, at least 128 KiB)", NULL },
    { 'w', 'w', "wait", "SEC", "after QEMU's end, how long to wait for a reader (default 10)", NULL },
    { 's', 's', "summary", NULL, "say each XOFF and XON, and at the end how much went through", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevrelay", "-q SOCKET [-b BYTES] [-w SEC] [-s] tcp:PORT|fifo:PATH|-",
    "Relays a board's trace stream UART from QEMU to one live reader at a time (a second\n"
    "is refused; a reader after the stream's start gets its header again): on 127.0.0.1:PORT\n"
    "(PORT 0: a free one, said on stderr), a named pipe (made if missing), or standard\n"
    "output. QEMU is never stalled by a slow reader: past the buffer's high mark the relay\n"
    "sends the board XOFF (the tracelogger drops and counts whole buffers), and XON again\n"
    "when the reader has caught up.\n",
    opts, "Exit status: 0 everything QEMU sent was delivered to one reader, 1 bytes were\n"
          "dropped or never read (a reader went away, or took nothing for -w seconds after\n"
          "QEMU's end), or an error, 2 usage.\n",
};

// The buffer: a ring of cap bytes, [head, head + fill) holding bytes not yet delivered.
struct ring {
    uint8_t *b;
    size_t cap, head, fill;
};

static struct {
    struct ring r;
    size_t high, low;           // XOFF at or above high, XON at or below low
    int stopped;                // XOFF sent and not yet XON
    uint64_t in, out, dropped, xoffs;
    uint64_t head_off;          // the stream offset of the buffer's head
    uint64_t lost_left;         // bytes a reader's socket held when it went away
    uint64_t readers, refused, late;    // readers served, refused, and given the header again
    uint64_t left_mid;          // readers that went away before the stream's end
    uint64_t reader_out;        // stream bytes written to the current reader
    uint64_t reader_hdr;        // ... and its header again
    int need_head;              // the current reader must get the header, then a whole frame
    // the stream's header frames (the file's header and system page), kept as they pass
    uint8_t head[65536];
    size_t head_len, head_want; // bytes kept; the header's length (0: not known yet)
    uint64_t head_payload;      // DATA payload bytes in them
    int head_done;
    // a frame being followed across reads: where the next frame starts (stream offset)
    uint64_t frame_at;
    size_t fhave;               // bytes of the frame at frame_at seen
    uint64_t ring_in;           // bytes put in the buffer (its stream offsets)
    double taken_at;            // host time the reader last took bytes (or came)
    double qemu_end;            // ... QEMU closed its side
    int stuck;                  // the wait for a reader that took nothing ran out
    int qemu, qemu_listen;      // QEMU's connection, and the socket it connects to
    int reader, reader_listen;  // the reader, and the TCP socket it connects to
    const char *fifo;           // fifo:PATH, reopened as readers come and go
    int to_stdout;
    int qemu_done;              // QEMU closed its side (it exited)
    int said_drop;
    int verbose;                // -s
} rl = { .qemu = -1, .qemu_listen = -1, .reader = -1, .reader_listen = -1 };

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "kevrelay: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void nonblock(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// Listens on the Unix socket path: made under a temporary name and renamed, so that the
// path exists only once connecting to it works (qemu-run.sh waits for it).
static int listen_unix(const char *path)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    char tmp[sizeof(a.sun_path)];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
        say("socket path too long: %s", path);
        return -1;
    }
    memcpy(a.sun_path, tmp, strlen(tmp) + 1);
    unlink(tmp);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 1) < 0 ||
        rename(tmp, path) < 0) {
        say("cannot listen on %s: %s", path, strerror(errno));
        return -1;
    }
    return s;
}

static int listen_tcp(const char *port)
{
    char *end;
    unsigned long p = strtoul(port, &end, 10);
    if (!*port || *end || p > 65535) {
        say("bad port '%s'", port);
        return -1;
    }
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof(a);
    if (s < 0)
        return -1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 1) < 0 ||
        getsockname(s, (struct sockaddr *)&a, &len) < 0) {
        say("cannot listen on 127.0.0.1:%s: %s", port, strerror(errno));
        close(s);
        return -1;
    }
    say("the trace stream is served on 127.0.0.1:%u", (unsigned)ntohs(a.sin_port));
    return s;
}

// A reader came: one after the stream's start (some given to another, or dropped) gets the
// header first.
static void reader_come(void)
{
    rl.readers++;
    rl.reader_out = 0;
    rl.reader_hdr = 0;
    rl.taken_at = now();
    rl.need_head = rl.head_off > 0;
}

// fifo:PATH: a reader is there when the pipe opens for writing without blocking.
static void try_fifo(void)
{
    if (rl.reader >= 0 || !rl.fifo)
        return;
    rl.reader = open(rl.fifo, O_WRONLY | O_NONBLOCK);
    if (rl.reader >= 0)
        reader_come();
}

// Of what was written to the reader, what its side never took: over TCP, what its kernel did
// not acknowledge (TCP_INFO, still there after a reset; a socket's queue is emptied by one);
// a pipe's content.
static size_t unsent(int fd)
{
    uint64_t written = rl.reader_out + rl.reader_hdr;
    if (rl.fifo || rl.to_stdout) {
        int n = 0;
        return ioctl(fd, FIONREAD, &n) == 0 && n > 0 ? (size_t)n : 0;
    }
    struct tcp_info ti;
    socklen_t len = sizeof(ti);
    memset(&ti, 0, sizeof(ti));
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
        len < offsetof(struct tcp_info, tcpi_bytes_acked) + sizeof(ti.tcpi_bytes_acked))
        return 0;
    return ti.tcpi_bytes_acked < written ? (size_t)(written - ti.tcpi_bytes_acked) : 0;
}

static void reader_gone(const char *why)
{
    if (rl.reader < 0)
        return;
    size_t q = unsent(rl.reader);
    if (q > rl.reader_out)
        q = (size_t)rl.reader_out;   // (the header again is not the stream's)
    close(rl.reader);
    rl.reader = -1;
    rl.out -= q < rl.out ? q : rl.out;
    rl.lost_left += q;
    if (!rl.qemu_done || rl.r.fill)
        rl.left_mid++;
    say("the reader went away (%s) after its side took %llu bytes of the stream; %zu more "
        "written to it were lost with it; %zu bytes wait for the next one, which gets the "
        "header again",
        why, (unsigned long long)(rl.reader_out - (q < rl.reader_out ? q : rl.reader_out)), q,
        rl.r.fill);
}

// QEMU writes the UART a byte at a time: woken for each, the relay would cost QEMU a wake-up
// per byte. After a read it lets BATCH_US pass, so that the next read takes what came meanwhile.
#define BATCH_US 1000
static void batch(void)
{
    struct timespec t = { 0, BATCH_US * 1000 };
    nanosleep(&t, NULL);
}

// ---- the stream's frames: the header kept, frame starts followed ----------------------------

// The header's length from its text: "TRACE_HEADER_END::" ends it, the system page follows
// (TRACE_SYSPAGE_LEN::N). 0 while it has not all come.
static size_t head_length(const uint8_t *p, size_t n)
{
    static const char end[] = "TRACE_HEADER_END::", sp[] = "TRACE_SYSPAGE_LEN::";
    const uint8_t *e = memmem(p, n, end, sizeof(end) - 1);
    const uint8_t *s = memmem(p, n, sp, sizeof(sp) - 1);
    if (!e || !s)
        return 0;
    size_t len = (size_t)(e - p) + sizeof(end) - 1;
    return len + (size_t)strtoul((const char *)s + sizeof(sp) - 1, NULL, 10);
}

// A whole frame f[0..n) from QEMU, at its start: the header frames are kept.
static void keep_frame(const uint8_t *f, size_t n)
{
    static uint8_t payload[65536];
    if (rl.head_done || f[2] != KS_DATA)
        return;
    size_t len = n - KS_HDR_BYTES - KS_CRC_BYTES;
    if (!rl.head_len && (len < 2 || memcmp(f + KS_HDR_BYTES, "TRACE_", 6) != 0)) {
        rl.head_done = 1;       // (the stream began elsewhere: no header to keep)
        return;
    }
    if (rl.head_len + n > sizeof(rl.head)) {
        rl.head_done = 1;
        rl.head_len = 0;
        return;
    }
    memcpy(rl.head + rl.head_len, f, n);
    rl.head_len += n;
    if (rl.head_payload + len <= sizeof(payload))
        memcpy(payload + rl.head_payload, f + KS_HDR_BYTES, len);
    rl.head_payload += len;
    if (!rl.head_want)
        rl.head_want = head_length(payload, rl.head_payload < sizeof(payload) ? rl.head_payload
                                                                              : sizeof(payload));
    if (rl.head_want && rl.head_payload >= rl.head_want)
        rl.head_done = 1;
}

// Follow the frames in the bytes QEMU sent (p[0..n) at stream offset off): each frame's
// start, and the header frames kept. Frames are told by their header's length (a frame that
// fails its CRC is the reader's to find).
static void follow_frames(const uint8_t *p, size_t n, uint64_t off)
{
    static uint8_t frame[KS_MAX_FRAME];
    size_t have = rl.fhave;
    for (size_t i = 0; i < n; i++) {
        if (!have && off + i < rl.frame_at)
            continue;
        if (have < KS_MAX_FRAME)
            frame[have] = p[i];
        have++;
        if (have == 1 && p[i] != KS_MAGIC0) {
            have = 0;
            rl.frame_at = off + i + 1;  // (out of step: look for the next "KS")
            continue;
        }
        if (have < KS_HDR_BYTES)
            continue;
        size_t total = KS_HDR_BYTES + ((size_t)frame[6] | (size_t)frame[7] << 8) + KS_CRC_BYTES;
        if (frame[1] != KS_MAGIC1 || total > KS_MAX_FRAME) {
            have = 0;
            rl.frame_at = off + i + 1;
            continue;
        }
        if (have == total) {
            keep_frame(frame, total);
            rl.frame_at = off + i + 1;
            have = 0;
        }
    }
    rl.fhave = have;
}

// A whole frame with a good CRC starts at the buffer's head + k.
static int frame_in_ring(size_t k)
{
    static uint8_t f[KS_MAX_FRAME];
    const struct ring *r = &rl.r;
    if (r->fill - k < KS_HDR_BYTES + KS_CRC_BYTES || r->b[(r->head + k) % r->cap] != KS_MAGIC0)
        return 0;
    for (size_t i = 0; i < KS_HDR_BYTES; i++)
        f[i] = r->b[(r->head + k + i) % r->cap];
    size_t len = (size_t)f[6] | (size_t)f[7] << 8, total = KS_HDR_BYTES + len + KS_CRC_BYTES;
    if (f[1] != KS_MAGIC1 || f[2] < KS_DATA || f[2] > KS_TYPE_MAX || len > KS_MAX_PAYLOAD ||
        r->fill - k < total)
        return 0;
    for (size_t i = KS_HDR_BYTES; i < total; i++)
        f[i] = r->b[(r->head + k + i) % r->cap];
    uint32_t crc = (uint32_t)f[total - 4] | (uint32_t)f[total - 3] << 8 |
                   (uint32_t)f[total - 2] << 16 | (uint32_t)f[total - 1] << 24;
    return crc == ks_crc32(0, f + 2, total - 2 - KS_CRC_BYTES);
}

// A reader that comes after the stream's start: the header frames first (from the first
// whole frame the buffer holds on); the buffer's head moved to a frame's start. 0 when sent,
// -1 when it must wait (the reader's socket full, or no frame start known yet).
static int give_head(void)
{
    struct ring *r = &rl.r;
    size_t skip = 0;
    int found = 0;
    for (; skip < r->fill && !found; skip += !found)
        found = frame_in_ring(skip);
    if (!found && !rl.qemu_done) {
        batch();
        return -1;               // (the next frame's start has not come yet)
    }
    r->head = (r->head + skip) % r->cap;
    r->fill -= skip;
    rl.head_off += skip;
    if (rl.head_len && write(rl.reader, rl.head, rl.head_len) != (ssize_t)rl.head_len) {
        reader_gone("it did not take the header");
        return -1;
    }
    rl.late++;
    rl.reader_hdr = rl.head_len;
    rl.need_head = 0;
    say("a reader after the stream's start: given the header again (%zu bytes), then the "
        "stream from byte %llu (%zu skipped to a frame's start)", rl.head_len,
        (unsigned long long)rl.head_off, skip);
    return 0;
}

// Flow control: one byte down the UART's receive line when the buffer crosses a mark.
static void flow(void)
{
    uint8_t c;
    if (!rl.stopped && rl.r.fill >= rl.high)
        c = KS_XOFF;
    else if (rl.stopped && rl.r.fill <= rl.low)
        c = KS_XON;
    else
        return;
    if (rl.qemu < 0 || write(rl.qemu, &c, 1) != 1)
        return;                 // QEMU gone, or its socket full: tried again on the next read
    rl.stopped = c == KS_XOFF;
    rl.xoffs += c == KS_XOFF;
    if (rl.verbose)
        say("%s sent, %zu bytes held", c == KS_XOFF ? "XOFF" : "XON", rl.r.fill);
}

static void from_qemu(void)
{
    static uint8_t scratch[65536];
    struct ring *r = &rl.r;
    size_t tail = (r->head + r->fill) % r->cap;
    size_t room = r->cap - r->fill, span = r->cap - tail < room ? r->cap - tail : room;
    uint8_t *dst = span ? r->b + tail : scratch;
    ssize_t n = read(rl.qemu, dst, span ? span : sizeof(scratch));
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        close(rl.qemu);
        rl.qemu = -1;
        rl.qemu_done = 1;
        rl.qemu_end = now();
        return;
    }
    rl.in += (uint64_t)n;
    if (span) {
        follow_frames(dst, (size_t)n, rl.ring_in);
        rl.ring_in += (uint64_t)n;
        r->fill += (size_t)n;
    } else {
        rl.dropped += (uint64_t)n;
        rl.fhave = 0;           // (the frame being followed lost bytes: the next "KS" on)
        rl.frame_at = rl.ring_in;
        if (!rl.said_drop++)
            say("buffer full and the board still sends (no flow control?): dropping bytes");
    }
    flow();
}

static void to_reader(void)
{
    struct ring *r = &rl.r;
    if (rl.need_head && give_head() < 0)
        return;
    size_t span = r->cap - r->head < r->fill ? r->cap - r->head : r->fill;
    ssize_t n = write(rl.reader, r->b + r->head, span);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        reader_gone(strerror(errno));
        return;
    }
    rl.out += (uint64_t)n;
    rl.reader_out += (uint64_t)n;
    rl.taken_at = now();
    rl.head_off += (uint64_t)n;
    r->head = (r->head + (size_t)n) % r->cap;
    r->fill -= (size_t)n;
    flow();
}

// A TCP reader's input is read and ignored; its end (or an error) is its leaving.
static void from_reader(void)
{
    uint8_t junk[256];
    ssize_t n = read(rl.reader, junk, sizeof(junk));
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
        reader_gone(n == 0 ? "closed" : strerror(errno));
}

static void accept_one(int *listen_fd, int *fd, const char *who)
{
    int c = accept(*listen_fd, NULL, NULL);
    if (c < 0)
        return;
    if (*fd >= 0) {             // one at a time
        say("a second %s was refused (closed): one at a time, and one is served", who);
        rl.refused++;
        close(c);
        return;
    }
    nonblock(c);
    // The kernel's own buffer towards a reader stays small, so that the relay's buffer and
    // its marks decide when the board is stopped (loopback's grows to megabytes otherwise).
    int snd = 16384;
    setsockopt(c, SOL_SOCKET, SO_SNDBUF, &snd, sizeof(snd));
    *fd = c;
    if (fd == &rl.reader)
        reader_come();
}

// Runs until QEMU has ended and everything was delivered, or the wait for a reader ran out.
static int relay(unsigned wait_s)
{
    double end_wait = 0;
    for (;;) {
        if (rl.qemu_done && rl.r.fill == 0)
            return 0;
        if (rl.qemu_done && rl.reader < 0) {
            if (!end_wait)
                end_wait = now() + wait_s;
            else if (now() >= end_wait)
                return 1;
        }
        // a reader that takes nothing does not hold the run's end
        if (rl.qemu_done && rl.reader >= 0 && now() - rl.taken_at >= wait_s &&
            now() - rl.qemu_end >= wait_s) {
            say("the reader took nothing for %u s after QEMU's end: %zu bytes not delivered; "
                "giving up on it", wait_s, rl.r.fill);
            rl.stuck = 1;
            return 1;
        }
        try_fifo();
        struct pollfd p[4];
        int np = 0, iq = -1, iql = -1, ir = -1, irl = -1;
        if (rl.qemu >= 0)
            p[iq = np++] = (struct pollfd){ rl.qemu, POLLIN, 0 };
        else if (rl.qemu_listen >= 0 && !rl.qemu_done)
            p[iql = np++] = (struct pollfd){ rl.qemu_listen, POLLIN, 0 };
        if (rl.reader >= 0)
            p[ir = np++] = (struct pollfd){ rl.reader,
                                            (short)((rl.r.fill ? POLLOUT : 0) |
                                                    (rl.fifo || rl.to_stdout ? 0 : POLLIN)), 0 };
        if (rl.reader_listen >= 0)          // (a second reader: refused, said)
            p[irl = np++] = (struct pollfd){ rl.reader_listen, POLLIN, 0 };
        if (poll(p, (nfds_t)np, rl.fifo || rl.qemu_done ? 100 : 1000) < 0 && errno != EINTR)
            return 1;
        if (iql >= 0 && (p[iql].revents & POLLIN)) {
            accept_one(&rl.qemu_listen, &rl.qemu, "QEMU connection");
            close(rl.qemu_listen);
            rl.qemu_listen = -1;
        }
        if (iq >= 0 && (p[iq].revents & (POLLIN | POLLHUP | POLLERR))) {
            from_qemu();
            batch();
        }
        if (irl >= 0 && (p[irl].revents & POLLIN))
            accept_one(&rl.reader_listen, &rl.reader, "reader");
        if (ir >= 0 && rl.reader >= 0) {
            if (p[ir].revents & POLLIN)
                from_reader();
            if (rl.reader >= 0 && rl.r.fill && (p[ir].revents & (POLLOUT | POLLERR | POLLHUP)))
                to_reader();
            else if (rl.reader >= 0 && (p[ir].revents & (POLLERR | POLLHUP)))
                reader_gone("closed");
        }
    }
}

// The command line: QEMU's socket, the buffer's size, the wait for a reader, the summary, the
// reader's address.
struct relay_opts {
    const char *qsock, *to;
    size_t cap;
    unsigned wait_s;
    int summary;
};

// Reads argv into o; -1 to go on, else the exit status (0 after --help, 2 bad usage, said).
static int parse_args(int argc, char **argv, struct relay_opts *o)
{
    int opt;
    struct tool_args ta = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &ta)) != TOOL_OPTS_END) {
        char *end;
        switch (opt) {
        case 'q': o->qsock = ta.val; break;
        case 'b':
            o->cap = (size_t)strtoull(ta.val, &end, 0);
            if (*end || o->cap < 4u * KS_XOFF_ROOM || o->cap > (1u << 30))
                return tool_usage_error(&cmd, "bad -b %s: 131072 to 1073741824 bytes", ta.val);
            break;
        case 'w':
            o->wait_s = (unsigned)strtoul(ta.val, &end, 10);
            if (*end)
                return tool_usage_error(&cmd, "bad -w %s: seconds", ta.val);
            break;
        case 's': o->summary = rl.verbose = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    if (!o->qsock)
        return tool_usage_error(&cmd, "-q SOCKET is required");
    if (ta.ind + 1 != argc)
        return tool_usage_error(&cmd, "one reader: tcp:PORT, fifo:PATH or -");
    o->to = argv[ta.ind];
    return -1;
}

// The reader's side as `to` names it: a TCP port listened on, a named pipe (made when missing),
// or standard output. -1 when ready, else the exit status after saying why.
static int open_reader(const char *to)
{
    if (strncmp(to, "tcp:", 4) == 0)
        return (rl.reader_listen = listen_tcp(to + 4)) < 0 ? 1 : -1;
    if (strncmp(to, "fifo:", 5) == 0 && to[5]) {
        rl.fifo = to + 5;
        struct stat st;
        if (stat(rl.fifo, &st) < 0 && mkfifo(rl.fifo, 0600) < 0) {
            say("cannot make the pipe %s: %s", rl.fifo, strerror(errno));
            return 1;
        }
        if (stat(rl.fifo, &st) < 0 || !S_ISFIFO(st.st_mode)) {
            say("%s exists and is not a named pipe", rl.fifo);
            return 1;
        }
        return -1;
    }
    if (strcmp(to, "-") == 0) {
        rl.to_stdout = 1;
        rl.reader = 1;
        nonblock(1);
        return -1;
    }
    return tool_usage_error(&cmd, "%s: give tcp:PORT, fifo:PATH or -", to);
}

// What the run lost or left undelivered, said; with -s the readers' and the bytes' counts.
static void say_outcome(const struct relay_opts *o)
{
    if (rl.r.fill && !rl.stuck)
        say("%zu bytes of the stream were never read (no reader within %u s of QEMU's end)",
            rl.r.fill, o->wait_s);
    if (rl.left_mid)
        say("%llu reader(s) went away before the stream's end: no reader took it whole",
            (unsigned long long)rl.left_mid);
    if (rl.dropped)
        say("%llu bytes dropped: the buffer was full and the board did not stop",
            (unsigned long long)rl.dropped);
    if (o->summary) {
        say("readers: %llu served, %llu refused, %llu given the header again; %llu bytes lost "
            "with readers that went away", (unsigned long long)rl.readers,
            (unsigned long long)rl.refused, (unsigned long long)rl.late,
            (unsigned long long)rl.lost_left);
        say("%llu bytes from QEMU, %llu delivered, XOFF sent %llu times",
            (unsigned long long)rl.in, (unsigned long long)rl.out,
            (unsigned long long)rl.xoffs);
    }
}

int main(int argc, char **argv)
{
    struct relay_opts o = { .cap = 4u << 20, .wait_s = 10 };
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    signal(SIGPIPE, SIG_IGN);
    rl.r.cap = o.cap;
    rl.r.b = malloc(o.cap);
    rl.high = o.cap - 2u * KS_XOFF_ROOM;
    rl.low = rl.high / 2u;
    if (!rl.r.b)
        return 1;
    if ((rc = open_reader(o.to)) >= 0)
        return rc;
    if ((rl.qemu_listen = listen_unix(o.qsock)) < 0)
        return 1;
    rc = relay(o.wait_s);
    unlink(o.qsock);
    say_outcome(&o);
    if (rl.reader >= 0 && !rl.to_stdout)
        close(rl.reader);
    return rc || rl.dropped || rl.r.fill || rl.left_mid || rl.lost_left ? 1 : 0;
}
