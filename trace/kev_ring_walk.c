// SPDX-License-Identifier: MIT
// The walker every reader of the ring in target memory shares (trace/kev_ring_map.h): kevdump
// over a halted target's table, kevprobe (tools/common/kev_probe.c) over a running one's, each
// round. It orders the buffers in use by their sequence number from where the reader is, so
// that both write them as the tracelogger would have, oldest first. Host-built only; the
// table has at most a few hundred entries (TRACE_MAX_BUFS), so an insertion sort serves.
#include <trace/kev_ring_map.h>

unsigned kev_ring_walk(const struct kev_ring_map *m, const uint8_t *table, uint32_t from,
                       unsigned *order)
{
    unsigned n = 0;
    for (unsigned i = 0; i < m->nbufs; i++) {
        const uint8_t *e = kev_ring_entry(m, table, i);
        if (!kev_ring_in_use(kev_ring_state(m, e)))
            continue;
        uint32_t d = kev_ring_seq(m, e) - from;
        unsigned k = n++;
        // after every entry of a lower distance or of the same (a lower index)
        for (; k > 0 && kev_ring_seq(m, kev_ring_entry(m, table, order[k - 1])) - from > d; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    return n;
}
