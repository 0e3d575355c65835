// SPDX-License-Identifier: MIT
// D's lockstat spin probes (kernel/kdtrace.c) for the unit tests that link the kernel's locks
// without the D engine: never enabled, so every lock takes its plain path; reaching a probed
// path is a bug in the test.
#include <stdbool.h>
#include <stdlib.h>

struct kspin;
bool kspin_probed;
void kspin_lock_probed(struct kspin *l, unsigned rank);
void kspin_unlock_probed(struct kspin *l, unsigned rank);

void kspin_lock_probed(struct kspin *l, unsigned rank)
{
    (void)l;
    (void)rank;
    abort();
}

void kspin_unlock_probed(struct kspin *l, unsigned rank)
{
    (void)l;
    (void)rank;
    abort();
}
