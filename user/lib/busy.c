// SPDX-License-Identifier: MIT
// The calibrated busy loop and CPU binding of busy.h.
#include <kern.h>

#include <busy.h>

int busy_on_cpu0(void)
{
    return ThreadCtl(KTCTL_RUNMASK, (void *)1u);
}

void busy_spin(uint32_t n)
{
    for (volatile uint32_t i = 0; i < n; i++)
        ;
}

uint32_t busy_calibrate(uint32_t cps)
{
    uint64_t best = 0;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t t0 = ClockCycles();
        busy_spin(20000);
        uint64_t d = ClockCycles() - t0;
        if (!best || d < best)
            best = d;
    }
    return (uint32_t)(20000ull * cps / 1000u / (best ? best : 1));
}

void busy_us(uint32_t loops_per_ms, uint32_t us)
{
    busy_spin((uint32_t)((uint64_t)loops_per_ms * us / 1000u));
}
