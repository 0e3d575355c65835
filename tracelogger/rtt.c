// SPDX-License-Identifier: MIT
// The RTT transport: the tracelogger's framed .kev stream (trace/kev_stream.h, the bytes of
// -u) in up-channel 0 of a SEGGER RTT control block in the logger's RAM, which a debug probe
// reads in the background without stopping the core (OpenOCD `rtt setup/start/server`,
// J-Link, probe-rs; tools/kevdump/kevrtt in QEMU). Layout: trace/rtt.h.
//
// Only this file writes wr_off and only the probe writes rd_off: the data is stored before
// wr_off moves (a release fence), and rd_off is read once per check. Modes (-x rtt=...):
//   block  wait for the probe to make room (a board with a probe attached: nothing is lost);
//   skip   never wait for a probe that does not read: before a kernel buffer the logger asks
//          rtt_refuses, which waits only while the probe reads, for room for the whole
//          buffer, and says "refused" when rd_off has not moved for RTT_STALL_MS while there
//          was something to read (no probe, or a stalled one): the logger then drops the
//          buffer whole and counts it (stream.c, LOSS frames). The ring holds a whole framed
//          buffer (BOARD_RTT_BYTES, by default), so a buffer begun never waits. Where a board
//          keeps a smaller ring (its RAM), a buffer begins once all but a frame of the ring is
//          free, and inside it the logger waits up to RTT_CUT_MS for a probe that stopped; a
//          frame that still does not fit is skipped, and every skipped byte and frame is
//          counted (the stream's sequence gap shows on the host).
// The ID is written last, at run time, so that a probe scanning RAM finds the block only
// once it is valid (and never a copy of the string in flash).
#include "tracelogger.h"
#include <kern.h>
#include <string.h>
#include <trace/kev.h>
#include <trace/kev_stream.h>
#include <trace/rtt.h>

#include <board_user.h>

// The up-channel ring: a kernel buffer in frames (16,576 bytes), the LOSS frames owed before
// it (68 bytes per CPU and reason), and a frame more (17,748 bytes on one CPU).
#ifndef BOARD_RTT_BYTES
#define RTT_FRAMING (KS_HDR_BYTES + KS_CRC_BYTES)
#define BOARD_RTT_BYTES (KEV_BUF_BYTES + KEV_BUF_BYTES / KS_MAX_PAYLOAD * RTT_FRAMING + \
                         KMAX_CPUS * 2u * (KS_LOSS_BYTES + RTT_FRAMING) + KS_MAX_FRAME)
#endif
#define RTT_POLL_NS   1000000u  // 1 ms between looks at rd_off while waiting
#define RTT_STALL_MS  50u       // skip mode: a probe this long without reading has stopped
#define RTT_CUT_MS    1000u     // skip mode, inside a buffer: the longest wait for the probe

// Global, and by this name: J-Link and probe-rs look `_SEGGER_RTT` up in the program's ELF
// (build/<board>/<image>/tracelogger.elf) instead of scanning RAM.
extern struct rtt_control_block _SEGGER_RTT;
struct rtt_control_block {
    struct rtt_cb_head head;
    struct rtt_channel up[1];
    struct rtt_channel down[1];
};
struct rtt_control_block _SEGGER_RTT __attribute__((aligned(8)));
static uint8_t ring[BOARD_RTT_BYTES] __attribute__((aligned(8)));
static const char up_name[] = "kev";
static uint32_t mode;
static uint64_t lost_bytes, lost_frames;
static uint32_t last_rd;        // rd_off at the last look
static uint64_t last_move;      // when the probe last read, or had nothing to read (ns)

int rtt_open(bool block)
{
    mode = block ? RTT_MODE_BLOCK : RTT_MODE_NO_BLOCK_SKIP;
    memset(&_SEGGER_RTT, 0, sizeof(_SEGGER_RTT));
    _SEGGER_RTT.head.max_up = 1;
    _SEGGER_RTT.head.max_down = 1;
    _SEGGER_RTT.up[0].name = (uint32_t)(uintptr_t)up_name;
    _SEGGER_RTT.up[0].buffer = (uint32_t)(uintptr_t)ring;
    _SEGGER_RTT.up[0].size = sizeof(ring);
    _SEGGER_RTT.up[0].flags = mode;
    last_move = ClockTime();
    __atomic_thread_fence(__ATOMIC_RELEASE);
    // "SEGGER RTT" written back to front, the first byte last: a scan sees all or nothing.
    // The image holds the ID reversed only, so a scan of RAM (where AArch64 and x86 keep
    // their constants too) finds the live block and not the string it was made from.
    static const char id_reversed[] = "TTR REGGES";
    const unsigned len = sizeof(id_reversed) - 1;
    for (unsigned i = 0; i < len; i++) {
        if (i == len - 1)
            __atomic_thread_fence(__ATOMIC_RELEASE);
        ((volatile char *)_SEGGER_RTT.head.id)[len - 1 - i] = id_reversed[i];
    }
    return 0;
}

