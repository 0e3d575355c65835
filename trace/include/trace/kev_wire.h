// SPDX-License-Identifier: MIT
// The compact wire encoding of a kernel buffer's slots: what the tracelogger sends on its
// stream (kev_stream.h's KEY and SLOTS frames) instead of the buffer's 16-byte slots, about a
// third of the bytes, and what the host expands back into the exact slots (tools/common,
// kev_live.c). The file, the ring and every reader keep QNX's 16-byte slots: only the wire is
// small. docs/tracelogger.md ("The compact stream") is the reference with the figures.
//
// The dictionary. Each distinct slot header (type, class, event; the CPU bits 0) the encoder
// meets gets a code, 0 .. KW_CODES - 1, in the order met, for the stream's life (codes are
// never reused: a reader's dictionary only grows, and an older one is a prefix of a newer).
// With each code goes its encoding, one byte: how the slot's data[1] (low nibble) and data[2]
// (high nibble) are written, KW_E_* below, from the event table's row for the header: each
// word takes the encoding of the kind of the first field it holds (kev_wire_row_enc in
// trace/kev_wire_rows.c; the board's copy is generated from it, tools/emitgen). A code's
// encoding travels with it, so a reader never looks an event up to learn its encoding.
// KEY frames carry the dictionary: before a buffer, the codes met since the last KEY; every
// KW_KEY_EVERY buffers the whole of it, so that a reader that joined late or lost a KEY frame
// rebuilds it. A SLOTS frame that uses a code met after the last KEY defines it inline first
// (KW_DEFINE), so a frame needs nothing but the last whole KEY and itself.
//   KEY payload  = first u16 | count u16 | count x (header u32 | enc u8): codes first ..
//
// A SLOTS frame holds consecutive slots of one buffer (a buffer spans several), and decodes
// alone given the dictionary: its previous values start at 0 and its time at t0.
//   SLOTS payload = cpu u8 | flags u8 | bseq u16 | first u16 | nslots u16 | t0 u32 | sum u32
//                   | nslots encoded slots
//   flags: KW_F_FIRST (its first slot is the buffer's first, BUFFER), KW_F_LAST (its last is
//   the buffer's last, BUFFER_END); bseq: the low 16 bits of the buffer's sequence number;
//   first: the index of its first slot in the buffer; t0: the data[0] of the slot before it (0
//   in a buffer's first frame); sum: the 32-bit sum of every word of its slots (header,
//   data[0..2]), the check of the expansion (the frame's CRC checks the bytes).
//   A slot: a byte, then
//     c < KW_CODES  the dictionary's code c: header = its header | cpu << 24
//     KW_DEFINE     code u8 | header u32 | enc u8: defines code (in the dictionary from here
//                   on), then this slot is written with it
//     KW_RAW        header u32, then as a code's slot with enc KW_RAW_ENC (any header: one the
//                   dictionary has no room for, or with bits no code holds)
//   then: dt uvarint: data[0] - the previous slot's data[0] (mod 2^32; the first: - t0);
//   data[1], data[2], each by its nibble of enc:
//     KW_E_DELTA   zigzag(w - the previous value of this word for this code in the frame)
//     KW_E_VAR     w
//     KW_E_SVAR    zigzag(w) (a signed value: -1 is 1)
//     KW_E_TDELTA  zigzag(w - data[0]) (a time: TIME's low word is data[0], a 0)
//     KW_E_RAW     4 bytes
//   uvarint: 7 bits a byte, low first, the top bit set on every byte but the last (at most 5);
//   zigzag(x) = x << 1 ^ (x >> 31, arithmetic): small of either sign stay small. Integers in
//   the frames' fixed fields are little-endian, as the rest of the stream's.
// Freestanding (no libc): the tracelogger encodes, the host tools decode.
#ifndef TRACE_KEV_WIRE_H
#define TRACE_KEV_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev.h>

#define KW_CODES 240u
// The encoder's dictionary holds this many (a header past them goes KW_RAW): its state is then
// 2.2 KB, which fits the logger's RAM beside its RTT ring (the demo meets about 100 headers).
#ifndef KW_ENC_CODES
#define KW_ENC_CODES 128u
#endif
#if KW_ENC_CODES > 128u || KW_ENC_CODES > KW_CODES
#error "the encoder's map keeps its dictionary at most half full"
#endif
#define KW_DEFINE 0xf0u
#define KW_RAW 0xf1u
#define KW_E_DELTA 0u
#define KW_E_VAR 1u
#define KW_E_SVAR 2u
#define KW_E_TDELTA 3u
#define KW_E_RAW 4u
#define KW_E_COUNT 5u
#define KW_ENC(w1, w2) ((uint8_t)((w1) | (w2) << 4))
#define KW_RAW_ENC KW_ENC(KW_E_RAW, KW_E_RAW)
#define KW_F_FIRST 1u
#define KW_F_LAST 2u
#define KW_HDR_BYTES 16u            // a SLOTS frame's fixed fields
#define KW_SLOT_MAX 23u             // the most bytes one slot takes (a DEFINE, words of 5)
#define KW_KEY_ENTRY 5u
#define KW_KEY_HDR 4u
#define KW_KEY_EVERY 8u             // buffers between whole KEYs
#define KW_CPU_BITS (KEV_CPU_MASK << KEV_CPU_SHIFT)

