// SPDX-License-Identifier: MIT
// The device timer of the AArch64 boards, for programs: the generic timer's EL1 physical timer
// (CNTP_*), which a program may program from EL0 while it holds the board's device-timer window
// (the kernel sets CNTKCTL_EL1.EL0PTEN while it runs). Periodic by moving the compare value on
// by one period at each interrupt (the timer's condition is level: it holds until CVAL moves
// past the count). The board's board_user.h includes this and names the line (DEVTIMER_IRQ).
#ifndef DEVTIMER_A64_H
#define DEVTIMER_A64_H

#include <stdint.h>

// The period, for devtimer_ack (one per source file: each program starts and acknowledges
// the timer from the same file).
static uint32_t devtimer_period __attribute__((unused));

static inline void devtimer_start(uint32_t period_cycles)
{
    uint64_t now;
    __asm__ volatile("isb\n\tmrs %0, cntpct_el0" : "=r"(now));
    devtimer_period = period_cycles;
    __asm__ volatile("msr cntp_cval_el0, %0\n\t"
                     "msr cntp_ctl_el0, %1\n\tisb"
                     :: "r"(now + period_cycles), "r"(1ul) : "memory");
}

static inline void devtimer_ack(void)
{
    uint64_t cval;
    __asm__ volatile("mrs %0, cntp_cval_el0" : "=r"(cval));
    __asm__ volatile("msr cntp_cval_el0, %0\n\tisb" :: "r"(cval + devtimer_period) : "memory");
}

// The count at which the timer fires (or fired: until devtimer_ack moves it on), for a driver
// that times its own latency against it (smpstress's st_drv).
static inline uint64_t devtimer_deadline(void)
{
    uint64_t cval;
    __asm__ volatile("mrs %0, cntp_cval_el0" : "=r"(cval));
    return cval;
}

static inline void devtimer_stop(void)
{
    __asm__ volatile("msr cntp_ctl_el0, %0\n\tisb" :: "r"(0ul) : "memory");
}

// The device timer at a rate in Hz (the interrupt-rate test, acq): it counts at the generic
// timer's frequency (CNTFRQ), so the period is CNTFRQ / hz. Returns the rate programmed.
static inline uint32_t devtimer_start_hz(uint32_t hz)
{
    uint64_t freq;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(freq));
    uint32_t period = (uint32_t)(freq / hz);
    devtimer_start(period);
    return (uint32_t)(freq / period);
}

#endif
