// SPDX-License-Identifier: MIT
// kevlive's viewers: LTTng's live viewer protocol (version 2.4, the one babeltrace2 speaks;
// lttng-tools' doc/live-reading-protocol.md and lttng-viewer-abi.h), served over TCP from the
// session store (live_store.h), for any number of viewers at once (up to LV_MAX_CLIENTS).
// A viewer attaches to the session (babeltrace2 net://HOST:PORT/host/BOARD/SESSION), lists its
// streams, reads the metadata, then each stream's packets through their index: a packet it has
// not read, or the stream's inactivity (a beacon with the time before which nothing will
// come), or "retry", or the stream's end (hang-up) once its trace has ended.
// Each viewer has its own cursor in each stream. A viewer attaching starts at the oldest packet
// held (from_start), or as LTTng's relay does: with seek "last" (babeltrace2 always asks it)
// at the next packet to come, with seek "beginning" at the oldest held. A viewer the
// store outran (it dropped packets the viewer had not read) is served the next packet held,
// with those packets' events added to the events_discarded counter it is given and the
// packets' sequence numbers closed up: babeltrace2 says "discarded N events" there.
// Robustness: sockets are non-blocking; a viewer's next command is read only when its reply
// has gone, so a viewer that stops reading holds one reply (bounded: a packet, the metadata or
// a stream list) and stalls nobody; a command that is not the protocol's (unknown, a wrong
// size, before CONNECT) closes that viewer's connection, said once. Every connection has a
// deadline to speak: CONNECT within LV_HELLO_S, then a command at least every LV_SILENT_S
// (lv_expire, each turn); with LV_MAX_CLIENTS connected, a new viewer takes the place of the
// longest one that never sent CONNECT. Each closing is said.
// Single-threaded: the tool's poll loop calls lv_fds and lv_handle.
#ifndef TOOLS_LIVE_VIEWER_H
#define TOOLS_LIVE_VIEWER_H

#include <poll.h>
#include <stdint.h>

#include "live_store.h"

#define LV_MAX_CLIENTS 32u
#define LV_HELLO_S 5.0          // a connection must send CONNECT within this
#define LV_SILENT_S 60.0        // a viewer that sends no command (or leaves its reply unread)
                                // this long is closed

struct lv_server;

struct lv_counts {
    uint64_t connections, refused;  // accepted, and turned away (too many viewers)
    uint64_t expired;               // closed for silence (no CONNECT in time, or no command)
    uint64_t garbage;               // viewers closed for commands not the protocol's
    uint64_t attached;              // attach commands that succeeded
    uint64_t packets, bytes;        // packets (index entries) and packet bytes served
    uint64_t beacons;               // inactivity replies
    uint64_t skipped_events;        // events of packets the store dropped before a viewer read them
};

// A server on the listening socket fd (non-blocking), serving session s; tool prefixes what it
// says on stderr (quiet: only problems). from_start: every viewer from the oldest packet held.
struct lv_server *lv_new(const char *tool, int fd, struct ls_session *s, int from_start,
                         int quiet);
void lv_free(struct lv_server *v);
// The descriptors to poll (the listening socket and each viewer's): at most max, written to p.
unsigned lv_fds(struct lv_server *v, struct pollfd *p, unsigned max);
// After poll: serve what p (as lv_fds filled it, n of them) says is ready.
void lv_handle(struct lv_server *v, const struct pollfd *p, unsigned n);
// Close the connections past their deadline to speak (said): call each turn.
void lv_expire(struct lv_server *v);
// Viewers attached now, and whether each of them has been given every stream's end.
unsigned lv_attached(const struct lv_server *v);
int lv_all_done(const struct lv_server *v);
const struct lv_counts *lv_counts(const struct lv_server *v);
// The host time (CLOCK_MONOTONIC seconds) an attached viewer last sent a command, 0 if never.
double lv_last_command(const struct lv_server *v);

#endif
