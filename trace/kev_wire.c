// SPDX-License-Identifier: MIT
// The compact wire encoding of a buffer's slots (trace/kev_wire.h has the format): the
// tracelogger's encoder, on its stream's path for every event (so written for the board's
// few instructions a slot: a hash to the code, varints), and the host's decoder, which
// trusts nothing it reads: every length, code and value is checked before it is used.
#include <trace/kev_wire.h>

// ---- bytes ----------------------------------------------------------------------------------

static inline uint32_t zigzag(uint32_t x)
{
    return x << 1 ^ (uint32_t)((int32_t)x >> 31);
}

static inline uint32_t unzigzag(uint32_t z)
{
    return z >> 1 ^ (uint32_t)-(int32_t)(z & 1u);
}

static inline uint8_t *put_uv(uint8_t *p, uint32_t v)
{
    while (v >= 0x80u) {
        *p++ = (uint8_t)(v | 0x80u);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint8_t *put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    return p + 4;
}

static inline uint8_t *put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    return p + 2;
}

static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | get16(p + 2) << 16; }

// ---- the encoder ----------------------------------------------------------------------------

static inline unsigned hash(uint32_t key)
{
    return (key * 0x9e3779b1u) >> 24;
}

void kw_encoder_init(struct kw_encoder *e, uint8_t (*row_enc)(uint32_t header))
{
    uint8_t *z = (uint8_t *)e;
    for (size_t i = 0; i < sizeof(*e); i++)
        z[i] = 0;
    e->row_enc = row_enc;
}

// The entry of key (a header, its CPU bits 0): the map is open-addressed (a slot holds a code
// + 1, probed from the key's hash on; the dictionary fills at most half of it), so a header
// met before is found in a probe or two (its first on the common path, inline), and a new one
// gets the next code where its probe ended; NULL when the dictionary is full (KW_ENC_CODES).
static struct kw_code *code_slow(struct kw_encoder *e, uint32_t key, unsigned i)
{
    unsigned m;
    while ((m = e->map[i]) != 0) {
        if (e->code[m - 1u].hdr == key)
            return &e->code[m - 1u];
        i = (i + 1u) & 0xffu;
    }
    unsigned c = e->ncodes;
    if (c == KW_ENC_CODES)
        return NULL;
    uint8_t enc = e->row_enc ? e->row_enc(key) : KW_ENC(KW_E_DELTA, KW_E_DELTA);
    if ((enc & 0xfu) >= KW_E_COUNT || enc >> 4 >= KW_E_COUNT)
        enc = KW_RAW_ENC;
    struct kw_code *k = &e->code[c];
    k->hdr = key;
    k->enc = enc;
    k->stamp = 0;
    e->ncodes++;
    e->map[i] = (uint8_t)(c + 1u);
    return k;
}

// A uvarint's bytes past its first (v >= 0x80).
static uint8_t *put_uv_long(uint8_t *p, uint32_t v)
{
    do {
        *p++ = (uint8_t)(v | 0x80u);
        v >>= 7;
    } while (v >= 0x80u);
    *p++ = (uint8_t)v;
    return p;
}

#define PUT_UV(p, v)                                                                             \
    do {                                                                                         \
        uint32_t v_ = (v);                                                                       \
        if (v_ < 0x80u)                                                                          \
            *(p)++ = (uint8_t)v_;                                                                \
        else                                                                                     \
            (p) = put_uv_long((p), v_);                                                          \
    } while (0)

static inline uint8_t *put_word(uint8_t *p, unsigned enc, uint32_t w, uint32_t *prev, uint32_t t)
{
    switch (enc) {
    case KW_E_DELTA:
        PUT_UV(p, zigzag(w - *prev));
        *prev = w;
        return p;
    case KW_E_VAR:
        PUT_UV(p, w);
        return p;
    case KW_E_SVAR:
        PUT_UV(p, zigzag(w));
        return p;
    case KW_E_TDELTA:
        PUT_UV(p, zigzag(w - t));
        return p;
    default:
        return put32(p, w);
    }
}

// A slot no code holds (the dictionary full, another CPU's bits): its header as it is.
static uint8_t *put_raw(uint8_t *p, const struct kev_slot *x, uint32_t t)
{
    *p++ = KW_RAW;
    p = put32(p, x->header);
    p = put_uv(p, x->data[0] - t);
    p = put32(p, x->data[1]);
    return put32(p, x->data[2]);
}

// A code's definition inline (no KEY has carried it yet): KW_DEFINE, then the code, its
// header and encoding.
static uint8_t *put_define(uint8_t *p, const struct kw_encoder *e, const struct kw_code *k)
{
    *p++ = KW_DEFINE;
    *p++ = (uint8_t)(k - e->code);
    p = put32(p, k->hdr);
    *p++ = k->enc;
    return p;
}

