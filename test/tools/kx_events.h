// SPDX-License-Identifier: MIT
// Hand-built events for the unit tests of the analysis model (test_kx.c, test_kx_task.c): mk()
// makes one event in a static buffer (valid until the next call), new_stats() an analysis over
// an empty reader (no names, a 1 MHz clock: a cycle is a microsecond). Included by one test
// file per program.
#ifndef TEST_KX_EVENTS_H
#define TEST_KX_EVENTS_H

#include <string.h>

#include <kevhost/kx_stats.h>

static struct kev_reader rd;
static uint32_t words[8];
static struct kev_event ev;

static const struct kev_event *mk(unsigned cls, unsigned e, uint64_t t, uint32_t a, uint32_t b,
                                  uint32_t c, uint32_t d, unsigned nw)
{
    words[0] = a, words[1] = b, words[2] = c, words[3] = d;
    memset(&ev, 0, sizeof(ev));
    ev.cls = cls, ev.ev = e, ev.t64 = t, ev.t32 = (uint32_t)t, ev.w = words, ev.nw = nw;
    ev.nslots = nw > 2 ? (nw + 1) / 2 : 1;
    return &ev;
}

static struct kx_stats *new_stats(void)
{
    struct kx_stats *s = calloc(1, sizeof(*s));
    assert_non_null(s);
    rd.kr_cycles_per_sec = 1000000;
    kx_stats_init(s, &rd);
    return s;
}

#endif
