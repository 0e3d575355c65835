// SPDX-License-Identifier: MIT
// kevweb's HTTP server (web_server.h): a client is a request being read, then either a fixed
// body being written (then closed) or a stream client with its own bounded queue. Slots are
// shared by a policy (slot_for, stream_room): deadlines for requests and responses, caps per
// peer and for streams, and who gives way when the server is full.
// The queue's invariant: it holds whole messages, but for its first, which may be part sent
// (off bytes of it gone); messages end with "\n\n" and hold no other blank line (their data
// is one line of JSON). Dropping keeps that first message whole, so a browser never sees a
// message cut in two.
#define _GNU_SOURCE
#include "web_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define REQ_MAX 8192u
#define REQ_TIMEOUT_MS 3000u       // a request's header, whole
#define BODY_TIMEOUT_MS 10000u     // a response, sent whole
#define STALL_MS 1000u             // a response not read for this long may give way
#define ACCEPTS_A_TURN 4096u       // a turn (the listen queue's length, SOMAXCONN)
#define KEEPALIVE_MS 15000u
#define STREAM_SNDBUF (256 * 1024)

enum cl_kind { CL_FREE, CL_REQUEST, CL_BODY, CL_STREAM };

struct client {
    enum cl_kind kind;
    int fd;
    uint64_t since;             // when it connected (a request must come in REQ_TIMEOUT_MS)
    uint64_t body_ms, sent_ms;  // CL_BODY: its response began, bytes last left
    uint32_t peer;              // its IPv4 address
    char req[REQ_MAX];
    size_t nreq;
    // CL_BODY: the header (in q) then the body
    const char *body;
    size_t body_len, body_off;
    // the queue (CL_BODY: the response's header; CL_STREAM: messages)
    char *q;
    size_t len, off, cap;
    int resync;                 // messages were dropped: a snapshot once the queue drained
    uint64_t dropped, resyncs;  // this client's
    uint64_t last_ms;           // last write queued (a keep-alive comment after KEEPALIVE_MS)
};

struct route {
    char path[64];
    char type[64];
    const void *body;
    size_t len;
};

struct web_server {
    int lfd;
    unsigned port;
    int loopback;               // bound to 127.x: only requests naming this machine answered
    size_t queue;
    char stream[64];
    web_snap_fn snap;
    void *user;
    struct route route[WEB_MAX_ROUTES];
    unsigned nroute;
    struct client cl[WEB_MAX_CLIENTS];
    struct web_stats st;
};

// ---- the listening socket -------------------------------------------------------------------------

static int listen_at(const char *addr, unsigned port, unsigned *bound)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
        fprintf(stderr, "kevweb: %s: not an IPv4 address\n", addr);
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, SOMAXCONN) < 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    socklen_t n = sizeof(a);
    getsockname(fd, (struct sockaddr *)&a, &n);
    *bound = ntohs(a.sin_port);
    return fd;
}

struct web_server *web_server_new(const char *addr, unsigned port, size_t queue,
                                  const char *stream, web_snap_fn snap, void *user)
{
    struct web_server *w = calloc(1, sizeof(*w));
    if (!w) {
        fprintf(stderr, "kevweb: out of memory\n");
        return NULL;
    }
    w->lfd = listen_at(addr, port, &w->port);
    if (w->lfd < 0 && port && errno == EADDRINUSE)   // taken: a free one
        w->lfd = listen_at(addr, 0, &w->port);
    if (w->lfd < 0) {
        fprintf(stderr, "kevweb: cannot listen on %s port %u: %s\n", addr, port, strerror(errno));
        free(w);
        return NULL;
    }
    w->loopback = !strncmp(addr, "127.", 4);
    w->queue = queue;
    snprintf(w->stream, sizeof(w->stream), "%s", stream);
    w->snap = snap;
    w->user = user;
    return w;
}

static void drop_client(struct client *c)
{
    close(c->fd);
    free(c->q);
    memset(c, 0, sizeof(*c));
}

void web_server_free(struct web_server *w)
{
    if (!w)
        return;
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++)
        if (w->cl[i].kind != CL_FREE)
            drop_client(&w->cl[i]);
    close(w->lfd);
    free(w);
}

unsigned web_server_port(const struct web_server *w)
{
    return w->port;
}

int web_server_route(struct web_server *w, const char *path, const char *type, const void *body,
                     size_t len)
{
    unsigned i = 0;
    while (i < w->nroute && strcmp(w->route[i].path, path))
        i++;
    if (i == WEB_MAX_ROUTES)
        return -1;
    struct route *r = &w->route[i];
    snprintf(r->path, sizeof(r->path), "%s", path);
    snprintf(r->type, sizeof(r->type), "%s", type);
    r->body = body;
    r->len = len;
    if (i == w->nroute)
        w->nroute++;
    return 0;
}

