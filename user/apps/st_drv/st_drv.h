// SPDX-License-Identifier: MIT
// What st_drv reports to smpstress (user/apps/smpstress/st_irq.c), by MsgSend to the channel
// ProcArg() names: once when its line is attached (the parent then tries that line itself and
// replies), once at the end with its counts.
#ifndef ST_DRV_H
#define ST_DRV_H

#include <stdint.h>

enum { ST_DRV_ATTACHED = 1, ST_DRV_DONE = 2, ST_DRV_FAILED = 3 };

#define ST_DRV_NIRQ 400u            // device interrupts taken
#define ST_DRV_RATE_HZ 5000u        // the device timer's rate asked for
#define ST_DRV_HOSTILE_ROUNDS 16u   // rounds of wrong InterruptMask / InterruptUnmask calls

struct st_drv_report {
    uint32_t phase;
    uint32_t line;                  // the device timer's line, and its id
    int32_t id;
    uint32_t hz;                    // the rate programmed
    uint32_t n, other, timeouts;    // interrupts taken, other pulses, waits of 100 ms with none
    uint32_t span_cycles;           // the generic timer's count from the first to the last
    uint32_t excl, ticks;           // exclusive kernel entries and kernel ticks meanwhile
    uint32_t lat_sum, lat_max;      // the count from each firing to its pulse's receipt
    uint32_t bad_calls, bad_wrong;  // its own wrong calls, and those not answered EINVAL
    uint32_t bad_excl, bad_ticks;   // exclusive entries and ticks meanwhile
};

#endif
