// SPDX-License-Identifier: MIT
// The kernel's own variables as a range of memory: its .data, .bss and probe area, between the linker
// script's symbols (ldscripts/kernel.ld.S). D's `name reads only there (kdtrace.c, kdt_kread),
// so a kernel variable's address can never name a device, the text or another's memory. A file
// of its own so that the host's unit tests, which have no such sections, give their own.
#include <kernel/kdata.h>

extern uint8_t __data_start[], __data_end[], __bss_start[], __bss_end[], __probe_start[],
    __probe_end[];

static bool inside(uint64_t addr, unsigned n, const uint8_t *lo, const uint8_t *hi)
{
    return addr >= (uintptr_t)lo && addr <= (uintptr_t)hi && n <= (uintptr_t)hi - addr;
}

bool kdata_holds(uint64_t addr, unsigned n)
{
    return inside(addr, n, __data_start, __data_end) || inside(addr, n, __bss_start, __bss_end) ||
           inside(addr, n, __probe_start, __probe_end);
}