// ---- queues ---------------------------------------------------------------------------------------

// Append n bytes to c's queue, growing it: -1 out of memory.
static int q_put(struct client *c, const char *p, size_t n)
{
    if (c->off && c->off == c->len)
        c->off = c->len = 0;
    if (c->len + n > c->cap) {
        if (c->off) { // move the unsent part to the front first
            memmove(c->q, c->q + c->off, c->len - c->off);
            c->len -= c->off;
            c->off = 0;
        }
        size_t cap = c->cap ? c->cap : 16384;
        while (cap < c->len + n)
            cap *= 2;
        if (cap > c->cap) {
            char *q = realloc(c->q, cap);
            if (!q)
                return -1;
            c->q = q;
            c->cap = cap;
        }
    }
    memcpy(c->q + c->len, p, n);
    c->len += n;
    return 0;
}

// Drop every message of c's queue not yet begun (the one part sent stays whole).
static void q_drop_unsent(struct client *c)
{
    if (c->off == 0) {
        c->len = 0;
        return;
    }
    if (c->off >= 2 && c->q[c->off - 1] == '\n' && c->q[c->off - 2] == '\n') {
        c->len = c->off;
        return;
    }
    char *e = memmem(c->q + c->off - 1, c->len - (c->off - 1), "\n\n", 2);
    if (e)
        c->len = (size_t)(e + 2 - c->q);
}

// A message for a stream client: queued, or (it does not fit) dropped with those not begun.
static void stream_put(struct web_server *w, struct client *c, const char *msg, size_t n)
{
    if (c->resync || (c->len - c->off) + n > w->queue || q_put(c, msg, n) < 0) {
        if (!c->resync) {
            q_drop_unsent(c);
            c->resync = 1;
            c->resyncs++;
            w->st.resyncs++;
        }
        c->dropped++;
        w->st.dropped++;
    }
}

// c's queue drained after a drop: say so, then the snapshot.
static void stream_resync(struct web_server *w, struct client *c)
{
    char m[160];
    int k = snprintf(m, sizeof(m), "event: drop\ndata: {\"dropped\":%llu,\"resyncs\":%llu}\n\n",
                     (unsigned long long)c->dropped, (unsigned long long)c->resyncs);
    c->resync = 0;
    q_put(c, m, (size_t)k);
    char *snap = NULL;
    size_t n = w->snap ? w->snap(w->user, &snap) : 0;
    if (n && q_put(c, snap, n) < 0)
        c->resync = 1;
    free(snap);
}

void web_server_broadcast(struct web_server *w, const char *msg, size_t n)
{
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++)
        if (w->cl[i].kind == CL_STREAM)
            stream_put(w, &w->cl[i], msg, n);
}

// ---- who holds a slot ----------------------------------------------------------------------------

// Bytes a stream client has not taken: its queue here and the kernel's send queue.
static size_t backlog(const struct client *c)
{
    int k = 0;
    if (ioctl(c->fd, SIOCOUTQ, &k) < 0 || k < 0)
        k = 0;
    return (c->len - c->off) + (size_t)k;
}

// Whether a gives way before b (both of one kind): requests and streams the oldest first, a
// stream with bytes waiting (a page not reading) before one that has taken all it was sent;
// responses the one stalled longest.
static int before(const struct client *a, const struct client *b)
{
    if (a->kind == CL_BODY)
        return a->sent_ms < b->sent_ms;
    if (a->kind == CL_STREAM) {
        int ia = backlog(a) > 0, ib = backlog(b) > 0;
        if (ia != ib)
            return ia;
    }
    return a->since < b->since;
}

// The client of that kind to give way first (of peer *only, or of anyone), or NULL: a response
// only once stalled for STALL_MS.
static struct client *victim(struct web_server *w, enum cl_kind kind, const uint32_t *only,
                             uint64_t now)
{
    struct client *v = NULL;
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++) {
        struct client *c = &w->cl[i];
        if (c->kind != kind || (only && c->peer != *only))
            continue;
        if (kind == CL_BODY && now - c->sent_ms < STALL_MS)
            continue;
        if (!v || before(c, v))
            v = c;
    }
    return v;
}

static void evict(struct web_server *w, struct client *c)
{
    drop_client(c);
    w->st.evicted++;
}

// A slot for a new connection from peer: a free one while the peer is under its cap, else one
// given up by the oldest unfinished request, else by a stalled response (the peer's own when it
// is at its cap; its streams too then). NULL: the server is busy with live work.
static struct client *slot_for(struct web_server *w, uint32_t peer, uint64_t now)
{
    struct client *free_slot = NULL;
    unsigned mine = 0;
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++)
        if (w->cl[i].kind == CL_FREE)
            free_slot = free_slot ? free_slot : &w->cl[i];
        else
            mine += w->cl[i].peer == peer;
    const uint32_t *only = mine >= WEB_PEER_CLIENTS ? &peer : NULL;
    if (free_slot && !only)
        return free_slot;
    struct client *v = victim(w, CL_REQUEST, only, now);
    if (!v)
        v = victim(w, CL_BODY, only, now);
    if (!v && only)
        v = victim(w, CL_STREAM, only, now);
    if (v)
        evict(w, v);
    return v;
}

