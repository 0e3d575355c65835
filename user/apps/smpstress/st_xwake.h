// SPDX-License-Identifier: MIT
// smpstress's cross-CPU wake-ups (st_xwake.c), run alone (`smpstress xwake`) for a capture of
// them: prints its TAP line numbered `testno`; true when it passed.
#ifndef SMPSTRESS_ST_XWAKE_H
#define SMPSTRESS_ST_XWAKE_H
#include <stdbool.h>
#include <stdint.h>

bool xwake_test(uint32_t ncpu, unsigned testno, void *stacks, uint32_t stack_size);

#endif
