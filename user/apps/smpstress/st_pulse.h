// SPDX-License-Identifier: MIT
// smpstress's pulse test (st_pulse.c): prints its TAP line numbered `testno`; true when it passed.
#ifndef SMPSTRESS_ST_PULSE_H
#define SMPSTRESS_ST_PULSE_H
#include <stdbool.h>
#include <stdint.h>

bool pulse_test(uint32_t ncpu, unsigned testno);

#endif
