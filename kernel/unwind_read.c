// SPDX-License-Identifier: MIT
// The unwinders' checked readers (kernel/unwind.h): a process's memory, only what
// proc_can_read allows it (its RAM, flash and mappings: never the kernel's, another
// process's or unmapped memory), and a kernel stack within the walk's bounds. Neither faults.
#include <kernel/unwind.h>
#include <kernel/proc.h>
#include <string.h>

int unwind_read_user(const void *ctx, uint64_t addr, void *dst, unsigned n)
{
    const struct proc *p = ctx;
    if (addr > UINT32_MAX || !proc_can_read(p, (uint32_t)addr, n))
        return -1;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}

int unwind_read_bounded(const void *ctx, uint64_t addr, void *dst, unsigned n)
{
    const struct unwind_mem *m = ctx;
    if (addr < m->lo || addr >= m->hi || m->hi - addr < n)
        return -1;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}
