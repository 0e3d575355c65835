// SPDX-License-Identifier: MIT
// A real kernel fault on demand, for the post-mortem test (test/qemu/test_kfault.sh): a
// privileged process's ThreadCtl(KTCTL_KDEBUG_FAULT) makes the kernel load a word from an
// address nothing answers, in kernel mode, so the fault goes through the arch's kernel-fault
// path (kpanic_fault, the KPANIC event) like any kernel bug. This file is not in the kernel
// library: only an image that lists it in <image>_KOBJS (user/module.mk; the test image
// flight.elf) has it, so no process of any other image can reach it (kernel/kcrash.h). Its
// second form faults while holding this CPU's trace buffer lock, as a fault inside the ring's
// own code does: the panic path must still print its message (kernel/kpanic.c).
#include <kernel/kcrash.h>
#include <kernel/proc.h>
#include <kernel/thread.h>
#include <kernel/cpu.h>
#include <kernel/ktrace.h>
#include <uapi/kapi.h>
#include <uapi/kerrno.h>

// Unmapped on every board we run: the top of the 32-bit space (ARMv7-M's vendor system
// region, where QEMU's boards answer with a bus fault; past the AArch64 kernel's map).
#define KCRASH_BAD_ADDR ((uintptr_t)0xfffffff0u)

__attribute__((noinline)) uint32_t kcrash_bad_read(const volatile uint32_t *p)
{
    return *p;
}

static int kdebug_fault(struct thread *t, uint32_t how)
{
    const struct proc *p = t->proc;
    if (!p || !p->app || !(p->app->flags & KAPP_F_PRIV))
        return -EPERM;
    if (how > KDEBUG_FAULT_TRACE_LOCKED)
        return -EINVAL;
    // As a fault in the middle of writing an event leaves it: this CPU's trace buffer lock
    // held by code that never runs again (compiled out on one CPU).
    if (how == KDEBUG_FAULT_TRACE_LOCKED)
        trace_lock(&ktrace.tr_cpu[cpu_id()].tc_lock);
    return (int)kcrash_bad_read((const volatile uint32_t *)KCRASH_BAD_ADDR);
}

int (*kdebug_fault_hook)(struct thread *t, uint32_t how) = kdebug_fault;
