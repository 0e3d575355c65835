// SPDX-License-Identifier: MIT
// A group of smpstress's numbered tests run in turn, each one's time printed as a TAP comment
// ("# test N took M ms") after its own lines.
#ifndef SMPSTRESS_ST_RUN_H
#define SMPSTRESS_ST_RUN_H
#include <stdbool.h>

// Runs tests[0..n), numbered first, first + 1, ...: the number that failed.
int st_run_timed(bool (*const tests[])(void), unsigned n, unsigned first);

#endif
