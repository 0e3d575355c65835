// SPDX-License-Identifier: MIT
// USDT probes where the kernel cannot place them (kernel/kusdt.h, docs/usdt.md): programs
// whose text is flash, or an architecture without the trap yet. A D program that enables a
// USDT probe is refused with the reason; no fault is ever a site's trap.
#include <kernel/kusdt.h>
#include <kernel/kdtrace.h>
#include <d/dvm.h>
#include <d/dprobes.h>
#include <uapi/kerrno.h>

int kusdt_enable(struct dvm_state *st, const struct proc *consumer, const char **why)
{
    (void)consumer;
    if (!dif_enables_range(&st->obj, DPROBE_USDT_BASE, DPROBE_USDT_END))
        return 0;
    *why = "USDT probes cannot be placed on this board: its programs' text cannot be changed "
           "(docs/usdt.md)";
    return -ENOTSUP;
}

void kusdt_disable(void)
{
}

void kusdt_proc_start(const struct proc *p)
{
    (void)p;
}

bool kusdt_fault(struct thread *t)
{
    (void)t;
    return false;
}
