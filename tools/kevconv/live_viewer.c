// SPDX-License-Identifier: MIT
// LTTng's live viewer protocol, served (live_viewer.h). The layouts are the protocol's (all
// integers big-endian, structures packed): a command is { u64 data_size; u32 cmd; u32 version }
// then data_size bytes; each reply is written here field by field.
// A viewer is a client: its socket, the command being read (at most a header and the longest
// payload), the reply being sent, and its view of each trace (announced or not, the metadata
// sent, a cursor per stream). Invariant: a client's next command is read only when its reply
// has gone (out_pos == out_len), so the bytes held for it are at most one reply.
#define _GNU_SOURCE
#include "live_viewer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <trace/kev_bytes.h>

enum {
    CMD_CONNECT = 1, CMD_LIST_SESSIONS, CMD_ATTACH_SESSION, CMD_GET_NEXT_INDEX, CMD_GET_PACKET,
    CMD_GET_METADATA, CMD_GET_NEW_STREAMS, CMD_CREATE_SESSION, CMD_DETACH_SESSION,
};
enum { FLAG_NEW_METADATA = 1, FLAG_NEW_STREAM = 2 };
enum { ATTACH_OK = 1, ATTACH_UNK = 3, ATTACH_SEEK_ERR = 5, ATTACH_NO_SESSION = 6 };
enum { INDEX_OK = 1, INDEX_RETRY, INDEX_HUP, INDEX_ERR, INDEX_INACTIVE };
enum { PACKET_OK = 1, PACKET_ERR = 3 };
enum { METADATA_OK = 1, METADATA_NO_NEW, METADATA_ERR };
enum { NEW_STREAMS_OK = 1, NEW_STREAMS_NO_NEW, NEW_STREAMS_ERR, NEW_STREAMS_HUP };
enum { SEEK_BEGINNING = 1, SEEK_LAST = 2 };
enum { CLIENT_COMMAND = 1 };

#define PROTO_MAJOR 2u
#define PROTO_MINOR 4u
#define CMD_HDR 16u
#define HOST_NAME_MAX_ 64u      // lttng_viewer_session's hostname[]
#define NAME_MAX_ 255u          // its session_name[], a stream's channel_name[]
#define PATH_MAX_ 4096u         // a stream's path_name[]
#define SESSION_BYTES (20u + HOST_NAME_MAX_ + NAME_MAX_)
#define STREAM_BYTES (20u + PATH_MAX_ + NAME_MAX_)
#define SESSION_ID 1u           // the one session
#define LIVE_TIMER_US 100000u   // the tracelogger's default flush interval (the board's own is
                                // not in the stream): what the session list says
#define MAX_PACKET_REPLY (1u << 20)
#define COMMANDS_A_ROUND 16u
#define DETACH_GRACE_S 1.0     // after the session's end is said, for the viewer to detach

// A viewer's place in one stream.
struct cursor {
    uint64_t next_no;          // the next packet to serve
    uint64_t events_before;    // events in the stream's packets before next_no
    uint64_t extra;            // events of packets dropped before it read them
    uint64_t skipped;          // ... and those packets
    uint64_t last_ts;          // the last packet end or beacon given
    struct ls_packet *cur;     // the packet it reads (a reference)
    int hup;                   // given the stream's end
};

// A viewer's view of one trace.
struct tview {
    uint64_t trace_id;         // 0: unused
    int announced;             // its streams were listed to the viewer
    uint64_t meta_sent;
    unsigned n;
    struct cursor *c;
};

struct client {
    int fd;
    unsigned no;
    char peer[64];
    uint8_t in[CMD_HDR + 32];
    size_t in_len;
    uint8_t *out;
    size_t out_len, out_pos, out_cap;
    int connected, vsession, attached, close_after, gone;
    double since, heard;       // host seconds: connected; its last whole command (or since)
    uint64_t first_new_id;     // traces from this id on began after it attached: announced
    int new_streams_hup;       // told the session ended
    double hup_at;             // ... then (host seconds)
    struct tview tv[LS_MAX_TRACES];
};

