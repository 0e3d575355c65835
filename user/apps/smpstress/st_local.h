// SPDX-License-Identifier: MIT
// smpstress's test of the calls that touch only their caller and the clock, on every CPU at
// once (st_local.c): prints its TAP line numbered `testno`; true when it passed. Its threads'
// stacks: one of stack_size bytes for each CPU but the first, from `stacks`.
#ifndef SMPSTRESS_ST_LOCAL_H
#define SMPSTRESS_ST_LOCAL_H
#include <stdbool.h>
#include <stdint.h>

bool local_test(uint32_t ncpu, unsigned testno, void *stacks, uint32_t stack_size,
                bool virtual_time);

#endif
