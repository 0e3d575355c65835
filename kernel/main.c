// SPDX-License-Identifier: MIT
// Boot and the one kernel entry point. kernel_main() brings the subsystems up, starts the
// image's boot program as pid 1 and never returns. kernel_entry() is where every exception
// from thread mode lands (arch.h contract); it does the work of that entry and picks the thread
// to resume. When pid 1 ends, the system halts with its exit status.
#include <kernel/kernel.h>
#include <kernel/kview.h>
#include <kernel/arch_upcall.h>
#include <kernel/arch.h>
#include <kernel/kfault_stack.h>
#include <kernel/smp.h>
#include <kernel/board.h>
#include <kernel/sched.h>
#include <kernel/thread.h>
#include <kernel/proc.h>
#include <kernel/ipc.h>
#include <kernel/sync.h>
#include <kernel/irq.h>
#include <kernel/utimer.h>
#include <kernel/pmem.h>
#include <kernel/kcall.h>
#include <kernel/kinit.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kopts.h>
#include <kernel/tick_periods.h>
#include <uapi/ktrace.h>
#include <board_config.h>
#include <kernel/kloadavg.h>

extern const char boot_app_name[];      // from the image's program table (apps.S)

// One idle thread per CPU, pinned to it.
static uint32_t idle_stack[KMAX_CPUS][128] __attribute__((aligned(16)));

// The TIME event of a CPU's trace buffer whose timer interrupt came in a period another CPU
// took the tick of (KENTRY_CPUTICK, exclusive): at its first such entry in each second of
// k_ticks, so that a second k_ticks jumped across (a late tick) still has one.
static void cputick_time_event(void)
{
    static uint32_t second_seen[KMAX_CPUS];
    uint32_t second = (uint32_t)(k_ticks / TICK_HZ);
    if (second != second_seen[cpu_id()]) {
        second_seen[cpu_id()] = second;
        if (ktrace.tr_running)
            trace_ring_tick(&ktrace);
    }
}

// A timer interrupt's stack sample (tracelogger -p) and D's tick-N / profile-N probes on this
// CPU, where the board has no profile timer (kernel/kprof.c; with one, nothing: they run from
// it). Out of line: only the traced tick path calls it.
static __attribute__((noinline)) void tick_samples(bool kernel_tick)
{
    kprof_tick(kernel_tick);
}

// The traced timer interrupt's own events on this CPU, the same in every tick path (the
// exclusive KENTRY_TICK and KENTRY_CPUTICK, the shared kernel_tick_traced_shared): the TIME
// event, then the stack sample and D's timers. The kernel's tick writes TIME when a second of
// k_ticks was crossed between `from` and `to` (a late tick may jump across one rather than
// onto it); a CPU's share of another's tick, at its first in each second (cputick_time_event).
static inline __attribute__((always_inline)) void tick_traced(bool kernel_tick, uint64_t from,
                                                              uint64_t to)
{
    if (kernel_tick) {
        if (ktrace.tr_running && tick_crossed_multiple(from, to, TICK_HZ))
            trace_ring_tick(&ktrace);
        ktrace_probe_tick();    // a probe's reader asked for the partial buffers
    } else if (KSMP) {
        cputick_time_event();
    }
    ktrace_tick_mark();         // the exit's choice: REMAIN_CPU when it keeps the thread
    tick_samples(kernel_tick);
}

// The kernel's tick: k_ticks moves by every period that ended (a late tick's extra ones in
// k_ticks_late), due timers run once each, this CPU's slice is charged. Several CPUs: exclusive
// only when a timer is due or it traces (ktimer_tick_shared), the slice by this CPU's timer.
static void kernel_tick(void)
{
    ktrace_int(KEV_INT_ENTER, KIRQ_TICK, 0);
    unsigned periods = arch_tick_periods();
    k_ticks += periods;
    if (periods > 1)
        k_ticks_late += periods - 1u;
    ktimer_run(k_ticks);
    kloadavg_tick(k_ticks);     // avenrun, once a second (kloadavg.c)
    sched_tick(smp_cpu_tick_periods(periods));
    if (unlikely(ktrace_kernel_on))     // (a TIME event at least every 2^32 cycles)
        tick_traced(true, k_ticks - periods, k_ticks);
    ktrace_int(KEV_INT_EXIT, KIRQ_TICK, 0);
}

