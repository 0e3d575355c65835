// SPDX-License-Identifier: MIT
// smpstress's tests of priority inheritance across CPUs (st_pi.c).
#ifndef ST_PI_H
#define ST_PI_H

#include <stdint.h>

// Runs tests 14 to 17 on `ncpu` CPUs (3 at least), its threads on the 8 stacks of `stack_size`
// bytes at `stacks`, and prints their TAP lines; the number that failed.
int st_pi_tests(uint32_t ncpu, uint8_t *stacks, uint32_t stack_size);

#endif