// c is to become a stream: room made for it under the caps, the idlest stream closed (of c's
// peer when that peer is at its cap, else of anyone when the streams are).
static void stream_room(struct web_server *w, const struct client *c, uint64_t now)
{
    unsigned all = 0, mine = 0;
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++)
        if (w->cl[i].kind == CL_STREAM)
            all++, mine += w->cl[i].peer == c->peer;
    struct client *v = NULL;
    if (mine >= WEB_PEER_STREAMS)
        v = victim(w, CL_STREAM, &c->peer, now);
    else if (all >= WEB_MAX_STREAMS)
        v = victim(w, CL_STREAM, NULL, now);
    if (v)
        evict(w, v);
}

// ---- requests -------------------------------------------------------------------------------------

static void respond(struct web_server *w, struct client *c, const char *status, const char *type,
                    const void *body, size_t len)
{
    char h[400];
    int k = snprintf(h, sizeof(h), "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
                     "Connection: close\r\n\r\n", status, type, len);
    c->kind = CL_BODY;
    c->body = body;
    c->body_len = len;
    c->body_off = 0;
    if (q_put(c, h, (size_t)k) < 0)
        c->kind = CL_FREE; // closed below
    if (status[0] == '2')
        w->st.served++;
    else
        w->st.refused++;
}

static void refuse(struct web_server *w, struct client *c, const char *status)
{
    respond(w, c, status, "text/plain; charset=utf-8", status + 4, strlen(status + 4));
}

// The Host header names this machine (localhost, 127.0.0.1, [::1], with or without a port).
static int host_local(const char *req)
{
    const char *h = strcasestr(req, "\r\nHost:");
    if (!h)
        return 0;
    h += 7;
    while (*h == ' ')
        h++;
    static const char *const ok[] = { "localhost", "127.0.0.1", "[::1]" };
    for (unsigned i = 0; i < 3; i++) {
        size_t n = strlen(ok[i]);
        if (!strncasecmp(h, ok[i], n) && (h[n] == ':' || h[n] == '\r'))
            return 1;
    }
    return 0;
}

// A whole request in c->req: answer it.
static void request(struct web_server *w, struct client *c, uint64_t now)
{
    char path[256];
    if (sscanf(c->req, "GET %255s HTTP/1.", path) != 1) {
        refuse(w, c, "405 only GET");
        return;
    }
    if (w->loopback && !host_local(c->req)) {
        refuse(w, c, "403 this server answers only to localhost");
        return;
    }
    char *qm = strchr(path, '?');
    if (qm)
        *qm = 0;
    if (!strcmp(path, w->stream)) {
        static const char h[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                "Cache-Control: no-store\r\nConnection: keep-alive\r\n\r\n"
                                "retry: 1000\n\n";
        stream_room(w, c, now);
        int snd = STREAM_SNDBUF; // the kernel's part of the client's queue, bounded too
        setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &snd, sizeof(snd));
        c->kind = CL_STREAM;
        c->last_ms = now;
        w->st.served++;
        if (q_put(c, h, sizeof(h) - 1) < 0) {
            c->kind = CL_FREE;
            return;
        }
        char *snap = NULL;
        size_t n = w->snap ? w->snap(w->user, &snap) : 0;
        if (n && q_put(c, snap, n) < 0)
            c->resync = 1;
        free(snap);
        return;
    }
    for (unsigned i = 0; i < w->nroute; i++)
        if (!strcmp(w->route[i].path, path)) {
            respond(w, c, "200 OK", w->route[i].type, w->route[i].body, w->route[i].len);
            return;
        }
    refuse(w, c, "404 not found");
}

static void on_readable(struct web_server *w, struct client *c, uint64_t now)
{
    char tmp[4096];
    ssize_t k;
    if (c->kind != CL_REQUEST) { // a stream or body client's input: read and ignored, or closed
        k = recv(c->fd, tmp, sizeof(tmp), 0);
        if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR))
            drop_client(c);
        return;
    }
    k = recv(c->fd, c->req + c->nreq, REQ_MAX - 1 - c->nreq, 0);
    if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR)) {
        drop_client(c);
        return;
    }
    if (k < 0)
        return;
    c->nreq += (size_t)k;
    c->req[c->nreq] = 0;
    if (strstr(c->req, "\r\n\r\n"))
        request(w, c, now);
    else if (c->nreq == REQ_MAX - 1)
        refuse(w, c, "431 request too long");
    if (c->kind == CL_BODY)
        c->body_ms = c->sent_ms = now; // its deadline, and its progress
    if (c->kind == CL_FREE)
        drop_client(c);
}

