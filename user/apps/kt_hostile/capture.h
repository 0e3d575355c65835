// SPDX-License-Identifier: MIT
// A capture around an attack (capture.c), for the checks that read the verdict from the trace
// (main.c's user-event ring attack, rerun.c's).
#ifndef KT_HOSTILE_CAPTURE_H
#define KT_HOSTILE_CAPTURE_H
#include <kern.h>
#include <trace/kev.h>

// Starts a capture of the USER and SYSTEM classes; ALLOCBUFFER's result, *started START's.
int capture_begin(int *started);
// Stops it, gives its counts (*q) and hands each event's first slot to scan, then frees it.
typedef void (*event_scan)(const struct kev_slot *s, void *ctx);
void capture_end(struct ktrace_query *q, event_scan scan, void *ctx);
#endif
