// SPDX-License-Identifier: MIT
// Stream framing for .kev files (see kev_stream.h). The decoder holds at most one frame; on a
// bad frame it drops one byte and looks for the next magic, so a damaged stretch costs only
// the frames it touches, each of them reported.
#include <trace/kev_stream.h>

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

void ks_heartbeat_put(uint8_t *p, const struct ks_heartbeat *h)
{
    put64(p, h->time);
    put64(p + 8, h->offset);
    put32(p + 16, h->interval_ms);
    put32(p + 20, h->buffers);
}

void ks_reader_put(uint8_t *p, const struct ks_reader *r)
{
    put64(p, r->board_time);
    put64(p + 8, r->written_time);
    put64(p + 16, r->dropped);
    put32(p + 24, r->behind);
    put32(p + 28, 0);
}

int ks_reader_get(const uint8_t *p, size_t len, struct ks_reader *r)
{
    if (len < KS_READER_BYTES)
        return -1;
    r->board_time = get64(p);
    r->written_time = get64(p + 8);
    r->dropped = get64(p + 16);
    r->behind = get32(p + 24);
    return 0;
}

int ks_heartbeat_get(const uint8_t *p, size_t len, struct ks_heartbeat *h)
{
    if (len < KS_HEARTBEAT_BYTES)
        return -1;
    h->time = get64(p);
    h->offset = get64(p + 8);
    h->interval_ms = get32(p + 16);
    h->buffers = get32(p + 20);
    return 0;
}

void ks_loss_put(uint8_t *p, const struct ks_loss *l)
{
    put64(p, l->t_first);
    put64(p + 8, l->t_last);
    put64(p + 16, l->offset);
    put64(p + 24, l->events);
    put64(p + 32, l->total);
    put32(p + 40, l->cpu);
    put32(p + 44, l->reason);
    put32(p + 48, l->buffers);
    put32(p + 52, l->first_seq);
}

int ks_loss_get(const uint8_t *p, size_t len, struct ks_loss *l)
{
    if (len < KS_LOSS_BYTES)
        return -1;
    l->t_first = get64(p);
    l->t_last = get64(p + 8);
    l->offset = get64(p + 16);
    l->events = get64(p + 24);
    l->total = get64(p + 32);
    l->cpu = get32(p + 40);
    l->reason = get32(p + 44);
    l->buffers = get32(p + 48);
    l->first_seq = get32(p + 52);
    return 0;
}

size_t ks_frame(uint8_t *out, unsigned type, uint16_t seq, const void *payload, size_t len)
{
    return ks_frame_flags(out, type, 0, seq, payload, len);
}

size_t ks_frame_flags(uint8_t *out, unsigned type, unsigned flags, uint16_t seq,
                      const void *payload, size_t len)
{
    const uint8_t *src = payload;
    if (len > KS_MAX_PAYLOAD)
        len = KS_MAX_PAYLOAD;
    out[0] = KS_MAGIC0;
    out[1] = KS_MAGIC1;
    out[2] = (uint8_t)type;
    out[3] = (uint8_t)flags;
    put16(out + 4, seq);
    put16(out + 6, (uint32_t)len);
    for (size_t i = 0; i < len; i++)
        out[KS_HDR_BYTES + i] = src[i];
    put32(out + KS_HDR_BYTES + len, ks_crc32(0, out + 2, KS_HDR_BYTES - 2 + len));
    return KS_HDR_BYTES + len + KS_CRC_BYTES;
}

void ks_decoder_init(struct ks_decoder *d)
{
    uint8_t *z = (uint8_t *)d;
    for (size_t i = 0; i < sizeof(*d); i++)
        z[i] = 0;
}

static uint32_t crc_of(const struct ks_decoder *d, uint32_t crc, const uint8_t *p, size_t n)
{
    return d->crc ? d->crc(crc, p, n) : ks_crc32(crc, p, n);
}

static void problem(struct ks_decoder *d, enum ks_problem what, uint32_t detail)
{
    d->problems++;
    if (d->on_problem)
        d->on_problem(d->arg, what, d->offset, detail);
}

// Drops n bytes from the front of the buffer.
static void consume(struct ks_decoder *d, size_t n)
{
    for (size_t i = n; i < d->have; i++)
        d->buf[i - n] = d->buf[i];
    d->have -= n;
    d->offset += n;
}

// Skips to the next possible magic; counts what it skipped as junk (one report per stretch).
static void resync(struct ks_decoder *d, int report)
{
    size_t i = 1;
    while (i < d->have && !(d->buf[i] == KS_MAGIC0 && (i + 1 == d->have || d->buf[i + 1] == KS_MAGIC1)))
        i++;
    if (report)
        problem(d, KS_P_JUNK, (uint32_t)i);
    d->junk_bytes += i;
    consume(d, i);
}

// A HEARTBEAT, LOSS or READER frame: counted and handed on; never file bytes.
static void stream_fact(struct ks_decoder *d, unsigned type, const uint8_t *p, size_t len)
{
    struct ks_heartbeat h;
    struct ks_loss l;
    struct ks_reader rd;
    if (type == KS_HEARTBEAT && ks_heartbeat_get(p, len, &h) == 0) {
        d->heartbeats++;
        if (d->on_heartbeat)
            d->on_heartbeat(d->arg, &h);
    } else if (type == KS_LOSS && ks_loss_get(p, len, &l) == 0) {
        d->loss_frames++;
        d->lost_events += l.events;
        if (d->on_loss)
            d->on_loss(d->arg, &l);
    } else if (type == KS_READER && ks_reader_get(p, len, &rd) == 0) {
        if (d->on_reader)
            d->on_reader(d->arg, &rd);
    } else {
        problem(d, KS_P_BADLEN, (uint32_t)len);
    }
}

