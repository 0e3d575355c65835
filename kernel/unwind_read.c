// SPDX-License-Identifier: MIT
// The unwinders' checked reader of a process's memory (kernel/arch_upcall.h: the arch's
// unwinders call it back): only what proc_can_read allows (its RAM, flash and mappings: never
// the kernel's, another process's or unmapped memory). It does not fault.
#include <kernel/unwind.h>
#include <kernel/kview.h>
#include <kernel/arch_upcall.h>
#include <string.h>

int unwind_read_user(const void *ctx, uint64_t addr, void *dst, unsigned n)
{
    const struct proc *p = ctx;
    if (addr > UINT32_MAX || !proc_can_read(p, (uint32_t)addr, n))
        return -1;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}
