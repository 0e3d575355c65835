// SPDX-License-Identifier: MIT
// GDB remote serial protocol client (kevhost/gdb_remote.h): packets are "$data#cc" with cc the modulo
// 256 sum of data in hex; each is acknowledged with '+' (or '-': send again) until the server
// accepts QStartNoAckMode. ^C (0x03, outside any packet) stops a running target, which answers
// with a stop reply (S/T), or W/X when it has ended.
// A server is not trusted to answer: every wait for a byte is bounded (REPLY_TIMEOUT_MS), and
// the caller's deadline (gdbr_deadline) bounds a whole exchange, so that a server that keeps
// talking without answering (garbage, a packet without end, console output for ever, a byte
// now and then) is given up, with what it sent said. A signal the caller flags (gdbr_cancel_on)
// ends a wait at once.
#include <kevhost/gdb_remote.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define REPLY_TIMEOUT_MS 10000  // a reply that takes longer: the server is gone
#define MEM_MAX 16384           // bytes an m/M packet carries at most (a trace buffer)
#define PKT_CAP (2 * MEM_MAX + 64)
#define CLOSE_MS 2000           // the halt and detach when leaving

static void fail(struct gdbr *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err, sizeof(g->err), fmt, ap);
    va_end(ap);
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t mono_ms(void)
{
    return mono_ns() / 1000000u;
}

void gdbr_deadline(struct gdbr *g, unsigned ms)
{
    g->deadline_ms = ms ? mono_ms() + ms : 0;
    g->budget_ms = ms;
    g->junk = g->console = 0;
}

// The deadline passed: what the server sent instead of an answer.
static void fail_deadline(struct gdbr *g)
{
    fail(g, "the GDB server gave no answer within %u ms (%zu bytes outside packets, %zu "
         "console packets, a packet of %zu bytes unfinished): given up", g->budget_ms, g->junk,
         g->console, g->partial);
}

// The process's cancel flag (gdbr_cancel_on), set by a signal handler.
static const volatile int *cancel_flag;

void gdbr_cancel_on(const volatile int *flag)
{
    cancel_flag = flag;
}

// A wait interrupted by a signal the caller flagged: said, and no more waiting.
static bool cancelled(struct gdbr *g)
{
    if (!cancel_flag || !*cancel_flag)
        return false;
    fail(g, "interrupted by a signal");
    g->interrupted = true;
    return true;
}

