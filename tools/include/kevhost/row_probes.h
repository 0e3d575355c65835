// SPDX-License-Identifier: MIT
// The D probes the event table's rows name that d/dprobes.h's lists do not (a row added with
// a probe of its own): given ids by their names' hash (d/dprobes.h dprobe_row_hash), so that
// dtrace lists them,
// compiles clauses on them and fires them over a capture (kevreplay_table.c) with no probe
// list edited.
#ifndef KEVHOST_ROW_PROBES_H
#define KEVHOST_ROW_PROBES_H

// row_probes_use: every row's (kev_event_row) probes of the form "provider:::name" that are not
// derived and have no fixed id, handed to dprobe_rows_use in id order; their number. Call
// before any probe is looked up; probes beyond DPROBE_ROW_MAX, or whose hash another name has,
// are said on stderr, not dropped silently.
unsigned row_probes_use(const char *tool);

#endif
