// SPDX-License-Identifier: MIT
// Interrupt attachment and dispatch. A line is free, owned by a kernel driver (handler called
// in the kernel), or attached by one process as an event: the line is masked when it fires and
// a pulse goes to the process's connection; the driver thread unmasks it when done
// (InterruptUnmask), so a level-triggered device cannot storm the CPU. Mask nesting is not
// counted: masked is masked.
// Synthetic lines (KIRQ_TRACE) have no hardware: the kernel raises them with a value that
// rides in the pulse, and they are never masked (every notification counts).
// Locking (kernel/klock.h). Everything here runs under the big lock's exclusive side, except,
// with several CPUs, an interrupt on a line attached as an event (irq_dispatch_shared, from the
// arch's entry, kernel/arch/<arch>/cpu.c) and InterruptMask / InterruptUnmask (irq_mask_shared,
// from kernel/kentry_shared.h), which run on its shared side: a line's `masked`, its enable in
// the interrupt controller and its counts under the line's own lock (`lock`, rank IRQ, a leaf:
// taken with no other lock held and nothing taken under it), its pulse `pend` under its
// channel's lock once queued (ipc.c). Its kind, process, connection, code and priority are only
// read there: they change on the exclusive side alone (attach, detach, a process's end), which
// runs while no shared entry does. Anything unusual goes exclusive having changed nothing: a
// kernel driver's line, the synthetic line, a line raised in software, a process being torn
// down, a connection gone, the line's own pulse still queued, D running.
#include <kernel/irq.h>
#include <kernel/ipc.h>
#include <kernel/proc.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/ktrace.h>
#include <kernel/smp.h>
#include <kernel/sched.h>
#include <kernel/thread.h>
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
    uint32_t lost;      // interrupts and synthetic raises whose pulse could not be queued
    struct pulse pend;  // the line's own pulse: its delivery needs nothing from the pool
    struct kspin lock;  // masked, the controller's enable, count, lost in shared mode
};

#define NLINES (KMAX_IRQS + 1)     // device lines, then KIRQ_TRACE
_Static_assert(KIRQ_TRACE == KMAX_IRQS, "the synthetic line follows the device lines");
static struct irq_line lines[NLINES];
uint64_t k_irq_count;
// Lines of one CPU's own (arch_irq_cpu) whose process ended on another CPU, so their enable
// could not be cleared there: their CPU disables one at its next interrupt, without calling it
// spurious (a device timer the program left running). Exclusive side.
static uint32_t orphaned;
_Static_assert(KMAX_IRQS <= 32, "orphaned: a bit per device line");

#define IRQ_ID_BASE 1

void irq_init(void)
{
    kmemset(lines, 0, sizeof(lines));
    k_irq_count = 0;
}

// A line whose enable one CPU's interrupt controller alone holds (kernel/arch.h arch_irq_cpu:
// AArch64's device timer) is attached, masked, unmasked and detached on that CPU, and the
// thread that does it is the device's user: bound there for good, as touching the device's
// registers elsewhere binds it (so that its interrupts' pulses find it there, and it never
// waits to move), wherever it calls from. A call from another CPU is entered again when the
// thread runs there. True when the call may go on here; false when it goes again there (its
// result is not written: the caller is not running). Always true with one CPU.
static inline bool on_line_cpu(unsigned irq)
{
    int c = smp_irq_cpu(irq);
    if (c < 0)
        return true;
    struct thread *t = k_current;
    sched_bind_fixed(t, 1u << c);
    if ((unsigned)c == cpu_id())
        return true;
    t->kc_trace = 0;    // its traced entry has no exit: the call is entered again
    smp_kc_restart(t);
    return false;
}

// A mask or unmask the shared side leaves to the exclusive one: a CPU's own line called from
// another CPU, or by a thread not bound to it yet (on_line_cpu moves or binds it).
static bool line_binds(unsigned irq)
{
    int c = irq < KMAX_IRQS ? smp_irq_cpu(irq) : -1;
    return c >= 0 && ((unsigned)c != cpu_id() || !k_current->affinity_fixed);
}

void irq_attach_kernel(unsigned irq, irq_handler_fn fn, void *arg)
{
    KASSERT(irq < KMAX_IRQS && lines[irq].kind == IRQ_FREE, "kernel irq attach");
    lines[irq].kind = IRQ_KERNEL;
    lines[irq].fn = fn;
    lines[irq].arg = arg;
    arch_irq_enable(irq);
}

