// SPDX-License-Identifier: MIT
// Framing of a .kev file sent as a byte stream (a UART, a pty, QEMU's -serial file:), so that
// a host program can rebuild the exact file and report any damage instead of passing it on.
//
//   frame  = "KS" | type u8 | flags u8 | seq u16 | len u16 | payload[len] | crc32 u32
//   (integers little-endian; crc32 is IEEE 802.3 over type..payload)
//
// DATA frames carry the file's bytes in order (seq counts frames of every type from 0,
// wrapping at 65536); one END frame closes the stream: payload = total file bytes (u32) and the
// CRC-32 of the whole file (u32). A reader that sees a bad CRC, a sequence gap, or bytes
// outside frames reports them; the file it rebuilds is then known to be incomplete.
//
// Two frames carry facts about the stream, never file bytes (the file rebuilt from the DATA
// frames is the same with or without them), so that a reader of a live stream knows time has
// passed and what was lost:
//   HEARTBEAT  the logger had nothing to send for a whole flush interval (no event happened,
//              or none of the classes traced): the board's time, so the host's view moves on.
//   LOSS       buffers the logger dropped whole because the host did not take the stream
//              (it asked to stop, or the transport took nothing for a while): for one CPU and
//              one reason, how many events, between which times, at which point of the file.
//              The same events are in the file's trailer as lost on that CPU (not stored), so
//              the live totals and the file's agree. `total` is cumulative (per CPU and
//              reason): a reader that missed a LOSS frame still totals right from the next.
// Their payloads are little-endian like the header: ks_heartbeat_put/get, ks_loss_put/get.
//
// Two frames carry a kernel buffer in the compact wire encoding (trace/kev_wire.h) instead of
// its bytes in DATA frames: KEY (the dictionary of the slots' headers and their encodings) and
// SLOTS (consecutive slots of one buffer, a third of their bytes). The host expands them into
// the very bytes the DATA frames would have carried; the file is the same. A stream that sends
// them ends with an END frame whose flags byte has KS_END_LEN_ONLY: its CRC field is 0, as the
// board computes no CRC of bytes it never sends (each SLOTS frame checks its own expansion
// with a sum, and every frame's CRC covers the bytes sent). With -x wire=check the logger also
// sends each such buffer's own bytes after its SLOTS frames, in REF frames: never file bytes
// (a reader passes them by), the board's copy a test compares the expansion with where the
// board has no other (x86-pc: no host files).
//
// Flow control, host to board, on a transport with a way back (a UART's receive line): the
// byte KS_XOFF asks the board to stop sending, KS_XON to go on (a serial port's software flow
// control). The logger never waits for a stopped host: it obeys between kernel buffers, so
// it finishes the buffer it is sending (a host sends XOFF with at least KS_XOFF_ROOM bytes of
// room left), then drops whole buffers while stopped, and sends LOSS frames for them first
// when it may send again. Other bytes are ignored. The file's header and trailer are sent
// whatever the flow (they are small, and a stream without them is no file).
// A longer payload than the layout below is accepted and the extra bytes ignored (a later
// version appends fields). Neither is sent by a logger without a stream.
// Freestanding: used by the tracelogger (encoder) and host tools (decoder).
#ifndef TRACE_KEV_STREAM_H
#define TRACE_KEV_STREAM_H

#include <stddef.h>
#include <stdint.h>

#define KS_MAGIC0 0x4bu    // 'K'
#define KS_MAGIC1 0x53u    // 'S'
#define KS_DATA   1u
#define KS_END    2u
#define KS_HEARTBEAT 3u
#define KS_LOSS   4u
#define KS_KEY    5u
#define KS_SLOTS  6u
#define KS_REF    7u
#define KS_READER 8u
#define KS_TYPE_MAX KS_READER
#define KS_END_LEN_ONLY 1u  // END's flags (the frame header's byte 3): no file CRC
#define KS_XON    0x11u   // host to board: send again
#define KS_XOFF   0x13u   // host to board: stop sending (drop and count)
#define KS_HDR_BYTES 8u
#define KS_CRC_BYTES 4u
#define KS_MAX_PAYLOAD 1024u
#define KS_MAX_FRAME (KS_HDR_BYTES + KS_MAX_PAYLOAD + KS_CRC_BYTES)
// The room a host keeps when it sends XOFF: a 16 KB kernel buffer in frames (16,576 bytes),
// the LOSS frames of 4 CPUs, a trailer, with margin.
#define KS_XOFF_ROOM 32768u

// CRC-32 (trace/kev_crc32.c): ks_crc32 starts with crc = 0 and continues with the last value.
// The CRC of A then B from each one's: ks_crc32_mult(ks_crc32_x8n(len B), crc(A)) ^ crc(B)
// (zlib's crc32_combine); mult is linear in its second argument (mult(o, a ^ b) =
// mult(o, a) ^ mult(o, b)).
uint32_t ks_crc32(uint32_t crc, const void *p, size_t n);
uint32_t ks_crc32_x8n(size_t n);
uint32_t ks_crc32_mult(uint32_t op, uint32_t crc);

// HEARTBEAT payload, KS_HEARTBEAT_BYTES:
//   time u64 | offset u64 | interval_ms u32 | buffers u32
struct ks_heartbeat {
    uint64_t time;          // the board's cycle counter (the clock of the events' timestamps)
    uint64_t offset;        // DATA bytes sent before this frame (the file's length so far)
    uint32_t interval_ms;   // the flush interval: a buffer or a heartbeat comes at least this often
    uint32_t buffers;       // buffers stored so far
};
#define KS_HEARTBEAT_BYTES 24u

