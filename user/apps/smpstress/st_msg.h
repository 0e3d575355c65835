// SPDX-License-Identifier: MIT
// What smpstress's message tests share: a request (its number; a receive buffer must be able
// to hold a pulse), and the kernel's count of entries taken on the big lock's exclusive side,
// around which the tests of the shared side count.
#ifndef SMPSTRESS_ST_MSG_H
#define SMPSTRESS_ST_MSG_H
#include <kern.h>
#include <stdint.h>

union request {
    uint32_t v;
    struct kpulse pulse;
};

static inline uint32_t exclusive_entries(void)
{
    uint32_t v = 0;
    SysInfo(KSYSINFO_KENTRIES_EXCLUSIVE, &v);
    return v;
}

#endif
