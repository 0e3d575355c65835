// SPDX-License-Identifier: MIT
// dtrace -i's probe context beside the analysis model (kevreplay_ctx.h).
#include "kevreplay_ctx.h"
#include <string.h>

void rctx_reset(struct rctx *c)
{
    memset(c, 0, sizeof(*c));
    for (unsigned k = 0; k < DVM_MAXCPU; k++)
        c->cpu[k].vt_running = c->cpu[k].last_state = KX_NO_THREAD;
}

struct rctx_thread *rctx_thread(struct rctx *c, int idx)
{
    static struct rctx_thread spare;
    if (idx >= 0 && (unsigned)idx < KX_MAX_THREADS)
        return &c->th[idx];
    memset(&spare, 0, sizeof(spare));
    return &spare;
}

struct rctx_msg *rctx_msg(struct rctx *c, uint32_t rcvid)
{
    unsigned h = (rcvid * 2654435761u) >> 22;
    for (unsigned k = 0; k < RCTX_MSGS; k++) {
        struct rctx_msg *m = &c->msg[(h + k) % RCTX_MSGS];
        if (m->used && m->rcvid == rcvid)
            return m;
        if (!m->used) {
            memset(m, 0, sizeof(*m));
            m->used = 1;
            m->rcvid = rcvid;
            return m;
        }
    }
    static struct rctx_msg spare;       /* a full table: nothing known */
    memset(&spare, 0, sizeof(spare));
    spare.rcvid = rcvid;
    return &spare;
}