// LOSS payload, KS_LOSS_BYTES:
//   t_first u64 | t_last u64 | offset u64 | events u64 | total u64 |
//   cpu u32 | reason u32 | buffers u32 | first_seq u32
struct ks_loss {
    uint64_t t_first, t_last;   // the lost events lie between these times (cycle counter):
                                // the first dropped buffer's start, the last one's end
    uint64_t offset;            // DATA bytes sent before this frame: where the gap is in the file
    uint64_t events;            // events lost, this report
    uint64_t total;             // events lost on this CPU for this reason since the start
    uint32_t cpu;
    uint32_t reason;            // KS_LOSS_*
    uint32_t buffers;           // kernel buffers dropped whole, this report
    uint32_t first_seq;         // the kernel's sequence number of the first of them
};
#define KS_LOSS_BYTES 56u
#define KS_LOSS_HOST_STOP  1u   // the host asked the board to stop sending (XOFF)
#define KS_LOSS_HOST_STALL 2u   // the transport took nothing for the logger's stall time
                                // (a reader or a probe that stopped reading)

// READER payload, KS_READER_BYTES: what a reader outside the board (kevprobe) saw of the board
// at a round: never file bytes, only said (kevtop's reader line), so a live view says the
// reader's lag and the board's drops while they happen, before the buffers that count them
// come (a DROPPED event at the next buffer's start, the trailer: those are the counts).
//   board_time u64 | written_time u64 | dropped u64 | behind u32 | pad u32
struct ks_reader {
    uint64_t board_time;    // the newest time the reader knows the board at (cycle counter)
    uint64_t written_time;  // the newest event it has written
    uint64_t dropped;       // events the kernel has dropped or overwritten so far, all CPUs
    uint32_t behind;        // buffers the board has given out that the reader has not written
};
#define KS_READER_BYTES 32u

void ks_heartbeat_put(uint8_t *payload, const struct ks_heartbeat *h);
void ks_reader_put(uint8_t *payload, const struct ks_reader *r);
int ks_reader_get(const uint8_t *payload, size_t len, struct ks_reader *r);
void ks_loss_put(uint8_t *payload, const struct ks_loss *l);
// 0 and *out filled, or -1 when the payload is shorter than the layout.
int ks_heartbeat_get(const uint8_t *payload, size_t len, struct ks_heartbeat *out);
int ks_loss_get(const uint8_t *payload, size_t len, struct ks_loss *out);

// Encoder: writes one frame into out (at least KS_MAX_FRAME bytes); returns its length.
size_t ks_frame(uint8_t *out, unsigned type, uint16_t seq, const void *payload, size_t len);
// ... with the flags byte given (KS_END_LEN_ONLY on an END frame).
size_t ks_frame_flags(uint8_t *out, unsigned type, unsigned flags, uint16_t seq,
                      const void *payload, size_t len);

// Decoder: feed it bytes as they come; it calls back for each good frame's payload and for
// every problem found.
enum ks_problem {
    KS_P_JUNK = 1,      // bytes outside any frame (skipped to the next "KS")
    KS_P_CRC,           // a frame whose CRC does not match (dropped)
    KS_P_GAP,           // frames missing before this one (sequence jumped)
    KS_P_BADLEN,        // a length over KS_MAX_PAYLOAD, a bad type, or a HEARTBEAT, LOSS
                        // or END frame too short for its layout (resync, or dropped)
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
    uint32_t end_seq;           // ... and its sequence number
    uint32_t end_flags;         // ... and its flags (KS_END_LEN_ONLY)
    uint64_t frames, problems, junk_bytes;
    uint64_t heartbeats;    // HEARTBEAT frames seen
    uint64_t loss_frames;   // LOSS frames seen, and the events they reported lost
    uint64_t lost_events;
    void (*on_data)(void *arg, const uint8_t *p, size_t n);
    void (*on_heartbeat)(void *arg, const struct ks_heartbeat *h);    // may be NULL
    void (*on_loss)(void *arg, const struct ks_loss *l);              // may be NULL
    void (*on_reader)(void *arg, const struct ks_reader *r);          // may be NULL
    // KEY, SLOTS and REF frames (the compact encoding), their payloads; NULL: counted, not used
    void (*on_wire)(void *arg, unsigned type, const uint8_t *p, size_t n);
    uint64_t wire_frames;   // KEY and SLOTS frames seen
    void (*on_problem)(void *arg, enum ks_problem what, uint64_t offset, uint32_t detail);
    void *arg;
    uint64_t offset;        // stream offset of buf[0] (during a callback: of its frame)
    const uint8_t *frame;   // during a callback: its whole frame (header, payload, CRC)
    // the CRC-32 the checks use: ks_crc32 when NULL; a host gives a faster one of the same
    // polynomial and convention (zlib's crc32)
    uint32_t (*crc)(uint32_t crc, const void *p, size_t n);
};

void ks_decoder_init(struct ks_decoder *d);
void ks_decode(struct ks_decoder *d, const uint8_t *p, size_t n);
// After the input ends: 0 when an END frame closed a complete, undamaged stream of DATA frames
// alone whose length and CRC match; otherwise non-zero (problems were reported, the END frame
// is missing, or the stream held KEY and SLOTS frames, whose bytes a reader expands itself).
int ks_decoder_finish(struct ks_decoder *d);

#endif
