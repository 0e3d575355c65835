// SPDX-License-Identifier: MIT
// <arch_cache.h> where memory is coherent with whatever reads it from outside the CPUs (no data
// cache, or one the bus keeps coherent): nothing to clean, nothing to invalidate. The contract
// is kernel/arch/aarch64/include/arch_cache.h's; an architecture's arch_cache.h includes this.
#ifndef KERNEL_ARCH_CACHE_COHERENT_H
#define KERNEL_ARCH_CACHE_COHERENT_H

#include <stddef.h>

#define ARCH_DCACHE 0

static inline void arch_dcache_publish(const void *p, size_t n) { (void)p, (void)n; }
static inline void arch_dcache_fetch(const void *p, size_t n) { (void)p, (void)n; }

#endif
