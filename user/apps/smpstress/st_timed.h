// SPDX-License-Identifier: MIT
// smpstress's test of calls with a timeout on the shared side (st_timed.c): prints its TAP line
// numbered `testno`; true when it passed. Its server runs on `stack` (a free one of the
// caller's).
#ifndef SMPSTRESS_ST_TIMED_H
#define SMPSTRESS_ST_TIMED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool timed_test(uint32_t ncpu, unsigned testno, void *stack, size_t stack_size,
                bool virtual_time);

#endif
