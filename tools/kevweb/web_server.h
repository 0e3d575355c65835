// SPDX-License-Identifier: MIT
// kevweb's HTTP server: one thread, non-blocking sockets, bound to one address (127.0.0.1 by
// default: the page shows a trace, nothing else may reach it). It serves fixed bodies by path
// (the page, its scripts, the finished trace's report) and one stream of server-sent events
// (text/event-stream) to every page that asks for it.
// A browser never stalls the stream or another page: each stream client has its own queue of at
// most `queue` bytes; a message that does not fit is dropped for that client, every message
// not yet begun is dropped with it, and once its queue has drained the client is sent a "drop"
// event (how many it lost, how many times) and a fresh snapshot (the snap callback) instead.
// No client holds the server from the others (web_server.c's slot policy): a request must
// arrive whole within 3 s and its response be sent within 10 s; a peer (an address) holds at
// most WEB_PEER_CLIENTS connections and WEB_PEER_STREAMS streams, the streams together at most
// WEB_MAX_STREAMS, so that slots are always left for page loads. A new connection takes a free
// slot, else the oldest request still unfinished, else a response stalled for a second, gives
// way; a new stream over a cap closes the idlest stream (one the page is not reading: bytes
// waiting, the oldest first). Bound to a loopback address, a request whose Host is not this
// machine's name for itself (localhost, 127.0.0.1, [::1]) is refused: a web page elsewhere
// cannot reach it through DNS rebinding.
#ifndef KEVWEB_WEB_SERVER_H
#define KEVWEB_WEB_SERVER_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#define WEB_MAX_CLIENTS 256u
#define WEB_MAX_STREAMS 128u    // the rest kept for page loads
#define WEB_PEER_CLIENTS 64u    // connections of one address at once
#define WEB_PEER_STREAMS 16u    // streams of one address at once
#define WEB_MAX_ROUTES 16u

struct web_server;

// What the stream's clients are given when they start and after a drop: a whole message
// ("event: ...\ndata: ...\n\n") in *out (malloc'd, the caller frees it), its length; 0 none.
typedef size_t (*web_snap_fn)(void *user, char **out);

// Listen on addr:port (port 0, or a port taken: a free one), with stream clients' queues of
// queue bytes and the stream at path stream. NULL after saying why on stderr.
struct web_server *web_server_new(const char *addr, unsigned port, size_t queue,
                                  const char *stream, web_snap_fn snap, void *user);
void web_server_free(struct web_server *w);
unsigned web_server_port(const struct web_server *w);
// Serve body (len bytes, kept by the caller until replaced or the server is freed) at path
// with that content type; a path served already gets the new body. -1 past WEB_MAX_ROUTES.
int web_server_route(struct web_server *w, const char *path, const char *type, const void *body,
                     size_t len);
// The descriptors to poll (at most WEB_MAX_CLIENTS + 1 into p): their count.
unsigned web_server_pollfds(struct web_server *w, struct pollfd *p);
// After poll: accept, read requests, write what is queued; now_ms a monotonic clock.
void web_server_service(struct web_server *w, const struct pollfd *p, unsigned n, uint64_t now_ms);
// A message (whole: "event: ...\ndata: ...\n\n") to every stream client.
void web_server_broadcast(struct web_server *w, const char *msg, size_t n);

// What happened, for the tool's own line and the tests.
struct web_stats {
    unsigned clients, streams;       // connected now, of which stream clients
    uint64_t served, refused;        // requests answered, refused (busy, bad, foreign Host)
    uint64_t dropped, resyncs;       // messages dropped for slow stream clients, snapshots resent
    uint64_t evicted, timed_out;     // closed to make room for another, past their deadline
    size_t queued;                   // bytes queued now, over every client
};
void web_server_stats(const struct web_server *w, struct web_stats *s);

#endif
