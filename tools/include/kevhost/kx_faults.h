// SPDX-License-Identifier: MIT
// The faults of a capture: every SYSTEM FAULT with the STACK that follows it (docs/trace-events.md
// "Stacks and faults"), kept once and shown by kevstat (its faults section) and kevreport (a
// finding and a marker on the faulting thread's row, from the JSON below). The pc is named with
// its function, file and line, the frames as stacksym names them, from the ELF files the capture
// ran (tools/common/tool_syms.c: raw addresses when none is found or one is refused).
#ifndef KX_FAULTS_H
#define KX_FAULTS_H

#include <stdio.h>
#include <kevhost/kx_stats.h>

// Fed every event in time order (kevstat's and kevreport's callbacks).
void kx_faults_event(const struct kev_event *e);
// The "== Faults ==" section.
void kx_faults_print(const struct kx_stats *s);
// The faults as a JSON array: [{"thread" (the model's index, -1 unknown), "t" (cycles from the
// first event), "cpu", "pid", "tid", "process", "signal", "signo", "kind", "pc", "addr" (hex
// strings; addr null when the CPU gave none), "function", "source" ("file.c:27" or ""),
// "frames" [names], "cut_short" (why the walk stopped early, or "")}, then "more": the faults
// past the ones kept.
void kx_faults_json(const struct kx_stats *s, FILE *f);

#endif