static int send_all(struct gdbr *g, const void *p, size_t n)
{
    const char *b = p;
    while (n) {
        ssize_t w = send(g->fd, b, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR && !cancelled(g))
            continue;
        if (w < 0 && g->interrupted)
            return -1;
        if (w <= 0) {
            fail(g, "the GDB server closed the connection (%s)", strerror(errno));
            g->exited = true;
            return -1;
        }
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

// One byte from the server, waiting up to REPLY_TIMEOUT_MS, and never past the deadline. -1
// on end or timeout.
static int get_byte(struct gdbr *g)
{
    if (g->in_pos == g->in_len) {
        struct pollfd p = { .fd = g->fd, .events = POLLIN };
        int r;
        do {
            int wait = REPLY_TIMEOUT_MS;
            if (g->deadline_ms) {
                uint64_t now = mono_ms();
                if (now >= g->deadline_ms) {
                    fail_deadline(g);
                    return -1;
                }
                if (g->deadline_ms - now < (uint64_t)wait)
                    wait = (int)(g->deadline_ms - now);
            }
            r = poll(&p, 1, wait);
            if (r < 0 && errno == EINTR && cancelled(g))
                return -1;
        } while (r < 0 && errno == EINTR);
        if (r == 0) {
            if (g->deadline_ms && mono_ms() >= g->deadline_ms)
                fail_deadline(g);
            else
                fail(g, "no answer from the GDB server within %d s", REPLY_TIMEOUT_MS / 1000);
            return -1;
        }
        ssize_t n;
        while ((n = r < 0 ? -1 : recv(g->fd, g->in, sizeof(g->in), 0)) < 0 && errno == EINTR)
            ;
        if (n <= 0) {
            fail(g, "the GDB server closed the connection");
            g->exited = true;
            return -1;
        }
        g->in_len = (size_t)n;
        g->in_pos = 0;
    } else if (g->deadline_ms && (g->in_pos & 4095u) == 0 && mono_ms() >= g->deadline_ms) {
        fail_deadline(g);
        return -1;
    }
    return g->in[g->in_pos++];
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
           c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

// Receives one packet's data (NUL-terminated) into out. Returns its length or -1.
static int get_packet(struct gdbr *g, char *out, size_t size)
{
    for (;;) {
        int c;
        while ((c = get_byte(g)) >= 0 && c != '$')
            g->junk++;
        if (c < 0)
            return -1;
        size_t n = 0;
        unsigned sum = 0;
        g->partial = 0;
        while ((c = get_byte(g)) >= 0 && c != '#') {
            sum += (unsigned)c;
            if (n + 1 >= size) {    // no end in sight: not read on for ever
                fail(g, "the GDB server sent a packet of more than %zu bytes (this reader "
                     "takes %zu)", n, size - 1);
                return -1;
            }
            out[n++] = (char)c;
            g->partial = n;
        }
        int h = c < 0 ? -1 : get_byte(g), l = h < 0 ? -1 : get_byte(g);
        if (l < 0)
            return -1;
        out[n] = '\0';
        g->partial = 0;
        if (g->noack)
            return (int)n;
        if ((unsigned)(hexval(h) << 4 | hexval(l)) == (sum & 0xffu)) {
            if (send_all(g, "+", 1))
                return -1;
            return (int)n;
        }
        if (send_all(g, "-", 1))
            return -1;
    }
}

static const char hexd[] = "0123456789abcdef";

// Sends $data#cs (data n bytes, in place in g->pkt or elsewhere) and waits for its '+' unless
// in no-ack mode.
static int put_packet(struct gdbr *g, const char *data, size_t n)
{
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (unsigned char)data[i];
    const char tail[3] = { '#', hexd[(sum >> 4) & 15], hexd[sum & 15] };
    for (int tries = 0; tries < 3; tries++) {
        if (send_all(g, "$", 1) || send_all(g, data, n) || send_all(g, tail, 3))
            return -1;
        if (g->noack)
            return 0;
        int c;
        while ((c = get_byte(g)) >= 0 && c != '+' && c != '-')
            g->junk++;
        if (c == '+')
            return 0;
        if (c < 0)
            return -1;
    }
    fail(g, "the GDB server refused a packet three times");
    return -1;
}

// A command and its reply (in g->pkt); the reply's length, or -1.
static int command_n(struct gdbr *g, const char *data, size_t n)
{
    if (put_packet(g, data, n) < 0)
        return -1;
    return get_packet(g, g->pkt, g->pkt_cap);
}

static int command(struct gdbr *g, const char *data)
{
    return command_n(g, data, strlen(data));
}

// A stop reply, or the end of the target (W exit status, X signal).
static int stop_reply(struct gdbr *g)
{
    for (;;) {
        if (get_packet(g, g->pkt, g->pkt_cap) < 0)
            return -1;
        if (g->pkt[0] == 'O' && g->pkt[1]) {    // console output from the target: not ours
            g->console++;
            continue;
        }
        g->running = false;
        if (g->pkt[0] == 'W' || g->pkt[0] == 'X') {
            g->exited = true;
            g->exit_status = (int)strtol(g->pkt + 1, NULL, 16);
            fail(g, "the target ended (%s)", g->pkt);
            return -1;
        }
        if (g->pkt[0] == 'S' || g->pkt[0] == 'T')
            return 0;
        fail(g, "unexpected stop reply '%.40s'", g->pkt);
        return -1;
    }
}

// A connected socket to the first address that answers, or -1.
static int connect_any(const struct addrinfo *ai)
{
    for (const struct addrinfo *a = ai; a; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            // Packets are small and each waits for its answer: no Nagle delay.
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
            return fd;
        }
        if (fd >= 0)
            close(fd);
    }
    return -1;
}

// A connected socket to the server's UNIX socket at path, or -1 (errno set).
static int connect_unix(const char *path)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
        return fd;
    int e = errno;
    if (fd >= 0)
        close(fd);
    errno = e;
    return -1;
}

// Connects to the server at path (a UNIX socket) or else at ai, retried every 100 ms for
// wait_ms: the server may still be starting (QEMU -gdb). 0, or -1 with g->err set.
static int connect_retry(struct gdbr *g, const char *where, const char *path,
                         const struct addrinfo *ai, unsigned wait_ms)
{
    for (unsigned tries = 0; g->fd < 0 && tries <= wait_ms / 100u; tries++) {
        if (tries)
            usleep(100000);
        if (cancelled(g))
            return -1;
        g->fd = path ? connect_unix(path) : connect_any(ai);
    }
    if (g->fd < 0) {
        fail(g, "cannot connect to the GDB server at %s: %s", where, strerror(errno));
        return -1;
    }
    return 0;
}

// "unix:PATH" (QEMU -gdb unix:PATH,server=on,wait=off), "host:port" or "port" (localhost).
static int connect_server(struct gdbr *g, const char *where, unsigned wait_ms)
{
    if (strncmp(where, "unix:", 5) == 0) {
        struct sockaddr_un un;
        size_t n = strlen(where + 5);
        if (!n || n >= sizeof(un.sun_path)) {
            fail(g, "%s: a socket's path of 1 to %zu bytes is expected", where,
                 sizeof(un.sun_path) - 1);
            return -1;
        }
        return connect_retry(g, where, where + 5, NULL, wait_ms);
    }
    char host[128] = "localhost", port[16];
    const char *colon = strrchr(where, ':');
    if (colon) {
        size_t hn = (size_t)(colon - where);
        if (hn && hn < sizeof(host)) {
            memcpy(host, where, hn);
            host[hn] = '\0';
        }
        snprintf(port, sizeof(port), "%s", colon + 1);
    } else {
        snprintf(port, sizeof(port), "%s", where);
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai;
    int r = getaddrinfo(host, port, &hints, &ai);
    if (r) {
        fail(g, "%s: %s", where, gai_strerror(r));
        return -1;
    }
    r = connect_retry(g, where, NULL, ai, wait_ms);
    freeaddrinfo(ai);
    return r;
}

int gdbr_connect(struct gdbr *g, const char *where, unsigned wait_ms)
{
    memset(g, 0, sizeof(*g));
    g->fd = -1;
    g->pkt_cap = PKT_CAP;
    if (!(g->pkt = malloc(g->pkt_cap))) {
        fail(g, "out of memory");
        return -1;
    }
    uint64_t t0 = mono_ms();
    if (connect_server(g, where, wait_ms) < 0)
        return -1;
    // The handshake within what is left of wait_ms, and at least a second: a server that
    // accepts and then never answers is not waited for longer than one that never listens.
    uint64_t spent = mono_ms() - t0;
    gdbr_deadline(g, spent + 1000u < wait_ms ? (unsigned)(wait_ms - spent) : 1000u);
    g->max_mem = 1024;
    if (command(g, "qSupported:swbreak+") < 0)
        return -1;
    const char *ps = strstr(g->pkt, "PacketSize=");
    if (ps) {
        size_t size = (size_t)strtoul(ps + 11, NULL, 16);
        size_t m = size > 64 ? (size - 32) / 2 : 16;
        g->max_mem = m < MEM_MAX ? m : MEM_MAX;
    }
    if (command(g, "QStartNoAckMode") < 0)
        return -1;
    g->noack = strcmp(g->pkt, "OK") == 0;
    // QEMU: physical addresses, as a probe's memory access port sees them (otherwise QEMU
    // reads through the running program's MPU or MMU, and faults outside what it may see).
    // Other servers do not know the packet (an empty reply) and already read physically.
    if (command(g, "Qqemu.PhyMemMode:1") < 0)
        return -1;
    // Why is it stopped (and is it)? The server halts the target for a new connection.
    if (put_packet(g, "?", 1) < 0 || stop_reply(g) < 0)
        return -1;
    gdbr_deadline(g, 0);    // the caller's exchanges: bounded as it says
    return 0;
}

void gdbr_close(struct gdbr *g)
{
    if (g->fd >= 0) {
        if (!g->exited) {
            if (!g->deadline_ms || g->deadline_ms > mono_ms() + CLOSE_MS)
                gdbr_deadline(g, CLOSE_MS);     // leaving is not held up by the server
            if (g->running && gdbr_halt(g) < 0)
                goto out;
            // Detach: the target runs on without us.
            command(g, "D");
        }
out:
        close(g->fd);
        g->fd = -1;
    }
    free(g->pkt);
    g->pkt = NULL;
}

int gdbr_halt(struct gdbr *g)
{
    if (!g->running)
        return 0;
    g->running = false;     // (the ^C's stop reply may be cut short: gdbr_cont still sends c)
    if (send_all(g, "\003", 1) < 0)
        return -1;
    return stop_reply(g);
}

int gdbr_cont(struct gdbr *g)
{
    if (g->running)
        return 0;
    if (put_packet(g, "c", 1) < 0)
        return -1;
    g->running = true;
    return 0;
}

static int read_pieces(struct gdbr *g, uint64_t addr, void *buf, size_t n)
{
    uint8_t *b = buf;
    char cmd[64];
    while (n) {
        size_t k = n < g->max_mem ? n : g->max_mem;
        snprintf(cmd, sizeof(cmd), "m%llx,%zx", (unsigned long long)addr, k);
        int len = command(g, cmd);
        if (len < 0)
            return -1;
        if (g->pkt[0] == 'E' || len < 2) {
            fail(g, "the GDB server cannot read %zu bytes at 0x%llx (%s)", k,
                 (unsigned long long)addr, g->pkt);
            return -1;
        }
        size_t got = (size_t)len / 2;
        if (got > k)
            got = k;
        for (size_t i = 0; i < got; i++) {
            int h = hexval(g->pkt[2 * i]), l = hexval(g->pkt[2 * i + 1]);
            if (h < 0 || l < 0) {
                fail(g, "bad hex in the GDB server's memory reply");
                return -1;
            }
            b[i] = (uint8_t)(h << 4 | l);
        }
        b += got;
        addr += got;
        n -= got;
    }
    return 0;
}

int gdbr_read(struct gdbr *g, uint64_t addr, void *buf, size_t n)
{
    uint64_t t0 = mono_ns();
    int r = read_pieces(g, addr, buf, n);
    g->read_ns += mono_ns() - t0;
    g->read_bytes += n;
    return r;
}

int gdbr_write(struct gdbr *g, uint64_t addr, const void *buf, size_t n)
{
    const uint8_t *b = buf;
    while (n) {
        size_t k = n < g->max_mem ? n : g->max_mem;
        // built in g->pkt, which the reply then overwrites
        int off = snprintf(g->pkt, g->pkt_cap, "M%llx,%zx:", (unsigned long long)addr, k);
        for (size_t i = 0; i < k; i++) {
            g->pkt[off++] = hexd[b[i] >> 4];
            g->pkt[off++] = hexd[b[i] & 15];
        }
        if (command_n(g, g->pkt, (size_t)off) < 0)
            return -1;
        if (strcmp(g->pkt, "OK") != 0) {
            fail(g, "the GDB server cannot write %zu bytes at 0x%llx (%s)", k,
                 (unsigned long long)addr, g->pkt);
            return -1;
        }
        b += k;
        addr += k;
        n -= k;
    }
    return 0;
}

static int mem_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
    return gdbr_read(ctx, addr, buf, n);
}

static int mem_write(void *ctx, uint64_t addr, const void *buf, size_t n)
{
    return gdbr_write(ctx, addr, buf, n);
}

static const char *mem_error(void *ctx)
{
    return ((struct gdbr *)ctx)->err;
}

struct kev_mem gdbr_mem(struct gdbr *g)
{
    struct kev_mem m = { mem_read, mem_write, mem_error, g };
    return m;
}
