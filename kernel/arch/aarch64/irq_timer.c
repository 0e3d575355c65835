// SPDX-License-Identifier: MIT
// Interrupt lines and the tick from the generic timer's virtual timer, AArch64, over the
// board's interrupt controller (a64_intc.h: a GICv2, or the Raspberry Pi's own). The kernel's
// lines 0-31 (its irq masks are 32 bits): 0 .. BOARD_HW_NIRQ-1 have hardware (board_config.h
// says which is which), the rest are raised only in software. A raised line
// (arch_irq_set_pending) and a reschedule request (arch_request_resched) are kept here and
// taken as kernel entries of their own as soon as the current one ends (a64_more_work), as on
// x86. Everything here runs inside the kernel, interrupts masked, under the kernel lock.
// Multiprocessor: every CPU's virtual timer interrupts it once a tick period, and the first
// CPU to see a period end takes the kernel's tick (time and timers): on the shared side when
// no kernel timer is due by it and no D program runs, traced or not (kernel/ktimer.c
// ktimer_tick_shared, under the timer list's lock), else exclusive (KENTRY_TICK). Every CPU
// charges its own running thread's round-robin slice at its own timer interrupt, whichever it
// was (sched_tick, sched_tick_shared); for the CPUs that did not take the period it is
// otherwise only a look at the run queue (KENTRY_CPUTICK). So the tick does not wait for one
// particular CPU: a CPU asleep in WFI, or not being run by the host (QEMU's
// round-robin of virtual CPUs under -icount serves a sleeping CPU's timer only when the busy
// one yields, up to 100 ms late), does not hold the clock back. The raised-line set is shared
// (any CPU may take a raised line); a reschedule request and the line being handled are per
// CPU; the controller's IPI asks a CPU to reschedule (smp.c). The lines unmasked (`enabled`)
// change on the shared side too (an event line's interrupt, InterruptMask / InterruptUnmask:
// kernel/irq.c, each under its line's lock), so each change is one atomic update of the word.
// The profile timer (kernel/ptimer.h) is the same virtual timer: each CPU's compare value is
// the earlier of its next tick and its profile time (prof_at), as Solaris's cyclic subsystem
// keeps one interrupt source per CPU for the clock and the profile cyclics alike. (The EL1
// physical timer is the programs' device timer, and a CPU at EL1 has no third one.) An
// interrupt then is the profile timer's, the tick's, or both (a64_irq_kind: KENTRY_PROFILE
// first, while the interrupted thread is still the CPU's, then the tick's at the interrupt
// that follows at once); one with the profile's time due is always taken exclusive.
#include <kernel/arch.h>
#include <kernel/board.h>
#include <a64.h>
#include <board_config.h>
#include <a64_intc.h>
#include <kernel/tick_periods.h>
#include <kernel/arch_upcall.h>
#include <kernel/ptimer.h>

#define TIMER_ENABLE     1u

static uint32_t pending;        // lines raised in software, not yet taken
static uint32_t enabled;        // lines unmasked by the kernel
static bool resched[KMAX_CPUS];
static unsigned current_irq[KMAX_CPUS];
static uint64_t tick_period;
// The end of the kernel's current tick period. Moved on by the exclusive tick (a64_irq_kind),
// or, several CPUs, by a tick on the shared side under the timer list's lock (arch_tick_claim),
// while other shared entries read it (tick_is_cpu_share): relaxed atomic accesses there.
static uint64_t tick_next;
static uint64_t cpu_tick_next[KMAX_CPUS];    // each CPU's next tick (its own timer's part)
static unsigned cpu_periods[KMAX_CPUS];      // periods its last timer interrupt covered
static unsigned tick_periods;                // periods the tick being taken covers
// Each CPU's profile time (0: none): written by ptimer_arm, for another CPU too (exclusive
// side), read by the CPU itself whenever it writes its compare value (relaxed atomics).
static uint64_t prof_at[KMAX_CPUS];

// This CPU's compare value: its next tick, or its profile time when that comes first.
static void cval_write(unsigned c)
{
    uint64_t at = cpu_tick_next[c], p = __atomic_load_n(&prof_at[c], __ATOMIC_RELAXED);
    if (p && p < at)
        at = p;
    A64_SYSREG_WRITE(cntv_cval_el0, at);
    a64_isb();
}

bool ptimer_present(void)
{
    return true;
}

void ptimer_arm(unsigned cpu, uint64_t at)
{
    __atomic_store_n(&prof_at[cpu], at, __ATOMIC_RELAXED);
    if (cpu == cpu_id())
        cval_write(cpu);
}

// What this CPU's timer interrupt at `now` is: its profile time due, its tick due.
static bool prof_due(unsigned c, uint64_t now)
{
    uint64_t p = __atomic_load_n(&prof_at[c], __ATOMIC_RELAXED);
    return p && p <= now;
}

