// SPDX-License-Identifier: MIT
// kevreport's event-list rows and blocked-by records (report_rows.c).
#ifndef TOOLS_REPORT_ROWS_H
#define TOOLS_REPORT_ROWS_H

#include <kevhost/kx_wait_text.h>

// One event as a JSON array [t, cpu, thread, "CLASS", "what"] (t: cycles from the first),
// after a comma unless first.
void report_event_row(FILE *f, const struct kx_stats *s, const struct kev_event *e, uint64_t t,
                      int th, int first);
// One wait with an owner as [waiter, t0, t1, owner, "object"]; nothing when it has no owner.
void report_wait_row(FILE *f, const struct kx_stats *s, const struct kw_wait *w, uint64_t t0,
                     uint64_t t1);

#endif
