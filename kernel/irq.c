// SPDX-License-Identifier: MIT
// Interrupt attachment and dispatch. A line is free, owned by a kernel driver (handler called
// in the kernel), or attached by one process as an event: the line is masked when it fires and
// a pulse goes to the process's connection; the driver thread unmasks it when done
// (InterruptUnmask), so a level-triggered device cannot storm the CPU. Mask nesting is not
// counted: masked is masked.
// Synthetic lines (KIRQ_TRACE) have no hardware: the kernel raises them with a value that
// rides in the pulse, and they are never masked (every notification counts).
#include <kernel/irq.h>
#include <kernel/ipc.h>
#include <kernel/proc.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/ktrace.h>
#include <uapi/ktrace.h>

enum irq_kind { IRQ_FREE = 0, IRQ_KERNEL, IRQ_EVENT };

struct irq_line {
    enum irq_kind kind;
    irq_handler_fn fn;
    void *arg;
    struct proc *proc;
    int32_t coid;
    int32_t code;
    int prio;           // of the pulses (the attaching thread's priority)
    bool masked;
    uint32_t count;
    uint32_t lost;      // synthetic raises whose pulse could not be queued
    struct pulse pend;  // the line's own pulse: its delivery needs nothing from the pool
};

#define NLINES (KMAX_IRQS + 1)     // device lines, then KIRQ_TRACE
_Static_assert(KIRQ_TRACE == KMAX_IRQS, "the synthetic line follows the device lines");
static struct irq_line lines[NLINES];
uint64_t k_irq_count;

#define IRQ_ID_BASE 1

void irq_init(void)
{
    kmemset(lines, 0, sizeof(lines));
    k_irq_count = 0;
}

void irq_attach_kernel(unsigned irq, irq_handler_fn fn, void *arg)
{
    KASSERT(irq < KMAX_IRQS && lines[irq].kind == IRQ_FREE, "kernel irq attach");
    lines[irq].kind = IRQ_KERNEL;
    lines[irq].fn = fn;
    lines[irq].arg = arg;
    arch_irq_enable(irq);
}

int irq_attach_event(struct proc *p, int prio, unsigned irq, int coid, int32_t code)
{
    bool synthetic = irq == KIRQ_TRACE;
    if (!(p->app->flags & (synthetic ? KAPP_F_TRACE : KAPP_F_IO)))
        return -EPERM;
    if (!synthetic && (irq >= KMAX_IRQS || !board_irq_user_ok(irq)))
        return -EINVAL;
    if (lines[irq].kind != IRQ_FREE)
        return -EBUSY;
    if (code < KPULSE_CODE_MIN_USER)
        return -EINVAL;
    if (!ipc_conn_ok(p, coid))
        return -EBADF;
    struct irq_line *l = &lines[irq];
    l->kind = IRQ_EVENT;
    l->proc = p;
    l->coid = coid;
    l->code = code;
    l->prio = prio;
    l->masked = false;
    if (!synthetic)
        arch_irq_enable(irq);
    return (int)irq + IRQ_ID_BASE;
}

static struct irq_line *line_of(const struct proc *p, int id)
{
    int irq = id - IRQ_ID_BASE;
    if (irq < 0 || irq >= NLINES || lines[irq].kind != IRQ_EVENT || lines[irq].proc != p)
        return NULL;
    return &lines[irq];
}

int irq_detach(struct proc *p, int id)
{
    struct irq_line *l = line_of(p, id);
    if (!l)
        return -EINVAL;
    if (id - IRQ_ID_BASE < KMAX_IRQS)
        arch_irq_disable((unsigned)(id - IRQ_ID_BASE));
    ipc_pulse_cancel(&l->pend);
    kmemset(l, 0, sizeof(*l));
    return 0;
}

int irq_mask(struct proc *p, unsigned irq, int id, bool mask)
{
    struct irq_line *l = line_of(p, id);
    if (!l || (unsigned)(id - IRQ_ID_BASE) != irq)
        return -EINVAL;
    l->masked = mask;
    if (irq >= KMAX_IRQS)
        return 0;
    if (mask)
        arch_irq_disable(irq);
    else
        arch_irq_enable(irq);
    return 0;
}

int irq_trigger(struct proc *p, unsigned irq)
{
    if (irq >= KMAX_IRQS)
        return -EINVAL;
    if (lines[irq].kind != IRQ_EVENT || lines[irq].proc != p)
        return -EPERM;
    arch_irq_set_pending(irq);
    return 0;
}

void irq_raise_synthetic(unsigned irq, int32_t value)
{
    struct irq_line *l = &lines[irq];
    if (irq < KMAX_IRQS || irq >= NLINES || l->kind != IRQ_EVENT)
        return;         // nobody listens: the logger finds full buffers when it looks
    l->count++;
    ktrace_int_handler(irq, (uint32_t)l->proc->pid, 0, 0);
    if (ipc_irq_pulse(l->proc, l->coid, l->prio, l->code, value, &l->pend) < 0)
        l->lost++;
    ktrace_int(KEV_INT_HANDLER_EXIT, irq, (uint32_t)l->proc->pid);
}

void irq_dispatch(unsigned irq)
{
    k_irq_count++;
    if (irq >= KMAX_IRQS) {
        kprintf("kernel: interrupt %u out of range, ignored\n", irq);
        return;
    }
    struct irq_line *l = &lines[irq];
    l->count++;
    ktrace_int(KEV_INT_ENTER, irq, 0);
    switch (l->kind) {
    case IRQ_KERNEL:
        ktrace_int_handler(irq, 0, (uintptr_t)l->fn, (uintptr_t)l->arg);
        l->fn(irq, l->arg);
        ktrace_int(KEV_INT_HANDLER_EXIT, irq, 0);
        break;
    case IRQ_EVENT:
        arch_irq_disable(irq);
        l->masked = true;
        ktrace_int_handler(irq, (uint32_t)l->proc->pid, 0, 0);
        if (ipc_irq_pulse(l->proc, l->coid, l->prio, l->code, (int32_t)irq, &l->pend) < 0)
            kprintf("kernel: interrupt %u: pulse to pid %d lost\n", irq, (int)l->proc->pid);
        ktrace_int(KEV_INT_HANDLER_EXIT, irq, (uint32_t)l->proc->pid);
        break;
    default:
        arch_irq_disable(irq);
        kprintf("kernel: spurious interrupt %u, line disabled\n", irq);
        break;
    }
    ktrace_int(KEV_INT_EXIT, irq, 0);
}

void irq_proc_gone(struct proc *p)
{
    for (unsigned i = 0; i < NLINES; i++) {
        if (lines[i].kind == IRQ_EVENT && lines[i].proc == p) {
            if (i < KMAX_IRQS)
                arch_irq_disable(i);
            ipc_pulse_cancel(&lines[i].pend);
            kmemset(&lines[i], 0, sizeof(lines[i]));
        }
    }
}
