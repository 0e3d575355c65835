// SPDX-License-Identifier: MIT
// The wait analysis (trace/kev_wait.c) as text, for kevstat (kx_wait_text.c).
#ifndef TOOLS_KX_WAIT_TEXT_H
#define TOOLS_KX_WAIT_TEXT_H

#include "../analysis/kx_stats.h"

// The "waits" section: sources, inversions, boosts, deadlocks, threads still blocked.
void kx_wait_print(const struct kx_stats *s);
// One part of a split critical-path step, on one line after indent.
void kx_wait_print_part(const struct kx_stats *s, const struct kw_part *p, const char *indent);

#endif
