// SPDX-License-Identifier: MIT
// The data cache seen from outside the CPUs (kernel/include/kernel/trace_port_kernel.h's
// trace_port_publish and trace_port_fetch; kernel/arch/aarch64/include/arch_cache.h has the
// contract). The Cortex-M3 and M4 have no data cache: a debug probe's AHB-AP reads what the CPU
// stored (a Cortex-M7's cache would need cleaning, as kernel/arch/aarch64/include/arch_cache.h
// does; no board here has one).
#ifndef ARCH_CACHE_H
#define ARCH_CACHE_H

#include <kernel/arch_cache_coherent.h>

#endif
