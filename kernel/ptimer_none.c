// SPDX-License-Identifier: MIT
// A board without a profile timer (kernel/ptimer.h): none present, nothing to arm. The
// profile provider then runs from the tick (kernel/kprof.c). Weak: a board or architecture
// that has one defines both.
#include <kernel/ptimer.h>

__attribute__((weak)) bool ptimer_present(void)
{
    return false;
}

__attribute__((weak)) void ptimer_arm(unsigned cpu, uint64_t at)
{
    (void)cpu;
    (void)at;
}
