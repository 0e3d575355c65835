// SPDX-License-Identifier: MIT
// The data cache seen from outside the CPUs (kernel/include/kernel/trace_port_kernel.h's
// trace_port_publish and trace_port_fetch; kernel/arch/aarch64/include/arch_cache.h has the
// contract). x86 keeps its caches coherent with every bus master, a debugger's included: nothing
// to clean.
#ifndef ARCH_CACHE_H
#define ARCH_CACHE_H

#include <stddef.h>

#define ARCH_DCACHE 0

static inline void arch_dcache_publish(const void *p, size_t n) { (void)p, (void)n; }
static inline void arch_dcache_fetch(const void *p, size_t n) { (void)p, (void)n; }

#endif
