// SPDX-License-Identifier: MIT
// smpstress's mutex and semaphore tests on every CPU at once (st_sync.c).
#ifndef ST_SYNC_H
#define ST_SYNC_H

#include <stdint.h>

// Runs tests 5 to 8 on `ncpu` CPUs and prints their TAP lines; the number that failed.
int st_sync_tests(uint32_t ncpu);

#endif
