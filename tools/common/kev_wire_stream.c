// SPDX-License-Identifier: MIT
// A .kev file as the tracelogger's compact stream (kev_wire_stream.h): the logger's own
// sequence (tracelogger/stream.c) with the same encoder, over the file's units.
#include <kevhost/kev_wire_stream.h>

#include <string.h>
#include <trace/kev_decode.h>
#include <trace/kev_stream.h>
#include <trace/kev_wire.h>

struct out {
    kev_wire_put put;
    void *user;
    uint16_t seq;
    uint8_t f[KS_MAX_FRAME];
};

static void frame(struct out *o, unsigned type, unsigned flags, const void *p, size_t n,
                  size_t a, size_t z)
{
    size_t k = ks_frame_flags(o->f, type, flags, o->seq++, p, n);
    o->put(o->user, o->f, k, type, a, z);
}

static void data(struct out *o, const uint8_t *p, size_t n)
{
    for (size_t off = 0; off < n; off += KS_MAX_PAYLOAD)
        frame(o, KS_DATA, 0, p + off, n - off < KS_MAX_PAYLOAD ? n - off : KS_MAX_PAYLOAD, 0, 0);
}

static int is_ctl(uint32_t h, unsigned ev)
{
    return kev_hdr_class(h) == KEV_C_CONTROL && kev_hdr_type(h) == KEV_TYPE_S &&
           kev_hdr_event(h) == ev;
}

int kev_wire_stream(const uint8_t *p, size_t len, kev_wire_put put, void *user,
                    const char **why)
{
    static struct kev_reader rd;
    static struct kw_encoder e;
    static struct kev_slot s[KEV_BUF_SLOTS + 1u];
    static struct out o;
    uint8_t pl[KS_MAX_PAYLOAD];
    if (kev_open(&rd, p, len) != 0) {
        *why = kev_error(&rd);
        return -1;
    }
    if (rd.kr_big) {
        *why = "a big-endian file: the compact encoding is of a little-endian board's words";
        return -1;
    }
    o.put = put;
    o.user = user;
    o.seq = 0;
    kw_encoder_init(&e, kev_wire_row_enc);
    data(&o, p, rd.kr_ev_off);
    size_t off = rd.kr_ev_off;
    unsigned key_due = 0;
    while (off + KEV_SLOT_BYTES <= len) {
        uint32_t h;
        memcpy(&h, p + off, 4);
        if (!is_ctl(h, KEV_CTL_BUFFER))
            break;
        size_t start = off;
        unsigned n = 0;
        int end = 0;
        while (!end && n <= KEV_BUF_SLOTS && off + KEV_SLOT_BYTES <= len) {
            memcpy(&s[n], p + off, KEV_SLOT_BYTES);
            end = n > 0 && is_ctl(s[n].header, KEV_CTL_BUFFER_END);
            off += KEV_SLOT_BYTES;
            n++;
        }
        if (!end) {             // (a buffer cut short: the rest as the file has it)
            off = start;
            break;
        }
        unsigned from = key_due ? e.nkeyed : 0;
        key_due = key_due ? key_due - 1u : KW_KEY_EVERY - 1u;
        while (from < e.ncodes)
            frame(&o, KS_KEY, 0, pl, kw_key(&e, &from, pl, sizeof(pl)), 0, 0);
        e.nkeyed = e.ncodes;
        for (unsigned first = 0; first < n;) {
            size_t k;
            first += kw_encode(&e, s, first, n, s[0].data[1], pl, sizeof(pl), &k);
            frame(&o, KS_SLOTS, 0, pl, k, start, off);
        }
    }
    data(&o, p + off, len - off);
    uint8_t fin[8] = { 0 };
    for (int i = 0; i < 4; i++)
        fin[i] = (uint8_t)(len >> (8 * i));
    frame(&o, KS_END, KS_END_LEN_ONLY, fin, sizeof(fin), 0, 0);
    return 0;
}
