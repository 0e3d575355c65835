// SPDX-License-Identifier: MIT
// The USDT probes a capture recorded (SYSTEM USDT, docs/usdt.md "Over the capture"), each
// named provider:probe with its program from the program's notes (syms_usdt.h), counted per
// probe and program with each argument's least and greatest value as the program passed it
// (signed where the note says so): shown by kevstat (its usdt section, --json's "usdt") and
// kevreport (its USDT section). A site no ELF file names is counted under its address.
// Single-threaded, process-wide, like kx_faults.h.
#ifndef KX_USDT_H
#define KX_USDT_H

#include <stdio.h>
#include <kevhost/kx_stats.h>

// Fed every event in time order (kevstat's and kevreport's callbacks), r the capture's reader.
void kx_usdt_event(const struct kev_reader *r, const struct kev_event *e);
// The "== USDT probes ==" section; said when none was recorded only when asked (asked 1).
void kx_usdt_print(const struct kx_stats *s, int asked);
// The probes as kx_stats_json's member "usdt" (its json_more: kevstat --json, kevreport's
// page), a JSON array: [{"probe" ("demo:step", or "site 0x..." when unnamed),
// "provider", "name", "module", "function", "site" (hex), "count", "first", "last" (cycles from
// the first event), "args" [{"min", "max"} per argument, numbers as the program passed them]}].
void kx_usdt_json_member(const struct kx_stats *s, FILE *f);

#endif
