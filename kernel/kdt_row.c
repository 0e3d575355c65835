// SPDX-License-Identifier: MIT
// The probes the event table's rows name that no list of d/dprobes.h has (a row added with a
// probe of its own, DPROBE_ROW_BASE): fired at the row's emit site (kev_emit.h kev_emit_row)
// with the ids the host's dtrace gives them, both walked by trace/d/row_probes.c over the same
// rows, and the arguments the row's D column names, read from the event's words as dtrace -i
// reads them from the capture. Only a kernel with such a site links this file and the table.
// State: each probe's id, walked from the rows on its first firing and kept (ids never change
// while the kernel runs). Locking: called within the site's hold (the D lock, kdt_hold).
#include <kernel/kdtrace.h>
#include <d/dprobes.h>
#include <d/dvm.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>

#define ROW_IDS 8u      // probes whose ids are kept; past them, walked at each firing

static struct {
    const struct kev_dprobe *dp;
    uint32_t id;
} row_ids[ROW_IDS];

static uint32_t row_id(const struct kev_dprobe *dp)
{
    for (unsigned k = 0; k < ROW_IDS; k++) {
        if (row_ids[k].dp == dp)
            return row_ids[k].id;
        if (!row_ids[k].dp) {
            row_ids[k].id = dprobe_row_id(dp->probe);
            row_ids[k].dp = dp;
            return row_ids[k].id;
        }
    }
    return dprobe_row_id(dp->probe);
}

void kdt_fire_row(unsigned cls, unsigned ev, const uint32_t *w, unsigned nw)
{
    const struct kev_event_desc *row = kev_event_describe(cls, ev);
    const struct kev_event e = { .cls = cls, .ev = ev, .w = w, .nw = nw, .nslots = 1 };
    for (const struct kev_dprobe *dp = row ? row->dprobes : NULL; dp && dp->probe; dp++) {
        uint64_t a[DVM_NARGS];
        uint32_t id = dp->derived ? DPROBE_NONE : row_id(dp);
        int n = id && kdt_wanted(id) ? dprobe_row_args(row, dp, &e, a, DVM_NARGS) : -1;
        if (n >= 0)
            kdt_fire_n_in(NULL, id, a, (unsigned)n, 0);
    }
}
