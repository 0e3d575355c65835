// SPDX-License-Identifier: MIT
// The host unit tests' <arch_cache.h> (kernel/arch/aarch64/include/arch_cache.h has the
// contract): the host's memory is coherent, nothing to clean.
#ifndef ARCH_CACHE_H
#define ARCH_CACHE_H

#include <stddef.h>

#define ARCH_DCACHE 0

static inline void arch_dcache_publish(const void *p, size_t n) { (void)p, (void)n; }
static inline void arch_dcache_fetch(const void *p, size_t n) { (void)p, (void)n; }

#endif
