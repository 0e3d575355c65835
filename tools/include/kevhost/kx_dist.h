// SPDX-License-Identifier: MIT
// A distribution of durations as the analyses keep them (count, sum, min, max and a
// power-of-two histogram like DTrace's quantize): every latency of kx_stats.h, a task's response
// and execution times (kx_task.h). Times in cycles.
#ifndef TOOLS_KX_DIST_H
#define TOOLS_KX_DIST_H

#include <stdint.h>
#include <stdio.h>

#define KX_HIST 65u          // bucket b holds values v with kx_log2_bucket(v) == b

struct kx_dist {
    uint64_t n, sum, min, max;
    uint64_t hist[KX_HIST];
};

void kx_dist_add(struct kx_dist *d, uint64_t v);
// "KEY":{"n","sum","min","max","mean","hist":[[lower bound, count]...]} (kx_stats_json.c)
void kx_dist_json(FILE *f, const char *key, const struct kx_dist *d);

#endif
