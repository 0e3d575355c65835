// SPDX-License-Identifier: MIT
// libFuzzer target for the live reader (tools/common/kev_live.c) and the stream's framing
// (trace/kev_stream.c): any bytes, fed in pieces of sizes the input's first byte picks, must be
// decoded or said as faults, without crashing, reading out of bounds, looping or allocating
// without bound; and the reader keeps its promises: no event is given behind a time it gave,
// every fault comes with a sentence, a whole unit is never empty. Built with ASan + UBSan by
// `make fuzz`; seeds are kevgen traces, raw and framed (with a heartbeat and a LOSS frame).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kevhost/kev_live.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct watch {
    uint64_t given;
    int have;
    uint64_t faults, events, bytes;
};

static void w_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct watch *w = user;
    (void)r;
    uint32_t sum = 0;
    for (unsigned i = 0; i < e->nw; i++) // every payload word must be readable
        sum += e->w[i];
    (void)sum;
    if (w->have && e->t64 < w->given)
        abort();                         // an event behind a time already given
    w->events++;
}

static void w_time(void *user, struct kev_reader *r, uint64_t t)
{
    struct watch *w = user;
    (void)r;
    if (!w->have || t > w->given)
        w->given = t;
    w->have = 1;
}

static void w_unit(void *user, const uint8_t *p, size_t n, enum kev_live_unit kind)
{
    struct watch *w = user;
    (void)kind;
    if (!n)
        abort();
    w->bytes += n;
    (void)p[n - 1];
}

static void w_fault(void *user, enum kev_live_fault f, const char *what)
{
    struct watch *w = user;
    if (f >= KEV_LIVE_NFAULTS || !what[0] || strlen(what) >= 512)
        abort();
    w->faults++;
}

static void w_loss(void *user, struct kev_reader *r, const struct ks_loss *s)
{
    (void)user, (void)r;
    if (s->events > (uint64_t)s->buffers * KEV_BUF_SLOTS)
        abort();                         // a claim no buffer could hold was believed
}

static void w_begin(void *user, struct kev_reader *r, unsigned seg)
{
    struct watch *w = user;
    (void)r, (void)seg;
    w->have = 0;                         // a new segment: its own clock
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t piece = 1 + (size_t)data[0] * 37u;
    data++, size--;
    struct kev_live *l = kev_live_new("fuzz");
    if (!l)
        return 0;
    struct watch w = { 0 };
    const struct kev_live_consumer c = { .user = &w, .begin = w_begin, .unit = w_unit,
                                         .event = w_event, .time = w_time, .loss = w_loss,
                                         .fault = w_fault };
    kev_live_attach(l, &c);
    for (size_t off = 0; off < size && !kev_live_done(l); off += piece)
        kev_live_feed(l, data + off, size - off < piece ? size - off : piece);
    if (!kev_live_done(l))
        kev_live_finish(l);
    const struct kev_live_counts *k = kev_live_counts(l);
    if (k->events != w.events)
        abort();                         // counted as given
    kev_live_free(l);
    return 0;
}
