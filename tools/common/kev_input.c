// SPDX-License-Identifier: MIT
// The live tools' input (kev_input.h): opening a file, device or TCP port, and reading it with
// a time limit so that a live view keeps refreshing while nothing arrives. A regular file
// cannot be waited on with poll(): a followed file is looked at again every 20 ms.
#include <kevhost/kev_input.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <trace/kev_decode.h>

#define FOLLOW_POLL_MS 20
#define FOLLOW_QUIET_MS 5000u      // a followed file this long without growing: said once

// HOST:PORT, retried for 10 s (the server may start after us, as a probe's RTT server does
// once the control block is found).
static int tcp_connect(const char *tool, const char *where)
{
    char host[128];
    const char *colon = strrchr(where, ':');
    size_t hn = (size_t)(colon - where);
    snprintf(host, sizeof(host), "%.*s", (int)(hn < sizeof(host) ? hn : sizeof(host) - 1), where);
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai, *a;
    int r = getaddrinfo(hn ? host : "localhost", colon + 1, &hints, &ai);
    if (r) {
        fprintf(stderr, "%s: %s: %s\n", tool, where, gai_strerror(r));
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
        fprintf(stderr, "%s: cannot connect to %s: %s\n", tool, where, strerror(err));
    return fd;
}

int kev_input_open(const char *tool, const char *name, int follow, struct kev_input *in)
{
    memset(in, 0, sizeof(*in));
    snprintf(in->tool, sizeof(in->tool), "%s", tool);
    int stdin_ = !name || !strcmp(name, "-");
    snprintf(in->name, sizeof(in->name), "%s", stdin_ ? "stdin" : name);
    if (stdin_) {
        in->fd = 0;
    } else if (access(name, F_OK) != 0 && strchr(name, ':')) {
        if ((in->fd = tcp_connect(tool, name)) < 0)
            return -1;
    } else if ((in->fd = open(name, O_RDONLY)) < 0) {
        fprintf(stderr, "%s: cannot open %s: %s\n", tool, name, strerror(errno));
        return -1;
    }
    struct stat st;
    in->regular = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
    in->follow = in->regular && follow;
    if (isatty(in->fd)) {
        struct termios t;
        if (tcgetattr(in->fd, &t) == 0) {
            cfmakeraw(&t);
            tcsetattr(in->fd, TCSANOW, &t);
        }
    }
    return 0;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

// A followed file: its new bytes, or 0 when none came within timeout_ms (or a signal came).
// One that has not grown for FOLLOW_QUIET_MS is said to be waited for, once until it grows:
// a writer that stopped and one that pauses look the same from here.
static long follow_read(struct kev_input *in, void *buf, size_t n, int timeout_ms)
{
    uint64_t until = now_ms() + (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms);
    if (!in->grew_ms)
        in->grew_ms = now_ms();
    for (;;) {
        struct stat st;
        if (fstat(in->fd, &st) == 0 && (uint64_t)st.st_size < in->off) {
            lseek(in->fd, 0, SEEK_SET); // rewritten from its start: read it again
            in->off = 0;
        }
        ssize_t k = read(in->fd, buf, n);
        if (k > 0) {
            in->off += (uint64_t)k;
            in->grew_ms = now_ms();
            in->said_waiting = 0;
            return (long)k;
        }
        if (k < 0 && errno != EINTR) {
            fprintf(stderr, "reading %s: %s\n", in->name, strerror(errno));
            return -1;
        }
        if (!in->said_waiting && now_ms() - in->grew_ms >= FOLLOW_QUIET_MS) {
            in->said_waiting = 1;
            fprintf(stderr, "%s: waiting for more of %s: it has not grown for %u s (at byte %llu) "
                    "and the trace in it has not ended (no END frame or trailer yet); a file "
                    "whose writer stopped is read with kevcapture, or ends here on Ctrl-C\n",
                    in->tool, in->name, FOLLOW_QUIET_MS / 1000u, (unsigned long long)in->off);
        }
        if (timeout_ms >= 0 && now_ms() >= until)
            return 0;
        if (usleep(FOLLOW_POLL_MS * 1000) < 0 && errno == EINTR)
            return 0;       // (a signal: the caller looks at why)
    }
}

long kev_input_read(struct kev_input *in, void *buf, size_t n, int timeout_ms)
{
    if (in->follow)
        return follow_read(in, buf, n, timeout_ms);
    if (!in->regular) {
        struct pollfd p = { in->fd, POLLIN, 0 };
        int r = poll(&p, 1, timeout_ms);
        if (r == 0)
            return 0;
        if (r < 0)
            return errno == EINTR ? 0 : -1;
    }
    ssize_t k = read(in->fd, buf, n);
    if (k < 0 && errno == EINTR)
        return 0;
    if (k < 0)
        fprintf(stderr, "reading %s: %s\n", in->name, strerror(errno));
    if (k <= 0)
        return -1;
    in->off += (uint64_t)k;
    return (long)k;
}

void kev_input_close(struct kev_input *in)
{
    if (in->fd > 0)
        close(in->fd);
    in->fd = -1;
}

int kev_input_finished(const struct kev_input *in, uint32_t *cpus)
{
    struct stat st;
    int done = 0, fd = in->regular ? open(in->name, O_RDONLY) : -1;
    if (fd < 0)
        return 0;
    if (!fstat(fd, &st) && st.st_size > 0) {
        size_t len = (size_t)st.st_size;
        uint8_t *d = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        struct kev_reader *r = d != MAP_FAILED ? malloc(sizeof(*r)) : NULL;
        if (r && d[0] == 'T') // (a .kev file's magic; the stream's frames start otherwise)
            done = !kev_open(r, d, len) && r->kr_have_trailer;
        *cpus = 0;
        for (unsigned c = 0; done && c < r->kr_trl_ncpu && c < 32u; c++)
            *cpus |= (uint32_t)(r->kr_trl_events[c] != 0) << c;
        free(r);
        if (d != MAP_FAILED)
            munmap(d, len);
    }
    close(fd);
    return done;
}