void a64_irq_init(void)
{
    intc_init();
    pending = enabled = 0;
}

// This CPU's virtual timer moved on to its next period; the counter's value read for it.
// The next compare value from the last one, not from now: no drift, and the CPU keeps its
// phase (a64_tick_start_cpu). A late interrupt (the CPU waited for the lock, or was not run by
// the host) skips the periods it missed, and the next one is at least a quarter period away.
// Re-arming at now + period instead lined the CPUs' timers up after a few late periods: all of
// them then wanted the lock at once every period, under QEMU's -icount (one virtual CPU at a
// time) the waits took most of a period, a CPU came back with its next interrupt already due,
// and a thread bound to it never ran again (docs/smp.md). The kernel's tick counts the
// periods it skipped. This CPU's own state alone: either side of the kernel lock.
// The periods this interrupt covers (its own and those it skipped) are kept for the
// round-robin slice of this CPU's thread (arch_cpu_tick_periods).
static uint64_t cpu_timer_rearm(void)
{
    unsigned c = cpu_id();
    uint64_t now = A64_SYSREG_READ(cntvct_el0);
    unsigned periods = 1;
    cpu_tick_next[c] += tick_period;
    while (cpu_tick_next[c] < now + tick_period / 4) {
        cpu_tick_next[c] += tick_period;
        periods++;
    }
    cpu_periods[c] = periods;
    cval_write(c);
    return now;
}

unsigned arch_cpu_tick_periods(void)
{
    return cpu_periods[cpu_id()];
}

// Whether a timer interrupt seen at `now` is only this CPU's share of a period whose tick
// another CPU took (KENTRY_CPUTICK).
static bool tick_is_cpu_share(uint64_t now)
{
    return now + tick_period / 8 < __atomic_load_n(&tick_next, __ATOMIC_RELAXED);
}

#if KMAX_CPUS > 1
// The shared side's tick (cpu.c): true when this CPU's timer interrupt may be taken shared:
// only its share (another CPU took the period), or the kernel's tick with no timer due, taken
// here and now (kernel/ktimer.c, ktimer_tick_shared: the periods counted, tick_next moved on).
// False: the exclusive tick (KENTRY_TICK), nothing changed. The first look needs no lock: a
// period once taken stays taken (tick_next only grows), and a period that looks not taken is
// looked at again under the timer list's lock.
// A period is also taken exclusive, as before, while another CPU waits for the exclusive side
// (it has a ticket): that entry runs alone anyway, and this tick only queues behind it. Under
// QEMU's -icount, which runs one virtual CPU at a time and moves on from a busy one only when
// it waits (WFE: the lock's waits) or at its 100 ms kick, the exclusive tick was what made a
// CPU busy on the shared side (message round trips) give its turn to one waiting for the
// exclusive side, every period; taken shared there too, smpstress's test 2 (main's calls
// exclusive on CPU 2 beside a pair on CPU 1) got about one exclusive entry a second of virtual
// time and timed out (docs/smp.md, "The tick").
// *took: from and to of k_ticks when this CPU took the kernel's tick here, both 0 for a share
// (what a traced tick records: kernel/main.c kernel_tick_traced_shared).
bool a64_tick_shared(struct ktick_span *took)
{
    took->from = took->to = 0;
    unsigned c = cpu_id();
    uint64_t now = A64_SYSREG_READ(cntvct_el0);
    if (now < cpu_tick_next[c] || prof_due(c, now))    // the profile timer's, or not the tick's
        return false;
    return tick_is_cpu_share(now) ||
           (!a64_kernel_lock_wanted() && ktimer_tick_shared(took) != KTICK_EXCLUSIVE);
}

// The interrupt's own work once acknowledged: this CPU's timer re-armed; the periods it covers
// (the slices', arch_cpu_tick_periods).
unsigned a64_cputick_take(void)
{
    cpu_timer_rearm();
    return cpu_periods[cpu_id()];
}

void arch_tick_claim(unsigned periods)
{
    __atomic_store_n(&tick_next, tick_next + (uint64_t)periods * tick_period, __ATOMIC_RELAXED);
}
#endif

