// SPDX-License-Identifier: MIT
// TAP output for the on-target test suites (ktest, kt_hostile): one line a check, "ok N - ..."
// or "not ok N - ...", and a closing count whose failures are the program's exit status.
// Opt-in (a suite's app.mk lists user/lib/tap.c in EXTRA).
#ifndef TAP_H
#define TAP_H
#include <stdbool.h>

void tap_check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// Prints "# SUITE: N checks, M failed" and returns M, at most 100 (an exit status).
int tap_done(const char *suite);

#endif
