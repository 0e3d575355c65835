// SPDX-License-Identifier: MIT
// User timers as a capture shows them: each timer's expiries (the pulses it sent in the tick:
// kx_msg.timer) and its interval, the period of the tasks its pulses release (kx_task.h).
//   * A timer is named by its owner and id (the TIMER event before its pulse); a capture without
//     TIMER events (the SYSTEM class off) names one by the channel its pulses go to. An arming
//     (TimerSettime) starts a new entry for the timer: its expiries from then on.
//   * Its interval is the one TimerSettime programmed when the capture recorded it (the wide
//     mode's third argument), else the one its expiries keep: the median of the spacings
//     between them (a late tick skips expiries and keeps the timer's phase, events lost in the
//     capture remove some: the median stays an interval), refined over the arming's whole span
//     (the span's whole number of medians, so that a timer of 1.5 ticks is 1.5 ticks).
// Times are cycles since boot. Single-threaded; an entry's expiry times are kept (8 bytes each)
// until kx_timers_free.
#ifndef TOOLS_KX_TIMER_H
#define TOOLS_KX_TIMER_H

#include <stddef.h>
#include <stdint.h>

struct kx_timer {
    uint32_t pid, id;         // its owner and id (KX_TIMER_UNNAMED: no TIMER event named it)
    uint32_t chan;            // unnamed: its pulses' channel word (SND_PULSE's), else 0
    uint32_t interval_us;     // programmed (TimerSettime's third argument), 0 not recorded
    uint64_t n;               // expiries seen
    uint64_t first, last;
    uint64_t *gap;            // the spacings between consecutive expiries (grown)
    size_t ngap, gap_cap;
};

struct kx_timers {
    struct kx_timer *t;       // grown; an index + 1 names one (0: none)
    size_t n, cap;
    uint64_t lost;            // expiries not kept (out of memory)
};

void kx_timers_free(struct kx_timers *x);
// A pulse of timer (pid, id) (chan: its channel word, for an unnamed one) sent at t: the timer's
// entry (index + 1; 0 out of memory).
unsigned kx_timers_expiry(struct kx_timers *x, uint32_t pid, uint32_t id, uint32_t chan,
                          uint64_t t);
// Process pid armed its timer id (TimerSettime): its expiries from now on are a new entry's,
// whose programmed interval is interval_us (0: not recorded).
void kx_timers_armed(struct kx_timers *x, uint32_t pid, uint32_t id, uint32_t interval_us);
// Entry e's interval in cycles (cps the cycles a second), 0 unknown (fewer than two expiries and
// none programmed). `recent`: from the last KX_TIMER_RECENT spacings only (a live view's, before
// the end).
#define KX_TIMER_RECENT 15u
uint64_t kx_timers_interval(const struct kx_timers *x, unsigned e, uint64_t cps, int recent);
const struct kx_timer *kx_timers_get(const struct kx_timers *x, unsigned e);

#endif
