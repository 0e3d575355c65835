// SPDX-License-Identifier: MIT
// ClockCycles() on the Cortex-M: the kernel's cycle count is a device timer's value and a high
// word the kernel keeps at its wrap (boards/*/timer_*.c), both out of a program's reach (the MPU),
// so it stays a kernel call (user/lib/kcalls.c), traced like any other; docs/applications.md
// says what it costs and how to leave it out of a trace.
#ifndef USER_CYCLES_H
#define USER_CYCLES_H
#include <stdint.h>
#define USER_CYCLES 0
#endif
