// SPDX-License-Identifier: MIT
// The D probes the event table's rows name that d/dprobes.h's lists do not (a row added with
// a probe of its own): given ids in DPROBE_ROW_BASE's range, so that dtrace lists them,
// compiles clauses on them and fires them over a capture (kevreplay_table.c) with no probe
// list edited.
#ifndef KEVHOST_ROW_PROBES_H
#define KEVHOST_ROW_PROBES_H

// row_probes_use: every row's (kev_event_row) probes of the form "provider:::name" that are not
// derived and have no id yet, handed to dprobe_rows_use; their number. Call once, before any
// probe is looked up; rows beyond DPROBE_ROW_MAX probes are said on stderr, not dropped silently.
unsigned row_probes_use(const char *tool);

#endif