static void kernel_fault(struct thread *t)
{
    if (kusdt_fault(t))     // a placed USDT site's trap: fired, the thread goes on
        return;
    if (kpid_fault(t))      // a placed pid probe's trap: fired, its instruction run
        return;
    if (t->proc && smp_fault_retry(t))      // a device of another CPU's: t moves there
        return;
    char what[96];
    struct arch_fault_where where;
    arch_fault_where(&where);       // first: arch_fault_info may clear the fault status
    int sig = arch_fault_info(what, sizeof(what));
    struct proc *p = t->proc;

    if (!p)
        kpanic("fault in kernel thread %s: %s", t->name, what);
    if (kfault_stack_overflow(t, &where))   // its stack ran over: said so, with the stack
        kprintf("kernel: process %d (%s) killed: stack overflow of %s's %u-byte stack: %s in "
                "thread %d\n", (int)p->pid, p->name, t->name,
                (unsigned)(t->stack_top - kfault_stack_start(t)), what, (int)t->tid);
    else
        kprintf("kernel: process %d (%s) killed: %s in thread %d\n", (int)p->pid, p->name,
                what, (int)t->tid);
    ktrace_fault(t, sig, &where);   // the FAULT event, its STACK, and proc:::fault
    proc_exit(p, sig);
}

// The entries that are neither frequent nor benched: this CPU's profile timer (kernel/kprof.c)
// and what cannot happen. Cold and out of line: as a case of the switch the profile entry
// changed the layout of the common ones and cost the Cortex-M's kernel call one instruction
// more (141 -> 142 with tracing off, 220 -> 221 on, scripts/bench-kernel.sh).
static __attribute__((noinline, cold)) void kernel_entry_rare(unsigned kind)
{
    if (kind != KENTRY_PROFILE)
        kpanic("unknown kernel entry %u", kind);
    kprof_expired();
}

// On AArch64 inline in both entry points: as a call of its own (GCC's choice for the hooked
// kernel there) it cost the traced-but-off kernel 2 instructions a null call over the kernel
// built without hooks, where it was inlined. The Cortex-M's compiler does best left to choose.
static SMP_ALWAYS_INLINE void halt_if_done(void)
{
    if (!k_system_done)
        return;
    int st = k_system_status;
    if (KW_EXITED(st)) {
        kprintf("kernel: pid 1 exited with status %d; halting\n", KW_EXITSTATUS(st));
        board_halt(KW_EXITSTATUS(st));
    }
    kprintf("kernel: pid 1 killed by signal %d; halting\n", KW_TERMSIG(st));
    board_halt(128 + KW_TERMSIG(st));
}

// The body of both entry points; `traced` is a constant in each, so the untraced one holds
// no trace code at all.
static inline __attribute__((always_inline)) void kernel_entry_body(unsigned kind,
                                                                    const bool traced)
{
    struct thread *t = k_current;

    if (traced)
        kuring_drain_thread(t);         // its user events come before this entry's
    if (KSMP) {
        this_cpu()->kicked = false;
        if (unlikely(t->dying)) {
            // Another CPU destroyed this thread while it ran here (thread_destroy): end it
            // now, before it does anything more; what brought it here is dropped with it.
            thread_destroy(t, t->dying_status);
            if (kind == KENTRY_CALL || kind == KENTRY_FAULT)
                kind = KENTRY_RESCHED;
        }
    }
    switch (kind) {
    case KENTRY_CALL:
        if (traced)
            kcall_dispatch_traced(t);   // also the entry event (ktrace_kcall.h)
        else
            kcall_dispatch(t);
        break;
    case KENTRY_TICK:
        kernel_tick();
        break;
    case KENTRY_IRQ:
        irq_dispatch(arch_current_irq());
        break;
    case KENTRY_RESCHED:
        break;
    case KENTRY_IPI:
        ktrace_ipi();
        break;
    case KENTRY_CPUTICK:                // another CPU took the tick: this one's own share
        ktrace_int(KEV_INT_ENTER, KIRQ_CPUTICK, 0);     // sched:::tick on this CPU too
        if (KSMP)
            sched_tick(smp_cpu_tick_periods(0));        // its own thread's slice
        if (unlikely(ktrace_kernel_on))
            tick_traced(false, 0, 0);       // this CPU's TIME, stack samples and profile-N
        ktrace_int(KEV_INT_EXIT, KIRQ_CPUTICK, 0);
        break;
    case KENTRY_FAULT:
        kernel_fault(t);
        break;
    default:
        kernel_entry_rare(kind);
        break;
    }
    halt_if_done();
    if (traced)
        ktrace_exit_begin(irq_raise_synthetic);
    struct thread *next = traced ? sched_choose_traced() : sched_choose();
    if (traced)
        ktrace_exit_end(next);
    if (next != t || kind == KENTRY_FAULT) {
        if (next->proc != t->proc || kind == KENTRY_FAULT)
            arch_mpu_switch(next->proc);
        else
            arch_stack_guard(next);     // another thread of the process: its stack's guard
    }
    if (KSMP && k_ncpus > 1)
        sched_kick_others();
}

