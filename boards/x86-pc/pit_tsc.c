// SPDX-License-Identifier: MIT
// The cycle counter: the TSC, 64 bits, never wraps in practice. Its rate is measured at boot
// against PIT channel 2 (gated by port 0x61, its output readable there too) over 50 ms, and
// reported by board_cycles_per_sec(). Under QEMU without -icount the TSC follows the host's
// clock, so the figure varies a little from boot to boot.
#include <kernel/board.h>
#include <x86.h>

#define PIT_CH2   0x42
#define PIT_CMD   0x43
#define PORT_B    0x61
#define PIT_HZ    1193182u
#define CAL_MS    50u

static uint32_t tsc_hz;

void tsc_calibrate(void);
void tsc_calibrate(void)
{
    uint32_t count = PIT_HZ * CAL_MS / 1000u;
    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~0x02u) | 0x01u));   // gate on, speaker off
    outb(PIT_CMD, 0xb0);        // channel 2, lo/hi byte, mode 0 (out goes high at zero)
    outb(PIT_CH2, (uint8_t)count);
    outb(PIT_CH2, (uint8_t)(count >> 8));
    // Writing the count restarts the channel in mode 0 (the gate is already high).
    uint64_t t0 = x86_rdtsc();
    while (!(inb(PORT_B) & 0x20))
        ;
    uint64_t t1 = x86_rdtsc();
    tsc_hz = (uint32_t)((t1 - t0) * 1000u / CAL_MS);
    if (tsc_hz < 1000000u)
        kpanic("TSC calibration: %u Hz", (unsigned)tsc_hz);
}

uint64_t board_cycles(void)
{
    return x86_rdtsc();
}

uint32_t board_cycles_per_sec(void)
{
    return tsc_hz;
}
