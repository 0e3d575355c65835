// SPDX-License-Identifier: MIT
// The stream the tracelogger sends for a .kev file with its kernel buffers in the compact wire
// encoding (trace/kev_stream.h, trace/kev_wire.h), made on the host from the file: the header
// and system page in DATA frames, each buffer after the KEY frames it needs (the whole
// dictionary every KW_KEY_EVERY buffers) in SLOTS frames, the loss note and trailer in DATA
// frames, END with the file's length alone (KS_END_LEN_ONLY). What the board sends for the
// same file, frame for frame, when its buffers are the file's (kevwire; the tests of the
// expansion and of a damaged stream, test/unit/test_kev_wire.c).
#ifndef TOOLS_KEV_WIRE_STREAM_H
#define TOOLS_KEV_WIRE_STREAM_H

#include <stddef.h>
#include <stdint.h>

// Each frame, in order: its bytes, its type, and for a SLOTS frame the file offsets of its
// buffer [start, end) (0, 0 for the others).
typedef void (*kev_wire_put)(void *user, const uint8_t *frame, size_t n, unsigned type,
                             size_t buf_start, size_t buf_end);

// 0, or -1 with *why set when p[0..len) is not a little-endian .kev file the reader opens (the
// board's byte order: the encoding's words are its).
int kev_wire_stream(const uint8_t *p, size_t len, kev_wire_put put, void *user,
                    const char **why);

#endif