unsigned kw_encode(struct kw_encoder *e, const struct kev_slot *s, unsigned first, unsigned n,
                   uint32_t bseq, uint8_t *out, size_t cap, size_t *len)
{
    if (++e->frame == 0)    // (0 is no frame: a stamp never used)
        e->frame = 1;
    const unsigned frame = e->frame;
    const uint32_t cpu_bits = n ? s[0].header & KW_CPU_BITS : 0;
    const uint32_t t0 = first ? s[first - 1].data[0] : 0;
    uint32_t t = t0, sum = 0;
    uint8_t *p = out + KW_HDR_BYTES;
    const uint8_t *end = out + cap - KW_SLOT_MAX;
    const struct kev_slot *x = s + first, *xe = s + n;
    for (; x != xe && p <= end; x++) {
        uint32_t h = x->header, d0 = x->data[0];
        sum += h + d0 + x->data[1] + x->data[2];
        uint32_t key = h & ~KW_CPU_BITS;
        unsigned i = hash(key), m = e->map[i];
        struct kw_code *k = m && e->code[m - 1u].hdr == key ? &e->code[m - 1u]
                                                           : code_slow(e, key, i);
        if (!k || (h & KW_CPU_BITS) != cpu_bits) {
            p = put_raw(p, x, t);
            t = d0;
            continue;
        }
        if (k->stamp != frame) {            // its first slot in this frame
            k->stamp = (uint16_t)frame;
            k->prev[0] = k->prev[1] = 0;
            if ((unsigned)(k - e->code) >= e->nkeyed)
                p = put_define(p, e, k);
            else
                *p++ = (uint8_t)(k - e->code);
        } else {
            *p++ = (uint8_t)(k - e->code);
        }
        PUT_UV(p, d0 - t);
        t = d0;
        unsigned enc = k->enc;
        p = put_word(p, enc & 0xfu, x->data[1], &k->prev[0], d0);
        p = put_word(p, enc >> 4, x->data[2], &k->prev[1], d0);
    }
    unsigned done = (unsigned)(x - (s + first));
    out[0] = (uint8_t)(cpu_bits >> KEV_CPU_SHIFT);
    out[1] = (uint8_t)((first == 0 ? KW_F_FIRST : 0u) | (x == xe ? KW_F_LAST : 0u));
    put16(out + 2, bseq);
    put16(out + 4, first);
    put16(out + 6, done);
    put32(out + 8, t0);
    put32(out + 12, sum);
    *len = (size_t)(p - out);
    return done;
}

size_t kw_key(const struct kw_encoder *e, unsigned *from, uint8_t *out, size_t cap)
{
    unsigned c = *from, k = 0;
    uint8_t *p = out + KW_KEY_HDR;
    for (; c < e->ncodes && (size_t)(p - out) + KW_KEY_ENTRY <= cap; c++, k++) {
        p = put32(p, e->code[c].hdr);
        *p++ = e->code[c].enc;
    }
    put16(out, *from);
    put16(out + 2, k);
    *from = c;
    return (size_t)(p - out);
}

// ---- the decoder ----------------------------------------------------------------------------

void kw_decoder_init(struct kw_decoder *d)
{
    uint8_t *z = (uint8_t *)d;
    for (size_t i = 0; i < sizeof(*d); i++)
        z[i] = 0;
}

// A definition of code c (from a KEY or inline): a code keeps its first meaning for the
// stream's life; another meaning is the encoder's of a new stream (a board reset whose header
// the reader missed), which then wins.
static enum kw_error define(struct kw_decoder *d, unsigned c, uint32_t hdr, uint8_t enc)
{
    if (c >= KW_CODES || (hdr & KW_CPU_BITS) || (enc & 0xfu) >= KW_E_COUNT ||
        enc >> 4 >= KW_E_COUNT)
        return KW_BAD;
    enum kw_error r = d->known[c] && (d->hdr[c] != hdr || d->enc[c] != enc) ? KW_BAD : KW_OK;
    d->hdr[c] = hdr;
    d->enc[c] = enc;
    d->known[c] = 1;
    return r;
}

enum kw_error kw_take_key(struct kw_decoder *d, const uint8_t *p, size_t n)
{
    if (n < KW_KEY_HDR)
        return KW_SHORT;
    unsigned from = get16(p), count = get16(p + 2);
    if (n < KW_KEY_HDR + (size_t)count * KW_KEY_ENTRY)
        return KW_SHORT;
    if (n > KW_KEY_HDR + (size_t)count * KW_KEY_ENTRY)
        return KW_LONG;
    if (from + count > KW_CODES)
        return KW_BAD;
    enum kw_error r = KW_OK;
    for (unsigned i = 0; i < count; i++) {
        const uint8_t *e = p + KW_KEY_HDR + i * KW_KEY_ENTRY;
        if (define(d, from + i, get32(e), e[4]) != KW_OK)
            r = KW_BAD;
    }
    d->keys += count;
    return r;
}

