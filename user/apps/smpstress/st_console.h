// SPDX-License-Identifier: MIT
// smpstress's test of the console's calls on every CPU at once (st_console.c): prints its TAP
// line numbered `testno`; true when it passed.
#ifndef SMPSTRESS_ST_CONSOLE_H
#define SMPSTRESS_ST_CONSOLE_H
#include <stdbool.h>
#include <stdint.h>

// The lines each worker writes; test/qemu/test_console_cpus.sh counts them on the console.
#define CON_LINES 100u

bool console_test(uint32_t ncpu, unsigned testno, void *stacks, uint32_t stack_size,
                  bool virtual_time);

#endif