// Write what c has queued; a body client is closed once it is all gone.
static void on_writable(struct web_server *w, struct client *c, uint64_t now)
{
    for (;;) {
        const char *p;
        size_t n;
        if (c->off < c->len) {
            p = c->q + c->off;
            n = c->len - c->off;
        } else if (c->kind == CL_BODY && c->body_off < c->body_len) {
            p = c->body + c->body_off;
            n = c->body_len - c->body_off;
        } else {
            break;
        }
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k < 0) {
            if (errno != EAGAIN && errno != EINTR)
                drop_client(c);
            return;
        }
        c->sent_ms = now;
        if (c->off < c->len)
            c->off += (size_t)k;
        else
            c->body_off += (size_t)k;
    }
    c->off = c->len = 0;
    if (c->kind == CL_BODY) {
        shutdown(c->fd, SHUT_WR);
        drop_client(c);
    } else if (c->kind == CL_STREAM && c->resync) {
        stream_resync(w, c);
    }
}

unsigned web_server_pollfds(struct web_server *w, struct pollfd *p)
{
    unsigned n = 0;
    p[n++] = (struct pollfd){ .fd = w->lfd, .events = POLLIN };
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++) {
        struct client *c = &w->cl[i];
        if (c->kind == CL_FREE)
            continue;
        short ev = POLLIN;
        if (c->off < c->len || (c->kind == CL_BODY && c->body_off < c->body_len) ||
            (c->kind == CL_STREAM && c->resync))
            ev |= POLLOUT;
        p[n++] = (struct pollfd){ .fd = c->fd, .events = ev };
    }
    return n;
}

static struct client *by_fd(struct web_server *w, int fd)
{
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++)
        if (w->cl[i].kind != CL_FREE && w->cl[i].fd == fd)
            return &w->cl[i];
    return NULL;
}

// New connections, every one waiting (a page load queued behind a flood of them waits no
// longer than one turn), each read at once: a request already there is answered, never pushed
// out by the connections accepted after it.
static void accept_all(struct web_server *w, uint64_t now)
{
    for (unsigned n = 0; n < ACCEPTS_A_TURN; n++) {
        struct sockaddr_in a;
        socklen_t al = sizeof(a);
        int fd = accept4(w->lfd, (struct sockaddr *)&a, &al, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        uint32_t peer = al >= sizeof(a) && a.sin_family == AF_INET ? a.sin_addr.s_addr : 0;
        struct client *c = slot_for(w, peer, now);
        if (!c) {
            static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n"
                                       "Content-Length: 0\r\n\r\n";
            (void)!send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            close(fd);
            w->st.refused++;
            continue;
        }
        memset(c, 0, sizeof(*c));
        c->kind = CL_REQUEST;
        c->fd = fd;
        c->since = now;
        c->peer = peer;
        on_readable(w, c, now);
    }
}

void web_server_service(struct web_server *w, const struct pollfd *p, unsigned n, uint64_t now)
{
    for (unsigned i = 1; i < n; i++) {
        struct client *c = by_fd(w, p[i].fd);
        if (!c || !p[i].revents)
            continue;
        if (p[i].revents & (POLLERR | POLLNVAL)) {
            drop_client(c);
            continue;
        }
        if (p[i].revents & (POLLIN | POLLHUP))
            on_readable(w, c, now);
        if (c->kind != CL_FREE && (p[i].revents & POLLOUT))
            on_writable(w, c, now);
    }
    if (n && (p[0].revents & POLLIN))
        accept_all(w, now);
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++) {
        struct client *c = &w->cl[i];
        if ((c->kind == CL_REQUEST && now - c->since > REQ_TIMEOUT_MS) ||
            (c->kind == CL_BODY && now - c->body_ms > BODY_TIMEOUT_MS)) {
            drop_client(c);
            w->st.timed_out++;
        } else if (c->kind == CL_STREAM && now - c->last_ms > KEEPALIVE_MS) {
            stream_put(w, c, ":\n\n", 3); // a comment: the browser keeps the stream
            c->last_ms = now;
        }
    }
}

void web_server_stats(const struct web_server *w, struct web_stats *s)
{
    *s = w->st;
    s->clients = s->streams = 0;
    s->queued = 0;
    for (unsigned i = 0; i < WEB_MAX_CLIENTS; i++) {
        const struct client *c = &w->cl[i];
        if (c->kind == CL_FREE)
            continue;
        s->clients++;
        s->streams += c->kind == CL_STREAM;
        s->queued += c->len - c->off;
    }
}
