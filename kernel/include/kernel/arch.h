// SPDX-License-Identifier: MIT
// What the portable kernel asks of an architecture (kernel/arch/<arch>/ implements it).
// Contract: kernel entry points (kernel calls, the tick, interrupts, faults) all call
// kernel_entry() with the current thread's context saved in k_current->ctx, and on return
// resume whatever thread k_current then names. They never nest.
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include <kernel/kernel.h>
#include <kernel/cpu.h>
#include <kernel/kpanic.h>

struct proc;
struct thread;

enum kentry_kind {
    KENTRY_CALL = 0,    // kernel call (svc)
    KENTRY_TICK = 1,    // periodic tick
    KENTRY_IRQ = 2,     // device interrupt
    KENTRY_RESCHED = 3, // software request: synthetic interrupts, deferred work
    KENTRY_FAULT = 4,   // a thread faulted
    KENTRY_CPUTICK = 5, // this CPU's timer, when another CPU took the kernel's tick (SMP)
    KENTRY_IPI = 6,     // a reschedule IPI from another CPU (SMP): recorded, then the choice
    KENTRY_PROFILE = 7, // this CPU's profile timer (kernel/ptimer.h): samples, profile-N, tick-N
};

void arch_init(void);
void arch_tick_start(uint32_t cycles_per_tick);
// How many tick periods the KENTRY_TICK being handled covers: its own and every one that
// ended unseen while the interrupt waited (interrupts masked, a stall), by a free-running
// counter (kernel/include/kernel/tick_periods.h); 0 for an interrupt that came early by the
// counter (a self-reloading timer a little fast against it). Called once per KENTRY_TICK. 1
// on an arch that cannot tell (kernel/ktimer.c's weak default).
unsigned arch_tick_periods(void);
// The periods that ended by the same counter and no KENTRY_TICK has counted yet (a tick
// interrupt pending, or held up): k_ticks + this is the tick count now (ktimer_now). 0 on an
// arch that cannot tell.
unsigned arch_tick_pending(void);
// Several CPUs: the arch's end of the current period moves on by `periods` (those that
// arch_tick_pending just counted), under the timer list's lock: the kernel's tick taken on
// the shared side (kernel/ktimer.c ktimer_tick_shared).
void arch_tick_claim(unsigned periods);
// Several CPUs: the periods this CPU's own timer interrupt (the kernel's tick or its share of
// it) covers, for its thread's round-robin slice (sched_tick).
unsigned arch_cpu_tick_periods(void);
// Loads the MPU with the regions of a process (NULL: kernel thread, user regions off), and the
// stack guard of this CPU's current thread when it is one of p's (arch_stack_guard).
void arch_mpu_switch(const struct proc *p);
// Loads thread t's stack guard on this CPU: t->stack_guard, the KSTACK_GUARD bytes at the
// bottom of its stack, no access for t until another thread runs here (0: none). Called when
// t is to run after another thread of the same process (arch_mpu_switch does it otherwise).
void arch_stack_guard(const struct thread *t);
// True when [base, base+size) can be one protection region (programs' RAM slots must be).
bool arch_mpu_region_ok(uint32_t base, uint32_t size);
// How to allocate len bytes that a process will see as one read-only mapping (proc map_base,
// map_len): the block's size (>= len) and alignment.
void arch_map_layout(uint32_t len, uint32_t *size, uint32_t *align);
// Builds a new thread's first frame so that the first return from the kernel enters
// entry(arg0, arg1) on stack_top. Returning from entry is a fault: user threads start in a
// runtime trampoline that calls ThreadExit.
bool arch_thread_setup(struct thread *t, uint32_t entry, uint32_t arg0, uint32_t arg1,
                       uint32_t stack_top, bool privileged);