static uint32_t room(void)
{
    uint32_t rd = __atomic_load_n(&_SEGGER_RTT.up[0].rd_off, __ATOMIC_ACQUIRE);
    uint32_t wr = _SEGGER_RTT.up[0].wr_off, size = _SEGGER_RTT.up[0].size;
    return rd > wr ? rd - wr - 1 : size - 1 - wr + rd;
}

// Whether the probe read since the last look, or has nothing to read: either way it has
// not stalled, and its stall time starts again.
static void probe_progress(void)
{
    uint32_t rd = __atomic_load_n(&_SEGGER_RTT.up[0].rd_off, __ATOMIC_ACQUIRE);
    if (rd != last_rd || rd == _SEGGER_RTT.up[0].wr_off) {
        last_rd = rd;
        last_move = ClockTime();
    }
}

static void put(const uint8_t *p, uint32_t n)
{
    probe_progress();   // (an empty ring's stall time starts with these bytes)
    uint32_t wr = _SEGGER_RTT.up[0].wr_off, size = _SEGGER_RTT.up[0].size;
    uint32_t first = size - wr < n ? size - wr : n;
    memcpy(ring + wr, p, first);
    memcpy(ring, p + first, n - first);
    wr += n;
    if (wr >= size)
        wr -= size;
    __atomic_store_n(&_SEGGER_RTT.up[0].wr_off, wr, __ATOMIC_RELEASE);
}

// Waits 1 ms for the probe; false when skip mode gives up on it: rd_off still for limit_ms
// with bytes waiting.
static bool wait_for_probe(unsigned limit_ms)
{
    probe_progress();
    if (mode != RTT_MODE_BLOCK && ClockTime() - last_move >= (uint64_t)limit_ms * 1000000u)
        return false;
    ThreadSleep(RTT_POLL_NS);
    return true;
}

bool rtt_refuses(size_t first, size_t whole)
{
    uint32_t size = _SEGGER_RTT.up[0].size;
    if (mode == RTT_MODE_BLOCK || first >= size)
        return false;
    // Room for the whole buffer; in a ring smaller than that, for all but a frame of it.
    size_t need = whole;
    if (need > size - 1u)
        need = size - 1u > KS_MAX_FRAME ? size - 1u - KS_MAX_FRAME : 0;
    need = first > need ? first : need;
    while (room() < need)
        if (!wait_for_probe(RTT_STALL_MS))
            return true;
    return false;
}

// One stream frame, from its three pieces: written whole (block mode, or skip mode while the
// probe reads), or skipped whole and counted. Returns 0, or -1 when skipped.
int rtt_write(const uint8_t *head, const void *payload, size_t len, const uint8_t *tail)
{
    const uint8_t *part[3] = { head, payload, tail };
    const size_t plen[3] = { KS_HDR_BYTES, len, KS_CRC_BYTES };
    const size_t n = KS_HDR_BYTES + len + KS_CRC_BYTES;
    if (n >= _SEGGER_RTT.up[0].size) {   // cannot ever fit: a build whose ring is below one frame
        lost_bytes += n;
        lost_frames++;
        return -1;
    }
    if (mode == RTT_MODE_BLOCK) {
        for (unsigned i = 0; i < 3; i++) {
            const uint8_t *p = part[i];
            size_t m = plen[i];
            while (m) {             // a frame may go in pieces as the probe makes room
                uint32_t r = room();
                if (!r) {
                    wait_for_probe(0);
                    continue;
                }
                uint32_t k = r < m ? r : (uint32_t)m;
                put(p, k);
                p += k;
                m -= k;
            }
        }
        return 0;
    }
    while (room() < n)
        if (!wait_for_probe(RTT_CUT_MS)) {
            lost_bytes += n;
            lost_frames++;
            return -1;
        }
    for (unsigned i = 0; i < 3; i++)
        put(part[i], (uint32_t)plen[i]);
    return 0;
}

// At the end: waits until the probe has read everything (block mode; skip mode while the
// probe still reads), so that the system's exit does not cut the stream.
void rtt_close(void)
{
    while (room() != _SEGGER_RTT.up[0].size - 1u && wait_for_probe(RTT_STALL_MS))
        ;
}

uint64_t rtt_lost_bytes(void)
{
    return lost_bytes;
}

uint64_t rtt_lost_frames(void)
{
    return lost_frames;
}