// A refused attach, said once a process on the console: EPERM and EINVAL alone read as a bad
// argument. The lines the board gives programs are listed as ranges (board_irq_user_ok; the
// devices behind them: docs/boards.md, "Devices for programs").
static void say_refused(struct proc *p, unsigned irq, int err)
{
    if (p->irq_refusal_said)
        return;
    p->irq_refusal_said = true;
    if (err == -EPERM) {
        kprintf("kernel: process %d (%s): InterruptAttachEvent of line %u refused (EPERM): "
                "its app.mk gives no %s\n", (int)p->pid, p->name, irq,
                irq == KIRQ_TRACE ? "KAPP_F_TRACE" : "KAPP_F_IO");
        return;
    }
    char lines[96];
    size_t n = 0;
    for (unsigned i = 0; i < KMAX_IRQS && n + 12 < sizeof(lines); i++) {
        if (!board_irq_user_ok(i) || (i > 0 && board_irq_user_ok(i - 1)))
            continue;
        unsigned last = i;
        while (last + 1 < KMAX_IRQS && board_irq_user_ok(last + 1))
            last++;
        n += (size_t)ksnprintf(lines + n, sizeof(lines) - n, n ? ", %u" : "%u", i);
        if (last > i)
            n += (size_t)ksnprintf(lines + n, sizeof(lines) - n, "-%u", last);
    }
    kprintf("kernel: process %d (%s): InterruptAttachEvent of line %u refused (EINVAL): not a "
            "line for programs on %s; its lines: %s\n", (int)p->pid, p->name, irq, board_name(),
            n ? lines : "none");
}

int irq_attach_event(struct proc *p, int prio, unsigned irq, int coid, int32_t code)
{
    bool synthetic = irq == KIRQ_TRACE;
    if (!(p->app->flags & (synthetic ? KAPP_F_TRACE : KAPP_F_IO))) {
        say_refused(p, irq, -EPERM);
        return -EPERM;
    }
    if (!synthetic && (irq >= KMAX_IRQS || !board_irq_user_ok(irq))) {
        say_refused(p, irq, -EINVAL);
        return -EINVAL;
    }
    if (lines[irq].kind != IRQ_FREE)
        return -EBUSY;
    if (code < KPULSE_CODE_MIN_USER)
        return -EINVAL;
    if (!ipc_conn_ok(p, coid))
        return -EBADF;
    if (!synthetic && !on_line_cpu(irq))
        return 0;
    struct irq_line *l = &lines[irq];
    l->kind = IRQ_EVENT;
    l->proc = p;
    l->coid = coid;
    l->code = code;
    l->prio = prio;
    l->masked = false;
    if (!synthetic) {
        orphaned &= ~(1u << irq);
        arch_irq_enable(irq);
    }
    return (int)irq + IRQ_ID_BASE;
}

static inline void line_lock(struct irq_line *l, const bool shared)
{
    if (shared)
        kspin_lock(&l->lock, KLOCK_RANK_IRQ);
}

static inline void line_unlock(struct irq_line *l, const bool shared)
{
    if (shared)
        kspin_unlock(&l->lock, KLOCK_RANK_IRQ);
}

// What InterruptMask / InterruptUnmask leave to the exclusive side: the synthetic line, and an
// unmask of a line raised in software and not yet taken (its entry is the exclusive side's
// work left, which only an exclusive entry takes before it returns: arch.h arch_irq_raised).
static bool mask_needs_exclusive(unsigned irq, bool mask)
{
    return irq >= KMAX_IRQS || (!mask && smp_irq_raised(irq));
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
    if (id - IRQ_ID_BASE < KMAX_IRQS && !on_line_cpu((unsigned)(id - IRQ_ID_BASE)))
        return 0;
    if (id - IRQ_ID_BASE < KMAX_IRQS)
        arch_irq_disable((unsigned)(id - IRQ_ID_BASE));
    ipc_pulse_cancel(&l->pend);
    kmemset(l, 0, sizeof(*l));
    return 0;
}

// InterruptMask / InterruptUnmask; `shared` a constant in each copy. A caller that does not
// own the line, or names another line than its id's, gets -EINVAL on either side.
static inline __attribute__((always_inline)) int mask_body(struct proc *p, unsigned irq, int id,
                                                           bool mask, const bool shared)
{
    struct irq_line *l = line_of(p, id);
    if (!l || (unsigned)(id - IRQ_ID_BASE) != irq)
        return -EINVAL;
    if (KSMP && shared && (mask_needs_exclusive(irq, mask) || line_binds(irq)))
        return KSHARED_RETRY;
    if (irq < KMAX_IRQS && !on_line_cpu(irq))
        return 0;
    line_lock(l, shared);
    l->masked = mask;
    if (irq < KMAX_IRQS) {
        if (mask)
            arch_irq_disable(irq);
        else
            arch_irq_enable(irq);
    }
    line_unlock(l, shared);
    return 0;
}

