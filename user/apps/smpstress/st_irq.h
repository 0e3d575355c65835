// SPDX-License-Identifier: MIT
// smpstress's test of device interrupts and InterruptUnmask on the kernel lock's shared side
// (st_irq.c): prints its TAP line numbered `testno`; true when it passed.
#ifndef SMPSTRESS_ST_IRQ_H
#define SMPSTRESS_ST_IRQ_H
#include <stdbool.h>
#include <stdint.h>

bool irq_test(unsigned testno, bool virtual_time);

#endif