void kernel_entry(unsigned kind)
{
    kernel_entry_body(kind, false);
}

void kernel_entry_traced(unsigned kind)
{
    kernel_entry_body(kind, KTRACE_HOOKS);
}

void kernel_entry_now(unsigned kind)
{
    if (KTRACE_HOOKS && ktrace_kernel_on)
        kernel_entry_traced(kind);
    else
        kernel_entry(kind);
}

void kernel_cpu_online(void)
{
    struct cpu *c = this_cpu();
    c->online = true;
    struct thread *next = ktrace_kernel_on ? sched_choose_traced() : sched_choose();
    arch_mpu_switch(next->proc);
}

// A CPU's idle thread: the arch's wait for an interrupt, or, with the kernel option idle=poll,
// a spin (kernel/kopts.h).
static void idle_main(void)
{
    if (kopt_idle_poll)
        for (;;)
            __asm__ volatile("" ::: "memory");
    arch_idle_loop();
}

_Noreturn void kernel_main(void)
{
    board_init();
    kprintf("\nkernel: booting on %s, %u Hz cycle counter, %u Hz tick\n", board_name(),
            (unsigned)board_cycles_per_sec(), TICK_HZ);
    kopts_init();
    kernel_state_init();
    pmem_init(&k_pmem, board_pool_base(), board_pool_size());
    arch_init();
    board_late_init();
    kincident_boot();       // a record an earlier boot left (docs/incidents.md)

    k_ncpus = smp_cpus_present();
    for (unsigned c = 0; c < k_ncpus; c++) {
        struct thread *idle = thread_alloc(NULL);
        KASSERT(idle, "no thread for idle");
        thread_set_name(idle, "idle");       // one per CPU, all "idle" (as QNX's)
        idle->prio = idle->base_prio = 0;
        idle->policy = SCHED_POLICY_FIFO;
        idle->affinity = KSMP ? 1u << c : 0;
        arch_thread_setup(idle, (uint32_t)(uintptr_t)idle_main, 0, 0,
                          (uint32_t)(uintptr_t)&idle_stack[c][ARRAY_SIZE(idle_stack[c])], true);
        k_cpus[c].idle = idle;
        sched_make_ready(idle, false);
    }

    int n = proc_scan_apps(APP_FLASH_BASE, APP_FLASH_SLOT, APP_MAX_SLOTS);
    kprintf("kernel: %d programs in the image, %u KB for contiguous allocation\n", n,
            (unsigned)(pmem_free_bytes(&k_pmem) / 1024));
    int pid = proc_spawn(boot_app_name, 0, 0, NULL);
    if (pid != 1)
        kpanic("cannot start boot program '%s': error %d", boot_app_name, -pid);

    // The boot code becomes a pseudo-thread whose only kernel call ends it; the first real
    // thread starts on that call's return path like any other.
    struct thread *boot = thread_alloc(NULL);
    KASSERT(boot, "no thread for boot");
    thread_set_name(boot, "boot");
    arch_tick_start(board_cycles_per_sec() / TICK_HZ);
    if (KSMP && k_ncpus > 1) {
        kprintf("kernel: %u CPUs\n", k_ncpus);
        smp_cpus_start();
    }
    arch_start(boot);
}

// A CPU's timer interrupt on the shared side while tracing runs and no D program does (the
// arch's shared interrupt entry, kernel/arch/aarch64/cpu.c): the events the exclusive
// KENTRY_TICK or KENTRY_CPUTICK writes, in their order, around this CPU's own slice. took:
// k_ticks before and after the periods this CPU's claim counted (kernel/ktimer.c
// ktimer_tick_shared), both 0 when another CPU took the period and this is its share. It needs
// no lock: every event goes to this CPU's own buffer (trace/include/trace/trace_ring.h,
// "LOCKING"), the TIME event too. Stack samples come from the profile timer (kernel/kprof.c),
// whose interrupts are taken exclusive. A D program running keeps a tick exclusive
// (docs/smp.md, "The tick").
void kernel_tick_traced_shared(const struct ktick_span *took, unsigned cpu_periods)
{
    const bool kernel_tick = took->to != 0;
    const uint32_t irq = kernel_tick ? KIRQ_TICK : KIRQ_CPUTICK;
    ktrace_int(KEV_INT_ENTER, irq, 0);
    if (likely(ktrace_kernel_on))
        tick_traced(kernel_tick, took->from, took->to);
    sched_tick_shared(cpu_periods);
    ktrace_int(KEV_INT_EXIT, irq, 0);
}
