// SPDX-License-Identifier: MIT
// kevlive's session store (live_store.h): traces, their streams and packets, bounded.
// Invariants: a stream's held packets are consecutive in number and offset (pk[head] is number
// next_no - n); s->bytes is the sum of the held packets' lengths; a packet is freed when its
// last reference goes (the store's, and each viewer's reading it).
#include "live_store.h"

#include <stdlib.h>
#include <string.h>
#include <trace/kev_bytes.h>

void ls_init(struct ls_session *s, const char *name, uint64_t cap)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->cap = cap;
    s->next_id = 1;
}

struct ls_packet *ls_ref(struct ls_packet *p)
{
    p->refs++;
    return p;
}

void ls_unref(struct ls_packet *p)
{
    if (p && --p->refs == 0)
        free(p);
}

static void drop_oldest_of(struct ls_session *s, struct ls_stream *st)
{
    struct ls_packet *p = st->pk[st->head];
    s->bytes -= p->len;
    s->dropped_packets++;
    ls_unref(p);
    st->head++;
    if (--st->n == 0)
        st->head = 0;
}

static void trace_free(struct ls_session *s, struct ls_trace *t)
{
    for (unsigned c = 0; c < t->nstreams; c++) {
        struct ls_stream *st = &t->st[c];
        while (st->n)
            drop_oldest_of(s, st);
        free(st->pk);
    }
    free(t->st);
    free(t->meta);
    free(t);
}

void ls_free(struct ls_session *s)
{
    for (unsigned i = 0; i < s->ntr; i++)
        trace_free(s, s->tr[i]);
    s->ntr = 0;
}

struct ls_trace *ls_trace_begin(struct ls_session *s, unsigned seg, const char *meta,
                                size_t meta_len, unsigned ncpu, uint64_t freq)
{
    struct ls_trace *t = calloc(1, sizeof(*t));
    if (!t || !(t->st = calloc(ncpu ? ncpu : 1, sizeof(*t->st))) ||
        !(t->meta = malloc(meta_len))) {
        if (t)
            free(t->st);
        free(t);
        return NULL;
    }
    memcpy(t->meta, meta, meta_len);
    t->meta_len = meta_len;
    t->seg = seg;
    t->nstreams = ncpu;
    t->ns_cycles = freq > 1000000000u ? (freq + 999999999u) / 1000000000u : 1;
    t->id = s->next_id++;
    t->meta_id = s->next_id++;
    for (unsigned c = 0; c < ncpu; c++) {
        t->st[c].id = s->next_id++;
        t->st[c].cpu = c;
    }
    if (s->ntr == LS_MAX_TRACES) {
        trace_free(s, s->tr[0]);
        memmove(s->tr, s->tr + 1, (LS_MAX_TRACES - 1) * sizeof(s->tr[0]));
        s->ntr--;
    }
    s->tr[s->ntr++] = t;
    return t;
}

// Keep the store under its cap: the packet that arrived first goes, of whichever stream.
static void make_room(struct ls_session *s)
{
    while (s->bytes > s->cap) {
        struct ls_stream *old = NULL;
        for (unsigned i = 0; i < s->ntr; i++)
            for (unsigned c = 0; c < s->tr[i]->nstreams; c++) {
                struct ls_stream *st = &s->tr[i]->st[c];
                if (st->n && (!old || st->pk[st->head]->arrival < old->pk[old->head]->arrival))
                    old = st;
            }
        if (!old)
            return;
        drop_oldest_of(s, old);
    }
}

int ls_add_packet(struct ls_session *s, struct ls_trace *t, const struct ctf_packet *pk)
{
    if (pk->cpu >= t->nstreams || pk->n < CTF_PACKET_HDR || pk->n > UINT32_MAX)
        return 0; // (a CPU the header did not name: the encoder's streams are the header's)
    struct ls_stream *st = &t->st[pk->cpu];
    if (st->head + st->n == st->cap) {
        if (st->head) {
            memmove(st->pk, st->pk + st->head, st->n * sizeof(*st->pk));
            st->head = 0;
        } else {
            size_t cap = st->cap ? 2 * st->cap : 64;
            struct ls_packet **v = realloc(st->pk, cap * sizeof(*v));
            if (!v)
                return -1;
            st->pk = v;
            st->cap = cap;
        }
    }
    struct ls_packet *p = malloc(sizeof(*p) + pk->n);
    if (!p)
        return -1;
    memcpy(p->data, pk->p, pk->n);
    p->refs = 1;
    p->no = st->next_no++;
    p->off = st->next_off;
    p->len = (uint32_t)pk->n;
    p->begin = pk->begin;
    if (p->begin < st->quiet) { // a beacon promised nothing before quiet: the packet starts there
        p->begin = st->quiet;
        kev_put_le64(p->data + CTF_OFF_TS_BEGIN, p->begin);
    }
    p->end = pk->end > p->begin ? pk->end : p->begin;
    if (p->end != pk->end)
        kev_put_le64(p->data + CTF_OFF_TS_END, p->end);
    p->discarded = pk->discarded;
    p->seq = pk->seq;
    p->events = pk->events;
    p->events_before = st->events;
    p->arrival = s->arrivals++;
    st->next_off += pk->n;
    st->events += pk->events;
    st->end = p->end;
    if (st->quiet < p->end)
        st->quiet = p->end;
    st->pk[st->head + st->n++] = p;
    s->bytes += p->len;
    make_room(s);
    return 0;
}

void ls_quiet(struct ls_trace *t, unsigned cpu, uint64_t q)
{
    if (cpu < t->nstreams && q > t->st[cpu].quiet)
        t->st[cpu].quiet = q;
}

void ls_trace_end(struct ls_trace *t)
{
    t->ended = 1;
}

struct ls_stream *ls_stream_of(const struct ls_session *s, uint64_t id, struct ls_trace **tp)
{
    for (unsigned i = 0; i < s->ntr; i++) {
        struct ls_trace *t = s->tr[i];
        if (id > t->meta_id && id <= t->meta_id + t->nstreams) {
            if (tp)
                *tp = t;
            return &t->st[id - t->meta_id - 1];
        }
    }
    return NULL;
}

struct ls_trace *ls_trace_of_meta(const struct ls_session *s, uint64_t id)
{
    for (unsigned i = 0; i < s->ntr; i++)
        if (s->tr[i]->meta_id == id)
            return s->tr[i];
    return NULL;
}

struct ls_packet *ls_packet_from(const struct ls_stream *st, uint64_t no)
{
    if (!st->n)
        return NULL;
    uint64_t first = st->pk[st->head]->no;
    if (no < first)
        no = first;
    if (no - first >= st->n)
        return NULL;
    return st->pk[st->head + (size_t)(no - first)];
}

struct ls_packet *ls_packet_at(const struct ls_stream *st, uint64_t off)
{
    size_t lo = 0, hi = st->n;
    while (lo < hi) { // the last packet starting at or before off
        size_t mid = lo + (hi - lo) / 2;
        if (st->pk[st->head + mid]->off <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    struct ls_packet *p = st->pk[st->head + lo - 1];
    return off < p->off + p->len ? p : NULL;
}
