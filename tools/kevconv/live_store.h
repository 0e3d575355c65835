// SPDX-License-Identifier: MIT
// kevlive's session: the CTF packets the encoder made, held for every viewer (live_viewer.c)
// in one bounded store. A session (the tool's one: its host name is the board's) holds traces,
// one per segment of the capture (a board reset starts a new trace); a trace has its metadata
// text and one stream per CPU; a stream, its packets in order, each at its byte offset in the
// stream as LTTng's index gives it.
// Memory: the packets held are at most cap bytes in all; past it the oldest packet of any
// stream goes (a viewer that had not read it counts its events as discarded, live_viewer.c).
// A packet is shared: the store and each viewer reading it hold a reference, so a packet a
// viewer is reading stays until it is done, whatever the store dropped.
// Time: each stream has a quiet time, before which no event will come (the live reader's
// progress, kept below the packet the encoder is filling): LTTng's inactivity beacons.
// Single-threaded.
#ifndef TOOLS_LIVE_STORE_H
#define TOOLS_LIVE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "kev2ctf.h"

#define LS_MAX_TRACES 8u     // traces held: a board reset more often than this loses the oldest

struct ls_packet {
    unsigned refs;
    uint64_t no;             // its number in its stream, from 0
    uint64_t off;            // its byte offset in its stream
    uint64_t begin, end;     // timestamp_begin, timestamp_end (cycles)
    uint64_t discarded;      // the events_discarded counter it carries
    uint64_t seq;            // its packet_seq_num
    uint64_t events;         // events in it
    uint64_t events_before;  // events in the stream's packets before it
    uint64_t arrival;        // store-wide order of arrival (the oldest goes first)
    uint32_t len;
    uint8_t data[];
};

struct ls_stream {
    uint64_t id;             // the viewer's stream id (unique in the session)
    unsigned cpu;
    struct ls_packet **pk;   // held packets, oldest first: pk[head .. head + n)
    size_t head, n, cap;
    uint64_t next_no;        // number of the next packet to come
    uint64_t next_off;       // ... and its offset
    uint64_t events;         // events in every packet made so far
    uint64_t end;            // the last packet's end
    uint64_t quiet;          // no event before this time will come
};

struct ls_trace {
    uint64_t id;             // ctf_trace_id (unique in the session)
    uint64_t meta_id;        // the metadata stream's id
    unsigned seg;            // the capture's segment
    char *meta;              // the TSDL text
    size_t meta_len;
    unsigned nstreams;       // one per CPU the header names
    struct ls_stream *st;
    int ended;               // the segment ended: no packet will come
    uint64_t ns_cycles;      // cycles of its clock in a nanosecond, at least 1
};

struct ls_session {
    char host[64];           // LTTng's hostname: the board's name
    char name[256];          // the session's name
    struct ls_trace *tr[LS_MAX_TRACES]; // by age, tr[0] the oldest; ntr held
    unsigned ntr;
    uint64_t next_id;        // the next id for a trace or a stream
    uint64_t bytes, cap;     // packet bytes held, and the most held
    uint64_t arrivals;
    uint64_t dropped_packets;// packets the store let go, to keep under cap
    int closed;              // the input ended: no trace will come
};

// A session called name, holding at most cap bytes of packets.
void ls_init(struct ls_session *s, const char *name, uint64_t cap);
void ls_free(struct ls_session *s);
// A new trace (a segment began) with its metadata (copied), ncpu streams and its clock's
// frequency. NULL out of
// memory. The oldest trace goes when LS_MAX_TRACES are held.
struct ls_trace *ls_trace_begin(struct ls_session *s, unsigned seg, const char *meta,
                                size_t meta_len, unsigned ncpu, uint64_t freq);
// A closed packet of t's CPU pk->cpu: kept (copied; its begin raised to the stream's quiet
// time if below it, so that it never goes back past a beacon). -1 out of memory.
int ls_add_packet(struct ls_session *s, struct ls_trace *t, const struct ctf_packet *pk);
// No event of t's CPU cpu will come before time q.
void ls_quiet(struct ls_trace *t, unsigned cpu, uint64_t q);
// The trace ended: its streams end after their last packet.
void ls_trace_end(struct ls_trace *t);

// The stream of id (and its trace), or NULL.
struct ls_stream *ls_stream_of(const struct ls_session *s, uint64_t id, struct ls_trace **tp);
// The trace whose metadata stream is id, or NULL.
struct ls_trace *ls_trace_of_meta(const struct ls_session *s, uint64_t id);
// The first packet held numbered no or later, or NULL.
struct ls_packet *ls_packet_from(const struct ls_stream *st, uint64_t no);
// The packet held holding byte off, or NULL.
struct ls_packet *ls_packet_at(const struct ls_stream *st, uint64_t off);
struct ls_packet *ls_ref(struct ls_packet *p);
void ls_unref(struct ls_packet *p);

#endif
