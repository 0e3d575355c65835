// SPDX-License-Identifier: MIT
// smpstress's test 13: the tick on an idle system. Every CPU's timer interrupts it once a
// period; the first CPU to see the period end takes the kernel's tick, which runs exclusive,
// and on the others the interrupt is only their share (KENTRY_CPUTICK), taken on the shared
// side while nothing is traced (kernel/kentry_shared.h). While this thread sleeps IDLE_NS and
// every other CPU idles:
//   - the kernel's tick count (SysInfo TICKS) follows the generic timer's counter read from
//     EL0 (board_clock.h, not the kernel's clock) to within 2 periods: no period's tick was
//     taken as a mere share, whichever CPU saw it first;
//   - the kernel's count of exclusive entries (SysInfo) grows by at most the ticks, a quarter
//     more, and 8 (the sleep's own calls and wake-up), where the shares taken exclusive would
//     add the other CPUs' periods too (ncpu - 1 a tick).
// Both under -icount only: on the host's clock a CPU the host does not run takes its tick late
// (the count catches up when it runs), and a late CPU may take a period's tick where another
// would have; there the test only shows the counts.
#include "st_idle.h"
#include "st_msg.h"
#include <kern.h>
#include <board_clock.h>
#include <stdio.h>

#define IDLE_NS 50000000u

bool idle_test(uint32_t ncpu, unsigned testno, bool virtual_time)
{
    uint32_t tick_ns = 0, t0 = 0, t1 = 0;
    SysInfo(KSYSINFO_TICK_NS, &tick_ns);
    uint64_t period = tick_ns ? ClockCyclesPerSec() / (1000000000u / tick_ns) : 0;
    uint32_t e0 = exclusive_entries();
    SysInfo(KSYSINFO_TICKS, &t0);
    uint64_t c0 = board_cntvct();
    ThreadSleep(IDLE_NS);
    uint64_t c1 = board_cntvct();
    SysInfo(KSYSINFO_TICKS, &t1);
    uint32_t e1 = exclusive_entries();
    uint32_t ticks = t1 - t0, entries = e1 - e0;
    uint64_t periods = period ? (c1 - c0) / period : 0;
    uint32_t bound = ticks + ticks / 4u + 8u;
    bool ok = period && ticks && (!virtual_time || (ticks + 2u >= periods &&
                                                     ticks <= periods + 2u && entries <= bound));
    printf("%s %u - the tick on %lu idle CPUs: %lu ticks in %lu periods of the counter (2 "
           "apart at most), %lu exclusive entries (at most %lu)%s\n", ok ? "ok" : "not ok", testno,
           (unsigned long)ncpu, (unsigned long)ticks, (unsigned long)periods,
           (unsigned long)entries, (unsigned long)bound,
           virtual_time ? "" : "; not checked: the host's clock");
    return ok;
}
