// SPDX-License-Identifier: MIT
// The data cache seen from outside the CPUs (kernel/include/kernel/trace_port_kernel.h's
// trace_port_publish and trace_port_fetch; kernel/arch/aarch64/include/arch_cache.h has the
// contract). x86 keeps its caches coherent with every bus master, a debugger's included: nothing
// to clean.
#ifndef ARCH_CACHE_H
#define ARCH_CACHE_H

#include <kernel/arch_cache_coherent.h>

#endif
