// SPDX-License-Identifier: MIT
// smpstress's pulse test (st_pulse.c): prints its TAP line numbered `testno`; true when it passed.
#ifndef SMPSTRESS_ST_PULSE_H
#define SMPSTRESS_ST_PULSE_H
#include <stdbool.h>
#include <stdint.h>

// `virtual_time`: the run's clock is QEMU's instruction count (st_wake.h).
bool pulse_test(uint32_t ncpu, unsigned testno, bool virtual_time);
// Not 0: the senders sleep this long on every refusal (a variant, smpstress's refusal-sleep=).
extern uint64_t pulse_refusal_sleep_ns;

#endif
