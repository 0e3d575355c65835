// SPDX-License-Identifier: MIT
// smpbench's pulse figures (sb_pulses.c): `smpbench pulses`.
#ifndef SMPBENCH_SB_PULSES_H
#define SMPBENCH_SB_PULSES_H
#include <stdint.h>

void pulses_bench(uint32_t ncpu);

#endif