// What this CPU's interrupt asks of the kernel: `line` as intc_ack answered it, or
// INTC_NOT_ACKED to acknowledge it now (every entry but a reschedule IPI's whose shared side
// found another line first: cpu.c).
unsigned a64_irq_kind(int line)
{
    if (line == INTC_NOT_ACKED)
        line = intc_ack();
    if (line == INTC_NONE)
        return KENTRY_RESCHED;
    if (line == INTC_IPI) {         // choose again
        this_cpu()->ipis++;
        return KENTRY_IPI;
    }
    if (line == TICK_IRQ) {
        // The profile timer's first, while the interrupted thread is still this CPU's: its
        // compare value becomes the tick's, which, when due too, interrupts again as soon as
        // this entry ends (kprof_expired arms the next profile time).
        unsigned c = cpu_id();
        uint64_t now = A64_SYSREG_READ(cntvct_el0);
        if (prof_due(c, now)) {
            __atomic_store_n(&prof_at[c], 0, __ATOMIC_RELAXED);
            cval_write(c);
            return KENTRY_PROFILE;
        }
        if (now < cpu_tick_next[c]) {   // neither: a profile time since moved or taken away
            cval_write(c);
            return KENTRY_RESCHED;
        }
        now = cpu_timer_rearm();
        if (tick_is_cpu_share(now))                // another CPU took this period's tick
            return KENTRY_CPUTICK;
        // Every period that ended is counted (kernel/include/kernel/tick_periods.h): a tick
        // taken late covers the ones it missed, so k_ticks keeps up with the counter.
        tick_periods = (unsigned)tick_periods_ended(&tick_next, tick_period, now,
                                                    tick_period / 8);
        return KENTRY_TICK;
    }
    current_irq[cpu_id()] = (unsigned)line;
    return KENTRY_IRQ;
}

unsigned arch_tick_periods(void)
{
    return tick_periods;
}

unsigned arch_tick_pending(void)
{
    uint64_t now = A64_SYSREG_READ(cntvct_el0);
    return (unsigned)tick_periods_due(tick_next, tick_period, now, tick_period / 8);
}

bool a64_more_work(unsigned *kind)
{
    uint32_t ready = pending & enabled;
    if (ready) {
        unsigned irq = (unsigned)__builtin_ctz(ready);
        pending &= ~(1u << irq);
        current_irq[cpu_id()] = irq;
        *kind = KENTRY_IRQ;
        return true;
    }
    if (resched[cpu_id()]) {
        resched[cpu_id()] = false;
        *kind = KENTRY_RESCHED;
        return true;
    }
    return false;
}

unsigned arch_current_irq(void)
{
    return current_irq[cpu_id()];
}

void arch_irq_enable(unsigned irq)
{
    if (irq >= BOARD_NIRQ || irq == TICK_IRQ)
        return;
    __atomic_fetch_or(&enabled, 1u << irq, __ATOMIC_RELAXED);
    if (irq < BOARD_HW_NIRQ)
        intc_enable(irq, true);
}

void arch_irq_disable(unsigned irq)
{
    if (irq >= BOARD_NIRQ || irq == TICK_IRQ)
        return;
    __atomic_fetch_and(&enabled, ~(1u << irq), __ATOMIC_RELAXED);
    if (irq < BOARD_HW_NIRQ)
        intc_enable(irq, false);
}

#if KMAX_CPUS > 1
// The device timer's line is its CPU's own PPI (context.c): the one a program may attach.
int arch_irq_cpu(unsigned irq)
{
    return irq == DEVTIMER_LINE ? (int)A64_DEVTIMER_CPU : -1;
}
#endif

void arch_irq_set_pending(unsigned irq)
{
    if (irq < BOARD_NIRQ)
        pending |= 1u << irq;
}

#if KMAX_CPUS > 1
bool arch_irq_raised(unsigned irq)
{
    return irq < BOARD_NIRQ && (pending >> irq) & 1u;
}
#endif

void arch_request_resched(void)
{
    resched[cpu_id()] = true;
}

// This CPU's virtual timer, one interrupt a tick period (CPUs 1.. when they start, smp.c),
// staggered: CPU c's comes c/n of a period after CPU 0's, so that the CPUs do not all want
// the kernel lock at once (Linux's skew_tick for the same reason), and a period's tick is
// taken within 1/n of a period by some CPU even while the others are held up.
void a64_tick_start_cpu(void)
{
    unsigned c = cpu_id();
    uint64_t now = A64_SYSREG_READ(cntvct_el0);
    uint64_t next = tick_next + tick_period * c / k_ncpus;
    while (next <= now)
        next += tick_period;
    cpu_tick_next[c] = next;
    A64_SYSREG_WRITE(cntv_cval_el0, cpu_tick_next[c]);
    A64_SYSREG_WRITE(cntv_ctl_el0, TIMER_ENABLE);
    a64_isb();
    intc_enable(TICK_IRQ, true);
}

// The tick: the virtual timer (CNTV), compare value moved on by one period each tick.
void arch_tick_start(uint32_t cycles_per_tick)
{
    tick_period = cycles_per_tick;
    tick_next = A64_SYSREG_READ(cntvct_el0) + tick_period;
    cpu_tick_next[0] = tick_next;
    A64_SYSREG_WRITE(cntv_cval_el0, tick_next);
    A64_SYSREG_WRITE(cntv_ctl_el0, TIMER_ENABLE);
    a64_isb();
    intc_enable(TICK_IRQ, true);
}