int irq_mask(struct proc *p, unsigned irq, int id, bool mask)
{
    return mask_body(p, irq, id, mask, false);
}

int irq_mask_shared(struct proc *p, unsigned irq, int id, bool mask)
{
    return mask_body(p, irq, id, mask, true);
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

// A pulse that could not be queued: counted, and said on the console. (On the shared side only
// if the line fired on two CPUs at once with the pool full: irq_shared_ok saw its own pulse free.)
static void pulse_lost(struct irq_line *l, unsigned irq, const bool shared)
{
    line_lock(l, shared);
    l->lost++;
    line_unlock(l, shared);
    kprintf("kernel: interrupt %u: pulse to pid %d lost\n", irq, (int)l->proc->pid);
}

static inline __attribute__((always_inline)) int line_pulse(struct irq_line *l, unsigned irq,
                                                            const bool shared)
{
    if (KSMP && shared)
        return ipc_irq_pulse_shared(l->proc, l->coid, l->prio, l->code, (int32_t)irq, &l->pend);
    return ipc_irq_pulse(l->proc, l->coid, l->prio, l->code, (int32_t)irq, &l->pend);
}

// A line attached as an event fired: masked until its driver unmasks it, and a pulse to the
// process's connection, in the line's own storage when it is free.
static inline __attribute__((always_inline)) void event_fire(struct irq_line *l, unsigned irq,
                                                             const bool shared)
{
    line_lock(l, shared);
    l->count++;
    arch_irq_disable(irq);
    l->masked = true;
    line_unlock(l, shared);
    ktrace_int_handler(irq, (uint32_t)l->proc->pid, 0, 0);
    if (line_pulse(l, irq, shared) < 0)
        pulse_lost(l, irq, shared);
    ktrace_int(KEV_INT_HANDLER_EXIT, irq, (uint32_t)l->proc->pid);
}

// An interrupt on line irq (< KMAX_IRQS), with its trace events, for both sides: `shared` (a
// constant in each copy) only for a line irq_shared_ok let through, attached as an event.
static inline __attribute__((always_inline)) void dispatch_body(unsigned irq, const bool shared)
{
    struct irq_line *l = &lines[irq];
    ktrace_int(KEV_INT_ENTER, irq, 0);
    switch (shared ? IRQ_EVENT : l->kind) {
    case IRQ_KERNEL:
        l->count++;
        ktrace_int_handler(irq, 0, (uintptr_t)l->fn, (uintptr_t)l->arg);
        l->fn(irq, l->arg);
        ktrace_int(KEV_INT_HANDLER_EXIT, irq, 0);
        break;
    case IRQ_EVENT:
        event_fire(l, irq, shared);
        break;
    default:
        l->count++;
        arch_irq_disable(irq);
        if (!((orphaned >> irq) & 1u))
            kprintf("kernel: spurious interrupt %u, line disabled\n", irq);
        orphaned &= ~(1u << irq);
        break;
    }
    ktrace_int(KEV_INT_EXIT, irq, 0);
}

void irq_dispatch(unsigned irq)
{
    k_irq_count++;
    if (irq >= KMAX_IRQS) {
        kprintf("kernel: interrupt %u out of range, ignored\n", irq);
        return;
    }
    dispatch_body(irq, false);
}

bool irq_shared_ok(int irq)
{
    if (irq < 0 || irq >= KMAX_IRQS || lines[irq].kind != IRQ_EVENT)
        return false;
    const struct irq_line *l = &lines[irq];
    return l->proc->state == PROC_ALIVE && !l->proc->exiting &&
           ipc_irq_pulse_shared_ok(l->proc, l->coid, &l->pend);
}

void irq_dispatch_shared(unsigned irq)
{
    __atomic_fetch_add(&k_irq_count, 1, __ATOMIC_RELAXED);
    dispatch_body(irq, true);
}

void irq_proc_gone(struct proc *p)
{
    for (unsigned i = 0; i < NLINES; i++) {
        if (lines[i].kind == IRQ_EVENT && lines[i].proc == p) {
            int c = i < KMAX_IRQS ? smp_irq_cpu(i) : -1;
            if (c >= 0 && (unsigned)c != cpu_id())
                orphaned |= 1u << i;    // its CPU disables it (dispatch_body)
            else if (i < KMAX_IRQS)
                arch_irq_disable(i);
            ipc_pulse_cancel(&lines[i].pend);
            kmemset(&lines[i], 0, sizeof(lines[i]));
        }
    }
}
