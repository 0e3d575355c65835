// SPDX-License-Identifier: MIT
// The stream's compact wire encoding on the board (trace/kev_wire.h; stream.c sends it): the
// encoder's state and the buffer each SLOTS or KEY frame's payload is encoded into, and each
// header's encoding, which this file takes from the table tools/emitgen generates from the
// event table (kev_emit_gen.h's kev_wire_gen_enc: the board carries 64 runs of event numbers,
// not the table). A board whose program RAM cannot hold the encoder's 3.6 KB
// (BOARD_STREAM_COMPACT 0 in its board_user.h: netduinoplus2's 8 KB) sends its buffers' bytes.
#include "tracelogger.h"
#include <board_user.h>
#include <trace/kev_stream.h>
#include <trace/kev_wire.h>

#ifndef BOARD_STREAM_COMPACT
#define BOARD_STREAM_COMPACT 1
#endif

#if BOARD_STREAM_COMPACT
#define KEV_WIRE_ROWS
#include <kev_emit_gen.h>

static struct kw_encoder enc;
static uint8_t payload[KS_MAX_PAYLOAD];

int wire_open(void)
{
    kw_encoder_init(&enc, kev_wire_gen_enc);
    return 0;
}

struct kw_encoder *wire_encoder(void)
{
    return &enc;
}

uint8_t *wire_buffer(void)
{
    return payload;
}
#else
int wire_open(void)
{
    return -1;
}

struct kw_encoder *wire_encoder(void)
{
    return NULL;
}

uint8_t *wire_buffer(void)
{
    return NULL;
}
#endif