struct lv_server {
    char tool[32];
    int fd;
    struct ls_session *s;
    int from_start, quiet;
    unsigned next_no;
    struct client *c[LV_MAX_CLIENTS];
    unsigned nc;
    struct lv_counts n;
    double last_command;       // when an attached viewer last sent one
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// ---- replies ----------------------------------------------------------------------------------

static int out_room(struct client *c, size_t n)
{
    if (c->out_pos == c->out_len)
        c->out_pos = c->out_len = 0;
    if (c->out_len + n <= c->out_cap)
        return 0;
    size_t cap = c->out_cap ? c->out_cap : 4096;
    while (cap < c->out_len + n)
        cap *= 2;
    uint8_t *b = realloc(c->out, cap);
    if (!b)
        return -1;
    c->out = b;
    c->out_cap = cap;
    return 0;
}

// (callers reserve with out_room first; a client out of memory is closed)
// (the protocol's words are big-endian)
static void be32(struct client *c, uint32_t v)
{
    kev_put_be32(c->out + c->out_len, v);
    c->out_len += 4;
}

static void be64(struct client *c, uint64_t v)
{
    kev_put_be64(c->out + c->out_len, v);
    c->out_len += 8;
}

static void fixed_str(struct client *c, const char *s, size_t n)
{
    size_t k = strnlen(s, n - 1);
    memcpy(c->out + c->out_len, s, k);
    memset(c->out + c->out_len + k, 0, n - k);
    c->out_len += n;
}

static void say(const struct lv_server *v, const struct client *c, const char *what)
{
    if (!v->quiet)
        fprintf(stderr, "%s: viewer %u (%s) %s\n", v->tool, c->no, c->peer, what);
}

// ---- the viewer's view of the session ---------------------------------------------------------

static struct tview *tview_of(struct client *c, const struct ls_session *s, uint64_t trace_id)
{
    for (unsigned i = 0; i < LS_MAX_TRACES; i++)
        if (c->tv[i].trace_id == trace_id)
            return &c->tv[i];
    (void)s;
    return NULL;
}

static void tview_clear(struct tview *tv)
{
    for (unsigned k = 0; k < tv->n; k++)
        ls_unref(tv->c[k].cur);
    free(tv->c);
    memset(tv, 0, sizeof(*tv));
}

static int held(const struct ls_session *s, uint64_t trace_id)
{
    for (unsigned i = 0; i < s->ntr; i++)
        if (s->tr[i]->id == trace_id)
            return 1;
    return 0;
}

// A view of t for c, its cursors at the oldest packet held (from_start) or the next to come.
static struct tview *tview_new(struct client *c, const struct ls_session *s,
                               const struct ls_trace *t, int from_start)
{
    struct tview *tv = NULL;
    for (unsigned i = 0; i < LS_MAX_TRACES && !tv; i++)
        if (!c->tv[i].trace_id || !held(s, c->tv[i].trace_id))
            tv = &c->tv[i];
    if (!tv)
        return NULL;
    tview_clear(tv);
    if (!(tv->c = calloc(t->nstreams ? t->nstreams : 1, sizeof(*tv->c))))
        return NULL;
    tv->trace_id = t->id;
    tv->n = t->nstreams;
    for (unsigned k = 0; k < t->nstreams; k++) {
        const struct ls_stream *st = &t->st[k];
        struct cursor *cu = &tv->c[k];
        struct ls_packet *p = from_start ? ls_packet_from(st, 0) : NULL;
        cu->next_no = p ? p->no : st->next_no;
        cu->events_before = p ? p->events_before : st->events;
    }
    return tv;
}

static void stream_entry(struct client *c, const struct ls_session *s, const struct ls_trace *t,
                         uint64_t id, int meta, unsigned cpu)
{
    char path[PATH_MAX_], chan[64];
    snprintf(path, sizeof(path), "%s/%s/kernel", s->host, s->name);
    if (meta)
        snprintf(chan, sizeof(chan), "metadata");
    else
        snprintf(chan, sizeof(chan), "channel0_%u", cpu);
    be64(c, id);
    be64(c, t->id);
    be32(c, (uint32_t)meta);
    fixed_str(c, path, PATH_MAX_);
    fixed_str(c, chan, NAME_MAX_);
}

// Announce the traces of s that c should see and has not: their count of streams is written
// at *count_at (patched), the streams after it.
static int announce(struct lv_server *v, struct client *c, size_t count_at, int all, int from)
{
    const struct ls_session *s = v->s;
    uint32_t count = 0;
    for (unsigned i = 0; i < s->ntr; i++) {
        const struct ls_trace *t = s->tr[i];
        struct tview *tv = tview_of(c, s, t->id);
        if (tv && tv->announced)
            continue;
        int newer = t->id >= c->first_new_id;
        if (!newer && !all && (t->ended || i + 1 < s->ntr))
            continue; // from now: the current trace only
        if (!tv && !(tv = tview_new(c, s, t, newer || from)))
            return -1;
        if (out_room(c, (size_t)(t->nstreams + 1) * STREAM_BYTES))
            return -1;
        tv->announced = 1;
        stream_entry(c, s, t, t->meta_id, 1, 0);
        for (unsigned k = 0; k < t->nstreams; k++)
            stream_entry(c, s, t, t->st[k].id, 0, k);
        count += t->nstreams + 1;
    }
    kev_put_be32(c->out + count_at, count);
    return 0;
}

static int pending_new(const struct client *c, const struct ls_session *s)
{
    for (unsigned i = 0; i < s->ntr; i++) {
        const struct ls_trace *t = s->tr[i];
        if (t->id < c->first_new_id)
            continue;
        int seen = 0;
        for (unsigned k = 0; k < LS_MAX_TRACES; k++)
            seen |= c->tv[k].trace_id == t->id && c->tv[k].announced;
        if (!seen)
            return 1;
    }
    return 0;
}

static uint32_t flags_for(struct client *c, const struct ls_session *s, const struct ls_trace *t)
{
    uint32_t f = pending_new(c, s) ? FLAG_NEW_STREAM : 0;
    struct tview *tv = tview_of(c, s, t->id);
    if (tv && tv->meta_sent < t->meta_len)
        f |= FLAG_NEW_METADATA;
    return f;
}

static void detach(struct client *c)
{
    for (unsigned i = 0; i < LS_MAX_TRACES; i++)
        tview_clear(&c->tv[i]);
    c->attached = 0;
}

// ---- the commands -----------------------------------------------------------------------------

static void cmd_connect(struct lv_server *v, struct client *c, const uint8_t *p)
{
    uint32_t major = kev_get_be32(p + 8);
    uint32_t minor = kev_get_be32(p + 12);
    uint32_t type = kev_get_be32(p + 16);
    if (out_room(c, 20))
        return;
    be64(c, c->no);
    be32(c, PROTO_MAJOR);
    be32(c, major == PROTO_MAJOR && minor < PROTO_MINOR ? minor : PROTO_MINOR);
    be32(c, type);
    if (major != PROTO_MAJOR || type != CLIENT_COMMAND) {
        char what[128];
        snprintf(what, sizeof(what), "speaks protocol %u.%u (type %u): this server speaks "
                 "%u.%u; closed", major, minor, type, PROTO_MAJOR, PROTO_MINOR);
        say(v, c, what);
        c->close_after = 1;
        return;
    }
    c->connected = 1;
}

static void cmd_list(struct lv_server *v, struct client *c)
{
    const struct ls_session *s = v->s;
    uint32_t n = s->ntr ? 1 : 0, streams = 0, clients = 0;
    for (unsigned i = 0; i < s->ntr; i++)
        streams += s->tr[i]->nstreams;
    for (unsigned i = 0; i < v->nc; i++)
        clients += v->c[i]->attached;
    if (out_room(c, 4 + n * SESSION_BYTES))
        return;
    be32(c, n);
    if (!n)
        return;
    be64(c, SESSION_ID);
    be32(c, LIVE_TIMER_US);
    be32(c, clients);
    be32(c, streams);
    fixed_str(c, s->host, HOST_NAME_MAX_);
    fixed_str(c, s->name, NAME_MAX_);
}

static void cmd_attach(struct lv_server *v, struct client *c, const uint8_t *p)
{
    uint64_t id = kev_get_be64(p);
    uint32_t seek = kev_get_be32(p + 16);
    if (out_room(c, 8))
        return;
    uint32_t status = !c->vsession ? ATTACH_NO_SESSION
                      : id != SESSION_ID || !v->s->ntr ? ATTACH_UNK
                      : seek != SEEK_BEGINNING && seek != SEEK_LAST ? ATTACH_SEEK_ERR : ATTACH_OK;
    be32(c, status);
    size_t count_at = c->out_len;
    be32(c, 0);
    if (status != ATTACH_OK)
        return;
    detach(c);
    c->attached = 1;
    c->first_new_id = v->s->next_id;
    int all = seek == SEEK_BEGINNING || v->from_start;
    if (announce(v, c, count_at, all, all) < 0) {
        c->close_after = 1;
        return;
    }
    v->n.attached++;
    char what[384];
    snprintf(what, sizeof(what), "attached to %s/%s, from %s", v->s->host, v->s->name,
             all ? "the oldest packet held" : "the next packet");
    say(v, c, what);
}

// The time a stream's inactivity is given at: its quiet time, a nanosecond less for each CPU
// before it, so that no two streams' beacons are the same message (babeltrace2 warns that it
// cannot order two such).
static uint64_t beacon(const struct ls_trace *t, const struct ls_stream *st)
{
    uint64_t d = (uint64_t)st->cpu * t->ns_cycles;
    return st->quiet > d ? st->quiet - d : 0;
}

// The stream's next index for c: a packet, the stream's inactivity, retry, or its end.
static void cmd_next_index(struct lv_server *v, struct client *c, const uint8_t *p)
{
    uint64_t id = kev_get_be64(p);
    struct ls_trace *t = NULL;
    struct ls_stream *st = ls_stream_of(v->s, id, &t);
    struct tview *tv = st && c->attached ? tview_of(c, v->s, t->id) : NULL;
    uint64_t off = 0, size = 0, begin = 0, end = 0, disc = 0;
    uint32_t status = INDEX_ERR, flags = 0;
    if (!st && id && id < v->s->next_id && c->attached) {
        status = INDEX_HUP;     // a trace the store no longer holds (board resets): it ended
    } else if (tv && tv->announced) {
        struct cursor *cu = &tv->c[st->cpu];
        flags = flags_for(c, v->s, t);
        ls_unref(cu->cur);      // the viewer asks for the next: done with the one it read
        cu->cur = NULL;
        struct ls_packet *pk = ls_packet_from(st, cu->next_no);
        uint64_t upto = pk ? pk->no : st->next_no, before = pk ? pk->events_before : st->events;
        if (upto > cu->next_no) { // packets the store let go before the viewer read them
            cu->skipped += upto - cu->next_no;
            cu->extra += before - cu->events_before;
            v->n.skipped_events += before - cu->events_before;
            cu->next_no = upto;
            cu->events_before = before;
        }
        if (pk) {
            cu->cur = ls_ref(pk);
            cu->next_no = pk->no + 1;
            cu->events_before = pk->events_before + pk->events;
            cu->last_ts = pk->end;
            status = INDEX_OK;
            off = pk->off, size = (uint64_t)pk->len * 8, begin = pk->begin, end = pk->end;
            disc = pk->discarded + cu->extra;
            v->n.packets++;
        } else if (t->ended) {
            status = INDEX_HUP;
            cu->hup = 1;
        } else if (beacon(t, st) > cu->last_ts) {
            status = INDEX_INACTIVE;
            end = cu->last_ts = beacon(t, st);
            v->n.beacons++;
        } else {
            status = INDEX_RETRY;
        }
    }
    if (out_room(c, 64))
        return;
    be64(c, off);
    be64(c, size);
    be64(c, size);
    be64(c, begin);
    be64(c, end);
    be64(c, disc);
    be64(c, 0);                 // the CTF stream class (ctf_meta.c: stream id 0)
    be32(c, status);
    be32(c, flags);
}

// Bytes [off, off + len) of a stream: of one packet, with the viewer's discarded count and
// sequence number in its context.
static void cmd_get_packet(struct lv_server *v, struct client *c, const uint8_t *p)
{
    uint64_t id = kev_get_be64(p);
    uint64_t off = kev_get_be64(p + 8);
    uint32_t len = kev_get_be32(p + 16);
    struct ls_trace *t = NULL;
    struct ls_stream *st = ls_stream_of(v->s, id, &t);
    struct tview *tv = st && c->attached ? tview_of(c, v->s, t->id) : NULL;
    struct cursor *cu = tv && tv->announced ? &tv->c[st->cpu] : NULL;
    struct ls_packet *pk = NULL;
    if (cu)
        pk = cu->cur && off >= cu->cur->off && off < cu->cur->off + cu->cur->len
                 ? cu->cur : ls_packet_at(st, off);
    uint32_t flags = cu ? flags_for(c, v->s, t) : 0;
    if (!pk || !len || (flags & FLAG_NEW_METADATA)) {
        if (out_room(c, 12))
            return;
        be32(c, PACKET_ERR);
        be32(c, 0);
        be32(c, flags);
        return;
    }
    uint64_t at = off - pk->off, n = pk->len - at;
    if (n > len)
        n = len;
    if (n > MAX_PACKET_REPLY)
        n = MAX_PACKET_REPLY;
    if (out_room(c, 12 + (size_t)n))
        return;
    be32(c, PACKET_OK);
    be32(c, (uint32_t)n);
    be32(c, flags);
    uint8_t *d = c->out + c->out_len;
    memcpy(d, pk->data + at, (size_t)n);
    c->out_len += (size_t)n;
    // the viewer's counters, where this range holds them
    uint8_t fix[16];
    kev_put_le64(fix, pk->seq - cu->skipped);
    kev_put_le64(fix + 8, pk->discarded + cu->extra);
    for (unsigned k = 0; k < 16; k++) {
        uint64_t pos = CTF_OFF_SEQ + k; // (CTF_OFF_DISCARDED follows CTF_OFF_SEQ)
        if (pos >= at && pos < at + n)
            d[pos - at] = fix[k];
    }
    v->n.bytes += n;
}

static void cmd_get_metadata(struct lv_server *v, struct client *c, const uint8_t *p)
{
    uint64_t id = kev_get_be64(p);
    struct ls_trace *t = ls_trace_of_meta(v->s, id);
    struct tview *tv = t && c->attached ? tview_of(c, v->s, t->id) : NULL;
    uint64_t n = tv && tv->announced ? t->meta_len - tv->meta_sent : 0;
    if (out_room(c, 12 + (size_t)n))
        return;
    be64(c, n);
    be32(c, !tv || !tv->announced ? METADATA_ERR : n ? METADATA_OK : METADATA_NO_NEW);
    if (!n)
        return;
    memcpy(c->out + c->out_len, t->meta + tv->meta_sent, (size_t)n);
    c->out_len += (size_t)n;
    tv->meta_sent = t->meta_len;
}

static int session_over(const struct ls_session *s)
{
    if (!s->closed)
        return 0;
    for (unsigned i = 0; i < s->ntr; i++)
        if (!s->tr[i]->ended)
            return 0;
    return 1;
}

static void cmd_new_streams(struct lv_server *v, struct client *c, const uint8_t *p)
{
    uint64_t id = kev_get_be64(p);
    if (out_room(c, 8))
        return;
    size_t status_at = c->out_len;
    be32(c, NEW_STREAMS_ERR);
    size_t count_at = c->out_len;
    be32(c, 0);
    if (id != SESSION_ID || !c->attached)
        return;
    int fresh = pending_new(c, v->s);
    uint32_t status = fresh ? NEW_STREAMS_OK : session_over(v->s) ? NEW_STREAMS_HUP
                                                                   : NEW_STREAMS_NO_NEW;
    kev_put_be32(c->out + status_at, status);
    if (fresh && announce(v, c, count_at, 0, 0) < 0)
        c->close_after = 1;
    if (status == NEW_STREAMS_HUP && !c->new_streams_hup) {
        c->new_streams_hup = 1;
        c->hup_at = now_s();
    }
}

static void cmd_detach(struct lv_server *v, struct client *c, const uint8_t *p)
{
    uint64_t id = kev_get_be64(p);
    if (out_room(c, 4))
        return;
    be32(c, id == SESSION_ID && c->attached ? 1u : 2u); // OK, or UNK
    if (id == SESSION_ID && c->attached) {
        detach(c);
        say(v, c, "detached");
    }
}

// The payload each command takes (data_size must be it).
static long payload_of(uint32_t cmd)
{
    switch (cmd) {
    case CMD_CONNECT: case CMD_ATTACH_SESSION: case CMD_GET_PACKET: return 20;
    case CMD_GET_NEXT_INDEX: case CMD_GET_METADATA: case CMD_GET_NEW_STREAMS:
    case CMD_DETACH_SESSION: return 8;
    case CMD_LIST_SESSIONS: case CMD_CREATE_SESSION: return 0;
    default: return -1;
    }
}

static void garbage(struct lv_server *v, struct client *c, uint32_t cmd, uint64_t size)
{
    char what[192];
    snprintf(what, sizeof(what), "sent what is not LTTng's live protocol (command %lu with %llu "
             "bytes%s): closed", (unsigned long)cmd, (unsigned long long)size,
             c->connected ? "" : ", before CONNECT");
    fprintf(stderr, "%s: viewer %u (%s) %s\n", v->tool, c->no, c->peer, what);
    v->n.garbage++;
    c->gone = 1;
}

static void command(struct lv_server *v, struct client *c, uint32_t cmd, const uint8_t *p)
{
    switch (cmd) {
    case CMD_CONNECT: cmd_connect(v, c, p); break;
    case CMD_LIST_SESSIONS: cmd_list(v, c); break;
    case CMD_CREATE_SESSION:
        if (!out_room(c, 4))
            be32(c, 1); // OK
        c->vsession = 1;
        break;
    case CMD_ATTACH_SESSION: cmd_attach(v, c, p); break;
    case CMD_GET_NEXT_INDEX: cmd_next_index(v, c, p); break;
    case CMD_GET_PACKET: cmd_get_packet(v, c, p); break;
    case CMD_GET_METADATA: cmd_get_metadata(v, c, p); break;
    case CMD_GET_NEW_STREAMS: cmd_new_streams(v, c, p); break;
    case CMD_DETACH_SESSION: cmd_detach(v, c, p); break;
    }
}

// ---- the connections ----------------------------------------------------------------------------

static void client_close(struct lv_server *v, unsigned i)
{
    struct client *c = v->c[i];
    if (!c->gone || c->attached)
        say(v, c, "disconnected");
    detach(c);
    close(c->fd);
    free(c->out);
    free(c);
    v->c[i] = v->c[--v->nc];
}

static void do_accept(struct lv_server *v)
{
    struct sockaddr_storage sa;
    socklen_t sl = sizeof(sa);
    int fd = accept4(v->fd, (struct sockaddr *)&sa, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0)
        return;
    if (v->nc == LV_MAX_CLIENTS) { // room made from the longest silent one that never spoke
        unsigned mute = LV_MAX_CLIENTS;
        for (unsigned i = 0; i < v->nc; i++)
            if (!v->c[i]->connected && (mute == LV_MAX_CLIENTS || v->c[i]->since <
                                                                   v->c[mute]->since))
                mute = i;
        if (mute < LV_MAX_CLIENTS) {
            v->n.expired++;
            fprintf(stderr, "%s: viewer %u (%s) closed: it sent no command in %.1f s and a "
                    "viewer is waiting for its place (%u at most)\n", v->tool, v->c[mute]->no,
                    v->c[mute]->peer, now_s() - v->c[mute]->since, LV_MAX_CLIENTS);
            v->c[mute]->gone = 1;
            client_close(v, mute);
        }
    }
    if (v->nc == LV_MAX_CLIENTS) {
        v->n.refused++;
        fprintf(stderr, "%s: a viewer turned away: %u are connected, the most served\n",
                v->tool, LV_MAX_CLIENTS);
        close(fd);
        return;
    }
    struct client *c = calloc(1, sizeof(*c));
    if (!c) {
        close(fd);
        return;
    }
    c->fd = fd;
    c->no = ++v->next_no;
    c->since = c->heard = now_s();
    char host[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    if (sa.ss_family == AF_INET) {
        struct sockaddr_in *a = (struct sockaddr_in *)&sa;
        inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
        port = ntohs(a->sin_port);
    } else if (sa.ss_family == AF_INET6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&sa;
        inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
        port = ntohs(a->sin6_port);
    }
    snprintf(c->peer, sizeof(c->peer), "%s:%u", host, port);
    v->c[v->nc++] = c;
    v->n.connections++;
    say(v, c, "connected");
}

// What a send or recv on a viewer's nonblocking socket came to, k its result: 1 go on (k bytes
// moved, added to *done, or a signal came first), 0 the socket would block, -1 the viewer went
// away (or its socket failed).
static int moved(ssize_t k, size_t *done)
{
    if (k < 0 && errno == EINTR)
        return 1;
    if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;
    if (k <= 0)
        return -1;
    *done += (size_t)k;
    return 1;
}

// Send what the reply still holds: 0, or -1 when the viewer went away.
static int flush_out(struct client *c)
{
    while (c->out_pos < c->out_len) {
        int go = moved(send(c->fd, c->out + c->out_pos, c->out_len - c->out_pos, MSG_NOSIGNAL),
                       &c->out_pos);
        if (go <= 0)
            return go;
    }
    return 0;
}

// Read c's next command whole: 1 when it is (in c->in), 0 when more must come, -1 when the
// viewer went away or sent what is no command.
static int read_command(struct lv_server *v, struct client *c)
{
    for (;;) {
        size_t want = CMD_HDR;
        if (c->in_len >= CMD_HDR) {
            uint64_t size = kev_get_be64(c->in);
            uint32_t cmd = kev_get_be32(c->in + 8);
            long need = payload_of(cmd);
            if (need < 0 || (uint64_t)need != size || (!c->connected && cmd != CMD_CONNECT)) {
                garbage(v, c, cmd, size);
                return -1;
            }
            want = CMD_HDR + (size_t)need;
        }
        if (c->in_len == want)
            return 1;
        int go = moved(recv(c->fd, c->in + c->in_len, want - c->in_len, 0), &c->in_len);
        if (go <= 0)
            return go;
    }
}

// Serve c's commands while its replies go out at once, a few a turn: -1 when it is to be
// closed. (A command read whole is served in the same turn: its bytes are no longer in the
// socket to wake the poll again.)
static int serve(struct lv_server *v, struct client *c)
{
    for (unsigned round = 0; round < COMMANDS_A_ROUND; round++) {
        if (flush_out(c) < 0)
            return -1;
        if (c->out_pos < c->out_len)
            return 0;           // its reply waits for room: nothing more read from it
        if (c->close_after || c->gone)
            return -1;
        int rc = read_command(v, c);
        if (rc <= 0)
            return rc;
        command(v, c, kev_get_be32(c->in + 8), c->in + CMD_HDR);
        c->in_len = 0;
        c->heard = now_s();
        if (c->attached)
            v->last_command = now_s();
    }
    return flush_out(c);
}

struct lv_server *lv_new(const char *tool, int fd, struct ls_session *s, int from_start,
                         int quiet)
{
    struct lv_server *v = calloc(1, sizeof(*v));
    if (!v)
        return NULL;
    snprintf(v->tool, sizeof(v->tool), "%s", tool);
    v->fd = fd;
    v->s = s;
    v->from_start = from_start;
    v->quiet = quiet;
    return v;
}

void lv_free(struct lv_server *v)
{
    if (!v)
        return;
    while (v->nc)
        client_close(v, v->nc - 1);
    free(v);
}

unsigned lv_fds(struct lv_server *v, struct pollfd *p, unsigned max)
{
    unsigned n = 0;
    if (n < max)
        p[n++] = (struct pollfd){ v->fd, POLLIN, 0 };
    for (unsigned i = 0; i < v->nc && n < max; i++) {
        struct client *c = v->c[i];
        p[n++] = (struct pollfd){ c->fd, c->out_pos < c->out_len ? POLLOUT : POLLIN, 0 };
    }
    return n;
}

void lv_handle(struct lv_server *v, const struct pollfd *p, unsigned n)
{
    for (unsigned k = 1; k < n; k++) {
        if (!p[k].revents)
            continue;
        for (unsigned i = 0; i < v->nc; i++)
            if (v->c[i]->fd == p[k].fd) {
                if (serve(v, v->c[i]) < 0)
                    client_close(v, i);
                break;
            }
    }
    if (n && (p[0].revents & POLLIN))
        do_accept(v);
}

void lv_expire(struct lv_server *v)
{
    double t = now_s();
    for (unsigned i = v->nc; i-- > 0;) {
        struct client *c = v->c[i];
        double quiet = t - c->heard;
        const char *why = !c->connected && quiet >= LV_HELLO_S ? "sent no CONNECT"
                          : quiet >= LV_SILENT_S ? (c->out_pos < c->out_len ? "left its reply "
                                                    "unread" : "sent no command") : NULL;
        if (!why)
            continue;
        v->n.expired++;
        fprintf(stderr, "%s: viewer %u (%s) closed: it %s for %.0f s (a viewer must speak within "
                "%.0f s of connecting, and then at least every %.0f s)\n", v->tool, c->no,
                c->peer, why, quiet, LV_HELLO_S, LV_SILENT_S);
        c->gone = 1;
        client_close(v, i);
    }
}

unsigned lv_attached(const struct lv_server *v)
{
    unsigned k = 0;
    for (unsigned i = 0; i < v->nc; i++)
        k += v->c[i]->attached;
    return k;
}

// c is not attached (it detached or went away), or was told the session is over a second ago
// (babeltrace2 asks for new streams once every stream it reads has ended, then detaches).
static int client_done(const struct client *c)
{
    return !c->attached || (c->new_streams_hup && now_s() - c->hup_at > DETACH_GRACE_S);
}

int lv_all_done(const struct lv_server *v)
{
    for (unsigned i = 0; i < v->nc; i++)
        if (!client_done(v->c[i]))
            return 0;
    return 1;
}

const struct lv_counts *lv_counts(const struct lv_server *v)
{
    return &v->n;
}

double lv_last_command(const struct lv_server *v)
{
    return v->last_command;
}