// A uvarint of at most 5 bytes from p[0..end): 0 and *v, or -1 (it runs past the end, or
// past 32 bits).
static int get_uv(const uint8_t **pp, const uint8_t *end, uint32_t *v)
{
    const uint8_t *p = *pp;
    uint32_t x = 0;
    for (unsigned shift = 0; shift < 35; shift += 7) {
        if (p == end)
            return -1;
        uint8_t b = *p++;
        if (shift == 28 && b > 0x0fu)
            return -1;
        x |= (uint32_t)(b & 0x7fu) << shift;
        if (!(b & 0x80u)) {
            *pp = p;
            *v = x;
            return 0;
        }
    }
    return -1;
}

static enum kw_error get_word(const uint8_t **pp, const uint8_t *end, unsigned enc,
                              uint32_t *prev, uint32_t t, uint32_t *w)
{
    uint32_t v;
    if (enc == KW_E_RAW) {
        if (end - *pp < 4)
            return KW_SHORT;
        *w = get32(*pp);
        *pp += 4;
        return KW_OK;
    }
    if (get_uv(pp, end, &v) < 0)
        return KW_SHORT;
    switch (enc) {
    case KW_E_DELTA:
        *w = *prev + unzigzag(v);
        *prev = *w;
        break;
    case KW_E_VAR:
        *w = v;
        break;
    case KW_E_SVAR:
        *w = unzigzag(v);
        break;
    default:    // KW_E_TDELTA (define() admits nothing else)
        *w = t + unzigzag(v);
        break;
    }
    return KW_OK;
}

enum kw_error kw_expand(struct kw_decoder *d, const uint8_t *p, size_t n, struct kw_frame *f,
                        struct kev_slot *out, unsigned max)
{
    if (n < KW_HDR_BYTES)
        return KW_SHORT;
    f->cpu = p[0];
    f->flags = p[1];
    f->bseq = get16(p + 2);
    f->first = get16(p + 4);
    f->nslots = get16(p + 6);
    f->t0 = get32(p + 8);
    f->sum = get32(p + 12);
    if (f->cpu > KEV_CPU_MASK || (f->flags & ~(KW_F_FIRST | KW_F_LAST)) ||
        (!!(f->flags & KW_F_FIRST) != (f->first == 0)))
        return KW_BAD;
    if (f->nslots > max || f->first + f->nslots > KEV_BUF_SLOTS + 1u)
        return KW_TOO_MANY;
    const uint8_t *q = p + KW_HDR_BYTES, *end = p + n;
    const uint32_t cpu_bits = (uint32_t)f->cpu << KEV_CPU_SHIFT;
    // this frame's previous values: a code's are valid once the frame used it
    uint32_t prev[KW_CODES][2];
    uint8_t used[KW_CODES];
    for (unsigned c = 0; c < KW_CODES; c++)
        used[c] = 0;
    uint32_t t = f->t0, sum = 0;
    for (unsigned i = 0; i < f->nslots; i++) {
        if (q == end)
            return KW_SHORT;
        unsigned c = *q++, enc;
        uint32_t h, scratch[2] = { 0, 0 }, *pv = scratch;
        if (c == KW_RAW) {
            if (end - q < 4)
                return KW_SHORT;
            h = get32(q);
            q += 4;
            enc = KW_RAW_ENC;
        } else {
            if (c == KW_DEFINE) {
                if (end - q < 6)
                    return KW_SHORT;
                c = q[0];
                if (define(d, c, get32(q + 1), q[5]) != KW_OK)
                    return KW_BAD;
                d->defines++;
                q += 6;
            } else if (c >= KW_CODES) {
                return KW_BAD;
            }
            if (!d->known[c])
                return KW_UNKNOWN;
            if (!used[c]) {
                used[c] = 1;
                prev[c][0] = prev[c][1] = 0;
            }
            h = d->hdr[c] | cpu_bits;
            enc = d->enc[c];
            pv = prev[c];
        }
        uint32_t dt, w1, w2;
        if (get_uv(&q, end, &dt) < 0)
            return KW_SHORT;
        t += dt;
        enum kw_error r = get_word(&q, end, enc & 0xfu, &pv[0], t, &w1);
        if (r == KW_OK)
            r = get_word(&q, end, enc >> 4, &pv[1], t, &w2);
        if (r != KW_OK)
            return r;
        out[i].header = h;
        out[i].data[0] = t;
        out[i].data[1] = w1;
        out[i].data[2] = w2;
        sum += h + t + w1 + w2;
    }
    if (q != end)
        return KW_LONG;
    return sum == f->sum ? KW_OK : KW_SUM;
}

const char *kw_error_text(enum kw_error e)
{
    switch (e) {
    case KW_OK: return "no error";
    case KW_SHORT: return "the payload ends inside a slot";
    case KW_LONG: return "bytes after its last slot";
    case KW_UNKNOWN: return "a code no KEY frame defined (lost, or the stream joined late)";
    case KW_BAD: return "a code or an encoding no encoder writes";
    case KW_SUM: return "its slots do not add up to its sum";
    case KW_TOO_MANY: return "more slots than a buffer holds";
    }
    return "?";
}
