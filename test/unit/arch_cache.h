// SPDX-License-Identifier: MIT
// The host unit tests' <arch_cache.h> (kernel/arch/aarch64/include/arch_cache.h has the
// contract): the host's memory is coherent, nothing to clean.
#ifndef ARCH_CACHE_H
#define ARCH_CACHE_H

#include <kernel/arch_cache_coherent.h>

#endif
