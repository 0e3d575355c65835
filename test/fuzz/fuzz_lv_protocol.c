// SPDX-License-Identifier: MIT
// libFuzzer target for kevlive's viewer protocol (tools/kevconv/live_viewer.c): any bytes a
// viewer sends, over a real socket to the server as kevlive runs it, over a session holding a
// trace of two streams with packets: the server answers or closes the viewer, never crashes,
// reads out of bounds, loops or holds more than one reply. The input is split in two: a viewer
// that sends the first part, then another beside it sending the second, both served in turns.
// Built with ASan + UBSan by `make fuzz`; seeds are command sequences of LTTng's live protocol
// (CONNECT, LIST, ATTACH, GET_METADATA, GET_NEXT_INDEX, GET_PACKET) written by the build.
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "live_store.h"
#include "live_viewer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ls_session s;
static struct lv_server *v;
static int lfd = -1;
static struct sockaddr_un addr;

static void setup(void)
{
    ls_init(&s, "kev", 1u << 20);
    snprintf(s.host, sizeof(s.host), "board");
    static const char meta[] = "/* CTF 1.8 */\ntrace { major = 1; minor = 8; };\n";
    struct ls_trace *t = ls_trace_begin(&s, 1, meta, sizeof(meta) - 1, 2, 1000000000u);
    static uint8_t pkt[256];
    for (unsigned i = 0; i < 6; i++) {
        struct ctf_packet pk = { i & 1, pkt, sizeof(pkt), 100 * i, 100 * i + 50, i, i / 2, 3 };
        ls_add_packet(&s, t, &pk);
    }
    ls_quiet(t, 0, 1000);
    addr.sun_family = AF_UNIX;   // an abstract socket: no file to remove
    snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1, "fuzz_lv.%d", (int)getpid());
    lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(lfd, 64) < 0)
        abort();
    v = lv_new("fuzz", lfd, &s, 1, 1);
}

// One turn of kevlive's loop over the server's descriptors.
static void turn(void)
{
    struct pollfd p[LV_MAX_CLIENTS + 1];
    unsigned n = lv_fds(v, p, LV_MAX_CLIENTS + 1);
    if (poll(p, n, 0) > 0)
        lv_handle(v, p, n);
}

static int viewer(void)
{
    int c = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c < 0)
        return -1;
    if (connect(c, (struct sockaddr *)&addr, sizeof(addr)) < 0 && errno != EINPROGRESS) {
        close(c);
        return -1;
    }
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!v)
        setup();
    size_t half = size / 2;
    int c1 = viewer(), c2 = viewer();
    const uint8_t *part[2] = { data, data + half };
    size_t left[2] = { half, size - half };
    int fd[2] = { c1, c2 };
    static uint8_t sink[1u << 16];
    for (unsigned round = 0; round < 64; round++) {
        turn();
        for (int i = 0; i < 2; i++) {
            if (fd[i] < 0)
                continue;
            if (left[i]) {
                ssize_t k = send(fd[i], part[i], left[i], MSG_NOSIGNAL);
                if (k > 0)
                    part[i] += k, left[i] -= (size_t)k;
            } else {
                shutdown(fd[i], SHUT_WR);
            }
            while (recv(fd[i], sink, sizeof(sink), 0) > 0) {
            }
        }
        lv_expire(v);
    }
    for (int i = 0; i < 2; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    for (unsigned round = 0; round < 4; round++)
        turn();                  // the server sees them go
    if (lv_attached(v) > LV_MAX_CLIENTS)
        abort();
    return 0;
}
