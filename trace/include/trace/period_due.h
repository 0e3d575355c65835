// SPDX-License-Identifier: MIT
// When something periodic is next due, once it came due at `due` and was served at `now`: a
// period on, or, when it fell behind (a late tick on the board; a capture whose samples stopped
// a while), the first of its period's boundaries past `now`, so that it is served once, not in
// a burst, and keeps its phase, as illumos's cyclics do past their catch-up (docs/timers.md).
// *missed (when not NULL): the boundaries passed over. One rule for the kernel's periodic user
// timers (kernel/utimer.c, whose missed firings are its overruns), D's tick-N and profile-N
// live (kernel/kdtrace.c), and dtrace -i replaying profile-N over a capture's samples
// (tools/dtrace/kevreplay_stacks.c), so that the same script live and over the capture counts
// alike.
#ifndef TRACE_PERIOD_DUE_H
#define TRACE_PERIOD_DUE_H
#include <stddef.h>
#include <stdint.h>

static inline uint64_t period_next_due(uint64_t due, uint64_t period, uint64_t now,
                                       uint64_t *missed)
{
    uint64_t n = 0;
    due += period;
    if (due <= now) {       // (no division on time)
        n = (now - due) / period + 1u;
        due += n * period;
    }
    if (missed)
        *missed = n;
    return due;
}

#endif