// Kernel-call arguments and results of a thread stopped in a kernel call.
uint32_t arch_call_number(const struct thread *t);
uint32_t arch_call_arg(const struct thread *t, unsigned i);
void arch_set_result(struct thread *t, uint32_t r0);
// Result registers (0: r0, 1: r1) of a thread's finished kernel call, for its trace event.
uint32_t arch_call_result(const struct thread *t, unsigned i);
void arch_set_result2(struct thread *t, uint32_t r0, uint32_t r1);
// Where a thread stopped in the kernel will resume (its saved program counter), for D's
// profile-N probes.
uint32_t arch_thread_pc(const struct thread *t);
// Its stack pointer as it was when it entered the kernel (its user stack), for the report of a
// fault (kernel/kfault_stack.c).
uint32_t arch_thread_sp(const struct thread *t);
// Tells thread t, in a register it can read and not write, the address of the user-event ring
// the kernel took as its own (0: none; kernel/kuring.c), so that the library finds its ring
// without a lookup. A no-op where the architecture has no such register.
void arch_thread_ring_hint(struct thread *t, uint32_t addr);
// Leaves the boot code: `boot` becomes the current thread and ends itself with a kernel call.
_Noreturn void arch_start(struct thread *boot);
void arch_idle_loop(void);
// Tracing in the kernel turned on or off (ktrace_kernel_on changed; under the kernel lock): an
// arch whose exception entry picks kernel_entry_traced by a rewritten call, a second vector
// table or a pointer rather than a test switches here (aarch64 and armv7m entry_select.c, x86
// cpu.c). A no-op elsewhere (ktrace_state.c's weak default).
void arch_trace_entry_select(bool traced);
unsigned arch_current_irq(void);
void arch_irq_enable(unsigned irq);
void arch_irq_disable(unsigned irq);
void arch_irq_set_pending(unsigned irq);
// Asks for a KENTRY_RESCHED entry as soon as the current kernel entry ends.
void arch_request_resched(void);
// A fault taken in thread mode: fills a description for the report, returns the signal.
int arch_fault_info(char *buf, size_t size);
// The same fault for the trace's FAULT event (kernel/ktrace_fault.c; struct arch_fault_where,
// kernel/kpanic.h). Called before arch_fault_info, which may clear the fault status
// (arch/<arch>/fault_where.c).
void arch_fault_where(struct arch_fault_where *w);
// Semihosting call to the debugger/host (only with the board's semihosting enabled).
int32_t arch_semihost(uint32_t op, uint32_t arg);

// Multiprocessor boards (kernel/cpu.h; portable code calls these through kernel/smp.h, which
// on one CPU needs none of them). How many CPUs the machine has (at most KMAX_CPUS;
// CPU 0 is the one running); starting CPUs 1..k_ncpus-1, each into its idle thread; and
// interrupting CPU `cpu` so that it enters the kernel and chooses again.
unsigned arch_cpus_present(void);
void arch_cpus_start(void);
void arch_cpu_kick(unsigned cpu);
// Whether line irq was raised in software (arch_irq_set_pending) and not taken yet: its entry
// is work an exclusive entry leaves, so an unmask that would release it runs exclusive
// (kernel/irq.c). Read on the shared side: only the exclusive side raises and takes lines.
bool arch_irq_raised(unsigned irq);
// Whether the table CPU `cpu` returns its user threads to (its current one) opens any of
// [base, base + size) to EL0: under the exclusive lock, when that memory leaves its process
// (kernel/kunmap.c). An arch whose tables are not per CPU answers for the one they share.
bool arch_mpu_cpu_maps(unsigned cpu, uint32_t base, uint32_t size);
// A device of one CPU's own (docs/interrupts.md "Devices and CPUs"): its interrupt line, whose
// enable only that CPU's interrupt controller holds, and its registers, which each CPU has a
// copy of (AArch64's device timer, the generic timer's CNTP: a per-CPU interrupt). A thread
// that uses it is bound to that CPU (kernel/sched.c sched_bind_fixed) and does what it tried
// again there; its other threads run anywhere.
// arch_irq_cpu: the CPU whose controller alone enables line irq, or -1 when any CPU may
// (kernel/irq.c makes a call on such a line again on its CPU).
int arch_irq_cpu(unsigned irq);
// arch_kc_restart: thread t's kernel call is entered again when t next runs (its arguments
// as the call found them; its result was not written: t is not running).
void arch_kc_restart(struct thread *t);
// arch_fault_retry: a fault of thread t that is its touching a device of another CPU's
// (kernel/main.c, before the fault kills its process): t is bound to that CPU, where its
// instruction runs again; true. False for a fault.
bool arch_fault_retry(struct thread *t);

// The arch calls back into the kernel only through kernel/arch_upcall.h (kernel_entry, ...).

#endif
