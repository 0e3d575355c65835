// SPDX-License-Identifier: MIT
// When a tick-N or profile-N probe is next due, once it fired at `now`: a period on, or, when
// it fell behind (a late tick on the board; a capture whose samples stopped a while), the first
// of its period's boundaries past `now`, so that it fires once, not a burst, and keeps its
// phase (docs/timers.md). One rule for the probe firing live (kernel/kdtrace.c) and for
// dtrace -i replaying it over a capture's samples (tools/dtrace/kevreplay_stacks.c): the same
// script live and over the capture counts alike.
#ifndef D_DPROFILE_DUE_H
#define D_DPROFILE_DUE_H
#include <stdint.h>

static inline uint64_t dprofile_next_due(uint64_t due, uint64_t now, uint64_t period)
{
    due += period;
    if (due <= now)
        due += ((now - due) / period + 1u) * period;
    return due;
}

#endif
