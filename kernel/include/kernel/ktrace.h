// SPDX-License-Identifier: MIT
// Trace hooks of the kernel. Each hook is an inline test of the class's bit in ktrace.tr_active
// (a load, a bit test and a branch when the class is off) and an out-of-line call that builds
// the event when it is on. KTRACE_DISABLED compiles every hook away: it exists only to
// measure what the hooks cost when tracing is off (make bench).
#ifndef KERNEL_KTRACE_H
#define KERNEL_KTRACE_H

#include <kernel/kernel.h>
#include <trace/trace_ring.h>

struct thread;
struct proc;

extern struct trace_ring ktrace;

#ifdef KTRACE_DISABLED
#define KTRACE_ON(cls) 0
#else
#define KTRACE_ON(cls) unlikely(trace_on(&ktrace, (cls)))
#endif

void ktrace_init(void);
// The TraceEvent kernel call.
int ktrace_call(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c);
// Raises the synthetic interrupt for buffers that filled during this kernel entry.
void ktrace_deliver(void);
void ktrace_proc_gone(struct proc *p);
extern unsigned ktrace_notes;

// Out-of-line halves of the hooks (ktrace.c).
void ktrace_kcall_entry_ev(struct thread *t, uint32_t n, const uint32_t *args);
void ktrace_kcall_exit_ev(struct thread *t);
void ktrace_state_ev(const struct thread *t);
void ktrace_thread_ev(const struct thread *t, unsigned ev);
void ktrace_thread_name_ev(const struct thread *t);
void ktrace_proc_ev(const struct proc *p, unsigned ev);
void ktrace_int_ev(unsigned ev, uint32_t irq, uint32_t who);
void ktrace_comm_ev(unsigned ev, uint32_t a, uint32_t b);
void ktrace_timer_ev(uint32_t id, uint32_t pid);
void ktrace_switch_ev(const struct thread *next);

// Kernel call entry; the exit is traced when the call returns to its thread (kernel exit).
static inline void ktrace_kcall_entry(struct thread *t, uint32_t n, const uint32_t *args)
{
    if (KTRACE_ON(KEV_C_KER_CALL))
        ktrace_kcall_entry_ev(t, n, args);
}

// A context switch (PID/TID filters need to know who runs).
static inline void ktrace_switch(const struct thread *next)
{
#ifndef KTRACE_DISABLED
    if (unlikely(ktrace.tr_active != 0))
        ktrace_switch_ev(next);
#else
    (void)next;
#endif
}

static inline void ktrace_state(const struct thread *t)
{
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_state_ev(t);
}

static inline void ktrace_thread(const struct thread *t, unsigned ev)
{
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_thread_ev(t, ev);
}

static inline void ktrace_thread_name(const struct thread *t)
{
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_thread_name_ev(t);
}

static inline void ktrace_proc(const struct proc *p, unsigned ev)
{
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_proc_ev(p, ev);
}

static inline void ktrace_int(unsigned ev, uint32_t irq, uint32_t who)
{
    if (KTRACE_ON(KEV_C_INT))
        ktrace_int_ev(ev, irq, who);
}

static inline void ktrace_comm(unsigned ev, uint32_t a, uint32_t b)
{
    if (KTRACE_ON(KEV_C_COMM))
        ktrace_comm_ev(ev, a, b);
}

static inline void ktrace_timer(uint32_t id, uint32_t pid)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_timer_ev(id, pid);
}

#endif
