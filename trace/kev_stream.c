// SPDX-License-Identifier: MIT
// Stream framing for .kev files (see kev_stream.h). The decoder holds at most one frame; on a
// bad frame it drops one byte and looks for the next magic, so a damaged stretch costs only
// the frames it touches, each of them reported.
#include <trace/kev_stream.h>
#include <trace/kev_bytes.h>
#include <stddef.h>

// The HEARTBEAT, LOSS and READER payloads are their struct's members in order (kev_stream.h
// draws each): n64 u64 words, then n32 u32 words, little-endian. The structs hold them so,
// unpadded (READER's last word, 0, is its payload's alone).
_Static_assert(offsetof(struct ks_heartbeat, interval_ms) == 16 &&
               sizeof(struct ks_heartbeat) == KS_HEARTBEAT_BYTES, "HEARTBEAT: 2 u64, 2 u32");
_Static_assert(offsetof(struct ks_loss, cpu) == 40 && sizeof(struct ks_loss) == KS_LOSS_BYTES,
               "LOSS: 5 u64, 4 u32");
_Static_assert(offsetof(struct ks_reader, behind) == 24, "READER: 3 u64, a u32, a pad u32");

static void put_words(uint8_t *p, const void *s, unsigned n64, unsigned n32)
{
    const uint64_t *w64 = s;
    const uint32_t *w32 = (const uint32_t *)(w64 + n64);
    for (unsigned i = 0; i < n64; i++)
        kev_put_le64(p + 8u * i, w64[i]);
    for (unsigned i = 0; i < n32; i++)
        kev_put_le32(p + 8u * n64 + 4u * i, w32[i]);
}

static int get_words(const uint8_t *p, size_t len, void *s, unsigned n64, unsigned n32)
{
    uint64_t *w64 = s;
    uint32_t *w32 = (uint32_t *)(w64 + n64);
    if (len < 8u * n64 + 4u * n32)
        return -1;
    for (unsigned i = 0; i < n64; i++)
        w64[i] = kev_get_le64(p + 8u * i);
    for (unsigned i = 0; i < n32; i++)
        w32[i] = kev_get_le32(p + 8u * n64 + 4u * i);
    return 0;
}

void ks_heartbeat_put(uint8_t *p, const struct ks_heartbeat *h) { put_words(p, h, 2, 2); }
int ks_heartbeat_get(const uint8_t *p, size_t len, struct ks_heartbeat *h)
{
    return get_words(p, len, h, 2, 2);
}
void ks_loss_put(uint8_t *p, const struct ks_loss *l) { put_words(p, l, 5, 4); }
int ks_loss_get(const uint8_t *p, size_t len, struct ks_loss *l)
{
    return get_words(p, len, l, 5, 4);
}
void ks_reader_put(uint8_t *p, const struct ks_reader *r)
{
    put_words(p, r, 3, 1);
    kev_put_le32(p + 28, 0);    // pad
}
int ks_reader_get(const uint8_t *p, size_t len, struct ks_reader *r)
{
    return len < KS_READER_BYTES ? -1 : get_words(p, len, r, 3, 1);
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
    kev_put_le16(out + 4, seq);
    kev_put_le16(out + 6, (uint32_t)len);
    for (size_t i = 0; i < len; i++)
        out[KS_HDR_BYTES + i] = src[i];
    kev_put_le32(out + KS_HDR_BYTES + len, ks_crc32(0, out + 2, KS_HDR_BYTES - 2 + len));
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
    uint32_t seq = kev_get_le16(f + 4);
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
        d->end_len = kev_get_le32(f + KS_HDR_BYTES);
        d->end_crc = kev_get_le32(f + KS_HDR_BYTES + 4);
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
    size_t len = kev_get_le16(f + 6), total = KS_HDR_BYTES + len + KS_CRC_BYTES;
    if (len > KS_MAX_PAYLOAD || type < KS_DATA || type > KS_TYPE_MAX || n < total)
        return 0;
    uint32_t crc = crc_of(d, 0, f + 2, KS_HDR_BYTES - 2 + len);
    return kev_get_le32(f + KS_HDR_BYTES + len) == crc ? total : 0;
}

// The bytes the buffer must hold for the next step: a header, then its whole frame; what
// starts with no magic, as much as the buffer holds (junk is skipped a stretch at a time).
static size_t want(const struct ks_decoder *d)
{
    if (d->have >= 2 && (d->buf[0] != KS_MAGIC0 || d->buf[1] != KS_MAGIC1))
        return sizeof(d->buf);
    if (d->have < KS_HDR_BYTES)
        return KS_HDR_BYTES;
    size_t len = kev_get_le16(d->buf + 6);
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
        size_t len = kev_get_le16(d->buf + 6);
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
        uint32_t crc = kev_get_le32(d->buf + KS_HDR_BYTES + len);
        if (crc != crc_of(d, 0, d->buf + 2, KS_HDR_BYTES - 2 + len)) {
            problem(d, KS_P_CRC, (uint32_t)kev_get_le16(d->buf + 4));
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
