// SPDX-License-Identifier: MIT
// The wait analysis (trace/kev_wait.c) as text, for kevstat (kx_wait_text.c).
#ifndef TOOLS_KX_WAIT_TEXT_H
#define TOOLS_KX_WAIT_TEXT_H

#include "kx_stats.h"

// "mutex 3", "semaphore 7", "an unknown object".
const char *kx_wait_obj(const struct kx_stats *s, int obj, char *buf, size_t n);
// The "waits" section: sources, inversions, boosts, deadlocks, threads still blocked.
void kx_wait_print(const struct kx_stats *s);
// One part of a split critical-path step, on one line after indent.
void kx_wait_print_part(const struct kx_stats *s, const struct kw_part *p, const char *indent);

// The "waits" member of the JSON object (kx_wait_json.c), after a comma.
void kx_wait_json(const struct kx_stats *s, FILE *f);

#endif