// ---- the encoder (the tracelogger) ------------------------------------------------------------
// row_enc gives a header's encoding from the event table (its CPU bits 0).
struct kw_code {
    uint32_t hdr;                   // its header (CPU bits 0)
    uint32_t prev[2];               // this frame's previous values (valid while stamp == frame)
    uint16_t stamp;                 // the frame that last used the code
    uint8_t enc;
    uint8_t pad;
};

struct kw_encoder {
    struct kw_code code[KW_ENC_CODES];
    uint8_t map[256];               // a header's hash, probed on -> code + 1 (0: none)
    unsigned ncodes, nkeyed;        // codes met; those the last KEY frames carried
    uint16_t frame;                 // frames encoded (never 0 once one is)
    uint8_t (*row_enc)(uint32_t header);
};

void kw_encoder_init(struct kw_encoder *e, uint8_t (*row_enc)(uint32_t header));

// One SLOTS frame's payload into out (cap bytes, at least KW_HDR_BYTES + KW_SLOT_MAX): the
// slots s[first ..] of a buffer of n slots, as many as fit; t0 the data[0] of slot first - 1
// (0 when first is 0), bseq the buffer's sequence number. Returns the slots encoded (> 0 when
// first < n); *len the payload's bytes.
unsigned kw_encode(struct kw_encoder *e, const struct kev_slot *s, unsigned first, unsigned n,
                   uint32_t bseq, uint8_t *out, size_t cap, size_t *len);

// A KEY frame's payload into out (cap bytes, at least KW_KEY_HDR + KW_KEY_ENTRY): the codes
// *from .. as many as fit (to ncodes); *from moves past them. Returns the payload's bytes.
size_t kw_key(const struct kw_encoder *e, unsigned *from, uint8_t *out, size_t cap);

// ---- the decoder (the host) -------------------------------------------------------------------
struct kw_decoder {
    uint32_t hdr[KW_CODES];
    uint8_t enc[KW_CODES];
    uint8_t known[KW_CODES];        // the code was defined (a KEY, or a DEFINE seen)
    uint64_t keys, defines;         // KEY entries taken, inline definitions taken
};

// What a SLOTS frame said of itself.
struct kw_frame {
    unsigned cpu, flags, first, nslots;
    uint32_t bseq, t0, sum;
};

enum kw_error {
    KW_OK = 0,
    KW_SHORT,       // the payload ends inside a field or a slot
    KW_LONG,        // bytes after the last slot
    KW_UNKNOWN,     // a code not defined (its KEY lost, or a reader that joined late)
    KW_BAD,         // an encoding or a code byte no encoder writes, a code redefined otherwise
    KW_SUM,         // the slots do not add up to the frame's sum
    KW_TOO_MANY,    // more slots than the caller's room, or past a buffer's end
};

void kw_decoder_init(struct kw_decoder *d);
// A KEY frame's payload: KW_OK, KW_SHORT, or KW_BAD (a code past KW_CODES, a code given two
// meanings: the dictionary is then the newer's).
enum kw_error kw_take_key(struct kw_decoder *d, const uint8_t *p, size_t n);
// A SLOTS frame's payload into out (room for max slots): KW_OK and *f; else what was wrong (the
// frame's slots are then not to be used; the dictionary may have taken its definitions).
enum kw_error kw_expand(struct kw_decoder *d, const uint8_t *p, size_t n, struct kw_frame *f,
                        struct kev_slot *out, unsigned max);
// The sentence for an error.
const char *kw_error_text(enum kw_error e);

// ---- the encodings from the event table (trace/kev_wire_rows.c: a host, with the table) ------
// A header's encoding byte (its CPU bits ignored), from its row's fields' kinds. The board
// takes the same from kev_wire_gen_enc (tools/emitgen's table of it, in kev_emit_gen.h when
// KEV_WIRE_ROWS is defined).
uint8_t kev_wire_row_enc(uint32_t header);

#endif
