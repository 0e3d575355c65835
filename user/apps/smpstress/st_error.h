// SPDX-License-Identifier: MIT
// smpstress's test of where MsgError runs (st_error.c): prints its TAP line numbered `testno`;
// true when it passed. The counts of exclusive entries are checked under `virtual_time`
// (-icount) only: on the host's clock the ticks among them follow the host's speed. The server runs on `stack` (a free one of the caller's).
#ifndef SMPSTRESS_ST_ERROR_H
#define SMPSTRESS_ST_ERROR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool error_test(uint32_t ncpu, unsigned testno, void *stack, size_t stack_size,
                bool virtual_time);

#endif