static void frame_done(struct ks_decoder *d, const uint8_t *f, size_t len)
{
    unsigned type = f[2];
    uint32_t seq = get16(f + 4);
    if (d->started && seq != (d->next_seq & 0xffffu))
        problem(d, KS_P_GAP, (seq - d->next_seq) & 0xffffu);
    d->started = 1;
    d->next_seq = seq + 1;
    d->frames++;
    d->frame = f;
    if (type == KS_DATA) {
        d->data_bytes += len;
        d->file_crc = crc_of(d, d->file_crc, f + KS_HDR_BYTES, len);
        if (d->on_data)
            d->on_data(d->arg, f + KS_HDR_BYTES, len);
    } else if (type == KS_HEARTBEAT || type == KS_LOSS || type == KS_READER) {
        stream_fact(d, type, f + KS_HDR_BYTES, len);
    } else if (type == KS_KEY || type == KS_SLOTS || type == KS_REF) {
        d->wire_frames++;
        if (d->on_wire)
            d->on_wire(d->arg, type, f + KS_HDR_BYTES, len);
    } else if (len == 8) {
        d->ended = 1;
        d->end_seq = seq;
        d->end_flags = f[3];
        d->end_len = get32(f + KS_HDR_BYTES);
        d->end_crc = get32(f + KS_HDR_BYTES + 4);
    } else {
        problem(d, KS_P_BADLEN, (uint32_t)len);
    }
}

// The frame at f[0..n) when it is whole and sound: its length; else 0.
static size_t whole_frame(const struct ks_decoder *d, const uint8_t *f, size_t n)
{
    if (n < KS_HDR_BYTES || f[0] != KS_MAGIC0 || f[1] != KS_MAGIC1)
        return 0;
    unsigned type = f[2];
    size_t len = get16(f + 6), total = KS_HDR_BYTES + len + KS_CRC_BYTES;
    if (len > KS_MAX_PAYLOAD || type < KS_DATA || type > KS_TYPE_MAX || n < total)
        return 0;
    return get32(f + KS_HDR_BYTES + len) == crc_of(d, 0, f + 2, KS_HDR_BYTES - 2 + len) ? total
                                                                                        : 0;
}

// The bytes the buffer must hold for the next step: a header, then its whole frame; what
// starts with no magic, as much as the buffer holds (junk is skipped a stretch at a time).
static size_t want(const struct ks_decoder *d)
{
    if (d->have >= 2 && (d->buf[0] != KS_MAGIC0 || d->buf[1] != KS_MAGIC1))
        return sizeof(d->buf);
    if (d->have < KS_HDR_BYTES)
        return KS_HDR_BYTES;
    size_t len = get16(d->buf + 6);
    return len > KS_MAX_PAYLOAD ? KS_HDR_BYTES : KS_HDR_BYTES + len + KS_CRC_BYTES;
}

// Whole sound frames are handed on straight from the input while the buffer is empty (no
// copy: a stream read in large pieces is decoded in place); the rest goes through the buffer,
// which holds no more than the step in hand needs, so that it empties at each frame's end.
void ks_decode(struct ks_decoder *d, const uint8_t *p, size_t n)
{
    for (;;) {
        size_t total;
        while (!d->have && (total = whole_frame(d, p, n)) != 0) {
            frame_done(d, p, total - KS_HDR_BYTES - KS_CRC_BYTES);
            d->offset += total;
            p += total;
            n -= total;
        }
        size_t w = want(d);
        while (n && d->have < w) {
            d->buf[d->have++] = *p++;
            n--;
        }
        if (d->have < 2)
            return;
        if (d->buf[0] != KS_MAGIC0 || d->buf[1] != KS_MAGIC1) {
            resync(d, 1);
            continue;
        }
        if (d->have < KS_HDR_BYTES)
            return;
        unsigned type = d->buf[2];
        size_t len = get16(d->buf + 6);
        if (len > KS_MAX_PAYLOAD || type < KS_DATA || type > KS_TYPE_MAX) {
            problem(d, KS_P_BADLEN, (uint32_t)len);
            resync(d, 0);
            continue;
        }
        total = KS_HDR_BYTES + len + KS_CRC_BYTES;
        if (d->have < total) {
            if (!n)
                return;
            continue;       // (its header known: the rest of the frame next)
        }
        uint32_t crc = get32(d->buf + KS_HDR_BYTES + len);
        if (crc != crc_of(d, 0, d->buf + 2, KS_HDR_BYTES - 2 + len)) {
            problem(d, KS_P_CRC, (uint32_t)get16(d->buf + 4));
            resync(d, 0);
            continue;
        }
        frame_done(d, d->buf, len);
        consume(d, total);
    }
}

int ks_decoder_finish(struct ks_decoder *d)
{
    if (d->have) {
        problem(d, KS_P_JUNK, (uint32_t)d->have);
        d->junk_bytes += d->have;
        d->have = 0;
    }
    if (!d->ended || d->problems || d->wire_frames)
        return 1;
    return d->end_len != (uint32_t)d->data_bytes || d->end_crc != d->file_crc;
}
