// SPDX-License-Identifier: MIT
// pid probes where the kernel cannot place them (kernel/kpid.h, docs/pid.md): programs whose
// text is flash, or an architecture without the trap and the emulation yet. A D program that
// enables a pid probe is refused with the reason; no fault is ever a pid site's trap.
#include <kernel/kpid.h>
#include <kernel/kdtrace.h>
#include <d/dvm.h>
#include <d/dprobes.h>
#include <uapi/kerrno.h>

int kpid_enable(struct dvm_state *st, const struct proc *consumer, const char **why)
{
    (void)consumer;
    if (!dif_enables_range(&st->obj, DPROBE_PID_BASE, DPROBE_PID_END))
        return 0;
    *why = "pid probes cannot be placed on this board: its programs' text cannot be changed, or "
           "its architecture has no pid trap yet (docs/pid.md)";
    return -ENOTSUP;
}

void kpid_disable(void)
{
}

void kpid_proc_gone(const struct proc *p)
{
    (void)p;
}

bool kpid_fault(struct thread *t)
{
    (void)t;
    return false;
}
