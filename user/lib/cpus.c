// SPDX-License-Identifier: MIT
// The CPU count and the wrapping binding of cpus.h. The count is written once, by main's first
// call, before any thread that binds itself is created, and only read after.
#include <kern.h>
#include <uapi/kapi.h>

#include <cpus.h>

static unsigned ncpus;

unsigned cpus_count(void)
{
    if (!ncpus) {
        uint32_t n = 0;
        SysInfo(KSYSINFO_NCPUS, &n);
        ncpus = n ? n : 1u;
    }
    return ncpus;
}

int cpus_bind(unsigned cpu)
{
    return ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << (cpu % cpus_count())));
}
