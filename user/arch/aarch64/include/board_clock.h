// SPDX-License-Identifier: MIT
// Programs read the generic timer's count as the kernel does (CNTVCT_EL0, open to EL0): the
// one definition, kept with the kernel's AArch64 headers.
#include "../../../../kernel/arch/aarch64/include/board_clock.h"
