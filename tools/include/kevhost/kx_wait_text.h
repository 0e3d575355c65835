// SPDX-License-Identifier: MIT
// The wait analysis (trace/kev_wait.c) as text, for kevstat (kx_wait_text.c).
#ifndef TOOLS_KX_WAIT_TEXT_H
#define TOOLS_KX_WAIT_TEXT_H

#include <kevhost/kx_stats.h>

// The "waits" section: sources, every wait (read back from `waits`, the records kx_wait_save
// wrote during the pass; NULL: not listed), inversions, boosts, deadlocks, threads still
// blocked.
void kx_wait_print(const struct kx_stats *s, FILE *waits);
// The wait sink (kx_rows.h) that keeps every wait's record in the FILE user (a tmpfile).
void kx_wait_save(void *user, const struct kw_wait *w);
// One part of a split critical-path step, on one line after indent.
void kx_wait_print_part(const struct kx_stats *s, const struct kw_part *p, const char *indent);

#endif
