// SPDX-License-Identifier: MIT
// smpstress's wake-up test (st_wake.c): prints its TAP line numbered `testno`; true when it
// passed. `virtual_time`: the run's clock is QEMU's instruction count (-icount), where the
// lateness bound holds (st_sleep.c); on the host's clock only early ends and stalls fail.
#ifndef SMPSTRESS_ST_WAKE_H
#define SMPSTRESS_ST_WAKE_H
#include <stdbool.h>
#include <stdint.h>

extern uint32_t wake_no_pulses, wake_hold_on_stall;     // not 0: the sleepers alone (part a)
bool wake_test(uint32_t ncpu, unsigned testno, bool virtual_time);

#endif
