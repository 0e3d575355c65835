// SPDX-License-Identifier: MIT
// Framing of a .kev file sent as a byte stream (a UART, a pty, QEMU's -serial file:), so that
// a host program can rebuild the exact file and report any damage instead of passing it on.
//
//   frame  = "KS" | type u8 | flags u8 | seq u16 | len u16 | payload[len] | crc32 u32
//   (integers little-endian; crc32 is IEEE 802.3 over type..payload)
//
// DATA frames carry the file's bytes in order (seq counts frames from 0, wrapping at 65536);
// one END frame closes the stream: payload = total file bytes (u32) and the CRC-32 of the
// whole file (u32). A reader that sees a bad CRC, a sequence gap, or bytes outside frames
// reports them; the file it rebuilds is then known to be incomplete.
// Freestanding: used by the tracelogger (encoder) and host tools (decoder).
#ifndef TRACE_KEV_STREAM_H
#define TRACE_KEV_STREAM_H

#include <stddef.h>
#include <stdint.h>

#define KS_MAGIC0 0x4bu    // 'K'
#define KS_MAGIC1 0x53u    // 'S'
#define KS_DATA   1u
#define KS_END    2u
#define KS_HDR_BYTES 8u
#define KS_CRC_BYTES 4u
#define KS_MAX_PAYLOAD 1024u
#define KS_MAX_FRAME (KS_HDR_BYTES + KS_MAX_PAYLOAD + KS_CRC_BYTES)

uint32_t ks_crc32(uint32_t crc, const void *p, size_t n);   // start with crc = 0

// Encoder: writes one frame into out (at least KS_MAX_FRAME bytes); returns its length.
size_t ks_frame(uint8_t *out, unsigned type, uint16_t seq, const void *payload, size_t len);

// Decoder: feed it bytes as they come; it calls back for each good frame's payload and for
// every problem found.
enum ks_problem {
    KS_P_JUNK = 1,      // bytes outside any frame (skipped to the next "KS")
    KS_P_CRC,           // a frame whose CRC does not match (dropped)
    KS_P_GAP,           // frames missing before this one (sequence jumped)
    KS_P_BADLEN,        // a length over KS_MAX_PAYLOAD or a bad type (resync)
};

struct ks_decoder {
    uint8_t buf[KS_MAX_FRAME];
    size_t have;
    uint32_t next_seq;      // expected sequence (low 16 bits compared)
    int started;
    int ended;              // END frame seen
    uint64_t data_bytes;    // payload bytes delivered
    uint32_t file_crc;      // running CRC-32 of the delivered payload
    uint32_t end_len, end_crc;  // from the END frame
    uint64_t frames, problems, junk_bytes;
    void (*on_data)(void *arg, const uint8_t *p, size_t n);
    void (*on_problem)(void *arg, enum ks_problem what, uint64_t offset, uint32_t detail);
    void *arg;
    uint64_t offset;        // stream offset of buf[0]
};

void ks_decoder_init(struct ks_decoder *d);
void ks_decode(struct ks_decoder *d, const uint8_t *p, size_t n);
// After the input ends: 0 when an END frame closed a complete, undamaged stream whose length
// and CRC match; otherwise non-zero (problems were reported, or the END frame is missing).
int ks_decoder_finish(struct ks_decoder *d);

#endif
