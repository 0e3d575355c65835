// SPDX-License-Identifier: MIT
// The kernel's own variables (kernel/kdata.c): whether [addr, addr + n) lies in its .data or
// .bss, where D's `name may read (docs/fbt.md, "Kernel variables").
#ifndef KERNEL_KDATA_H
#define KERNEL_KDATA_H

#include <stdbool.h>
#include <stdint.h>

bool kdata_holds(uint64_t addr, unsigned n);

#endif
