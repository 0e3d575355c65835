// SPDX-License-Identifier: MIT
// Scans target RAM for the RTT control block's ID and reads its up-channel descriptors
// (rtt_find.h), through the shared GDB remote client.
#include "rtt_find.h"
#include <stdio.h>
#include <string.h>
#include <trace/kev_bytes.h>

#define SCAN_CHUNK 4096u

long long rtt_find(struct gdbr *g, uint64_t start, uint64_t len)
{
    static const char id[RTT_ID_BYTES] = RTT_ID;    // NUL-padded, as in the block
    static uint8_t buf[SCAN_CHUNK + RTT_ID_BYTES];
    // Chunks overlap by the ID's length, so an ID across a chunk's end is found.
    for (uint64_t off = 0; off < len; off += SCAN_CHUNK) {
        uint64_t n = len - off < SCAN_CHUNK + RTT_ID_BYTES ? len - off : SCAN_CHUNK + RTT_ID_BYTES;
        if (gdbr_read(g, start + off, buf, (size_t)n) < 0)
            return -1;
        for (uint64_t i = 0; i + RTT_ID_BYTES <= n; i += 4)    // the block is word-aligned
            if (memcmp(buf + i, id, sizeof(RTT_ID)) == 0)
                return (long long)(start + off + i);
    }
    return 0;
}

int rtt_read_up(struct gdbr *g, uint64_t cb, unsigned ch, struct rtt_channel *out)
{
    uint8_t b[RTT_CB_HEAD_BYTES];
    if (gdbr_read(g, cb, b, sizeof(b)) < 0)
        return -1;
    if (memcmp(b, RTT_ID, sizeof(RTT_ID)) != 0) {
        snprintf(g->err, sizeof(g->err), "no RTT control block at 0x%llx",
                 (unsigned long long)cb);
        return -1;
    }
    uint32_t max_up = kev_get_le32(b + 16);
    if (ch >= max_up || max_up > 64) {
        snprintf(g->err, sizeof(g->err), "the RTT control block has %u up-channels, not %u",
                 (unsigned)max_up, ch + 1);
        return -1;
    }
    uint8_t d[RTT_CHANNEL_BYTES];
    if (gdbr_read(g, cb + RTT_CB_HEAD_BYTES + (uint64_t)ch * RTT_CHANNEL_BYTES, d, sizeof(d)) < 0)
        return -1;
    out->name = kev_get_le32(d);
    out->buffer = kev_get_le32(d + RTT_CH_BUFFER);
    out->size = kev_get_le32(d + RTT_CH_SIZE);
    out->wr_off = kev_get_le32(d + RTT_CH_WR);
    out->rd_off = kev_get_le32(d + RTT_CH_RD);
    out->flags = kev_get_le32(d + RTT_CH_FLAGS);
    if (out->size < 2 || out->wr_off >= out->size || out->rd_off >= out->size) {
        snprintf(g->err, sizeof(g->err), "RTT up-channel %u is inconsistent (size %u, write %u, "
                 "read %u)", ch, (unsigned)out->size, (unsigned)out->wr_off, (unsigned)out->rd_off);
        return -1;
    }
    return 0;
}
