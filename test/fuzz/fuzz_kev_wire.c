// SPDX-License-Identifier: MIT
// libFuzzer target for the compact wire encoding (trace/kev_wire.c). The input's first byte
// picks what the rest is:
//   even: a stream (trace/kev_stream.h), its KEY and SLOTS frames given to the decoder as a
//         reader does: any bytes are expanded or refused, never a read or write out of bounds,
//         and an expansion never holds more slots than the frame said;
//   odd:  slots (16 bytes each, a buffer at most), encoded into frames of the size the second
//         byte picks and decoded again: they must come back exactly.
// Built with ASan + UBSan by `make fuzz`; seeds: kevwire's streams of kevgen traces, and the
// traces themselves as slots.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <trace/kev_stream.h>
#include <trace/kev_wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct kw_decoder dec;
static struct kev_slot out[KEV_BUF_SLOTS + 1];

static void on_wire(void *arg, unsigned type, const uint8_t *p, size_t n)
{
    (void)arg;
    if (type == KS_KEY) {
        kw_take_key(&dec, p, n);
        return;
    }
    struct kw_frame f;
    if (kw_expand(&dec, p, n, &f, out, KEV_BUF_SLOTS + 1) == KW_OK &&
        (f.nslots > KEV_BUF_SLOTS + 1 || f.first + f.nslots > KEV_BUF_SLOTS + 1))
        abort();
}

static void stream(const uint8_t *p, size_t n)
{
    static struct ks_decoder ks;
    ks_decoder_init(&ks);
    kw_decoder_init(&dec);
    ks.on_wire = on_wire;
    ks_decode(&ks, p, n);
    ks_decoder_finish(&ks);
}

static uint8_t any_enc(uint32_t header)
{
    return (uint8_t)((header * 2654435761u) >> 24);   // (any byte: bad ones go raw)
}

static void roundtrip(uint8_t pick, const uint8_t *p, size_t n)
{
    static struct kev_slot in[KEV_BUF_SLOTS + 1];
    static struct kw_encoder e;
    static uint8_t pl[KS_MAX_PAYLOAD];
    unsigned ns = (unsigned)(n / KEV_SLOT_BYTES);
    if (ns > KEV_BUF_SLOTS + 1)
        ns = KEV_BUF_SLOTS + 1;
    memcpy(in, p, ns * KEV_SLOT_BYTES);
    kw_encoder_init(&e, pick & 1 ? any_enc : kev_wire_row_enc);
    kw_decoder_init(&dec);
    size_t cap = KW_HDR_BYTES + KW_SLOT_MAX + (size_t)pick * 4u;
    if (cap > sizeof(pl))
        cap = sizeof(pl);
    for (unsigned first = 0; first < ns;) {
        size_t len;
        unsigned k = kw_encode(&e, in, first, ns, pick, pl, cap, &len);
        struct kw_frame f;
        if (!k || len > cap || kw_expand(&dec, pl, len, &f, out, KEV_BUF_SLOTS + 1) != KW_OK ||
            f.nslots != k || memcmp(out, in + first, k * KEV_SLOT_BYTES))
            abort();
        first += k;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    if (data[0] & 1)
        roundtrip(data[1], data + 2, size - 2);
    else
        stream(data + 1, size - 1);
    return 0;
}
