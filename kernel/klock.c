// SPDX-License-Identifier: MIT
// Several CPUs: the hook lockstat's spin probes hang on (kernel/klock.h klock_probe). The
// kernel's locks are the base layer's, the probes the tracing layer's, which installs them here
// while a D program enables them. The pointer is written under the exclusive lock (KDT_GO, the
// program's stop) and read by every lock's take, in shared mode: the exclusive side waits for
// every shared entry to end before it writes, so a lock's release takes its take's path.
#include <kernel/klock.h>

const struct klock_probe *klock_probe;

void klock_set_probe(const struct klock_probe *p)
{
    klock_probe = p;
}
