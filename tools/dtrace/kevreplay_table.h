// SPDX-License-Identifier: MIT
// dtrace -i's probes from the event table's D column (trace/kev_events.h struct kev_dprobe):
// for one event, each probe its row says the kernel's site fires, resolved to the probe table's
// id, with its arguments computed from the event's decoded fields. A row's derived probes (the
// scheduler's, lockstat's, fbt, pid, USDT, stacks) are the replay's state machine's, not these.
// An event of a row added to the table (a test's) fires its probes with no code of its own.
#ifndef DTRACE_KEVREPLAY_TABLE_H
#define DTRACE_KEVREPLAY_TABLE_H

#include <d/dvm.h>
#include <stdint.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>

/* One probe to fire: its id and arguments. unknown: a bit per argument the event does not
 * carry (a ?NAME the site resolver did not know, or a $words past the event's words), each
 * with the name it has in the row (unknown_name[k]: "coid", "bytes", "status", "$words");
 * payload: arg(payload_arg) is DUTEXT_ADDR, where copyin( ) reads the event's payload. */
struct rtable_fire {
    uint32_t id;
    uint64_t a[DVM_NARGS];
    unsigned unknown;
    char unknown_name[DVM_NARGS][16];
    int payload;
};

/* rtable_site: a value the site knew and the event does not carry (?NAME, given without the
 * '?'): 1 and *v when the replay knows it from earlier events, else 0. */
typedef int (*rtable_site_fn)(void *user, const char *name, const struct kev_fields *fs,
                              uint64_t *v);

/* rtable_probes: the probes event e fires by its row's D column into out[0..max) (in the
 * row's order); a probe whose `unless` holds (in_snapshot for "$snapshot"), whose fields the
 * payload is too short for, or that the probe table does not name, is left out. fs: e's
 * fields, decoded here. Returns the count. */
unsigned rtable_probes(const struct kev_reader *r, const struct kev_event *e, int in_snapshot,
                       rtable_site_fn site, void *user, struct kev_fields *fs,
                       struct rtable_fire *out, unsigned max);

#endif
