// SPDX-License-Identifier: MIT
// smpstress's test of the tick on an idle system (st_idle.c): prints its TAP line numbered
// `testno`; true when it passed.
#ifndef SMPSTRESS_ST_IDLE_H
#define SMPSTRESS_ST_IDLE_H
#include <stdbool.h>
#include <stdint.h>

bool idle_test(uint32_t ncpu, unsigned testno, bool virtual_time);

#endif
