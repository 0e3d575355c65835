// SPDX-License-Identifier: MIT
// Interrupt lines, AArch64 with a GICv2, and the tick from the generic timer's virtual timer.
// The kernel's lines 0-31 (its irq masks are 32 bits): 0-15 are the core's PPIs (GIC ids
// 16-31), 16-23 the SPIs 0-7 (GIC ids 32-39), 24-31 have no hardware and are raised only in
// software. A raised line (arch_irq_set_pending) and a reschedule request
// (arch_request_resched) are kept here and taken as kernel entries of their own as soon as the
// current one ends (a64_more_work), as on x86. Everything here runs inside the kernel,
// interrupts masked, under the kernel lock. Multiprocessor: SPIs go to CPU 0; PPIs (the
// timers) are each CPU's own; SGI 0 is the reschedule IPI (smp.c). Every CPU's virtual timer
// interrupts it once a tick period, and the first CPU to see a period end takes the kernel's
// tick (KENTRY_TICK: time, timers and every CPU's round-robin slice); for the others it is
// only a look at the run queue. So the tick does not wait for one particular CPU: a CPU
// asleep in WFI, or not being run by the host (QEMU's round-robin of virtual CPUs under
// -icount serves a sleeping CPU's timer only when the busy one yields, up to 100 ms late), does
// not hold the clock back. The raised-line set is shared (any CPU may take a raised line);
// a reschedule request and the line being handled are per CPU.
#include <kernel/arch.h>
#include <kernel/board.h>
#include <a64.h>
#include <board_config.h>

#define GICD(off)   (*(volatile uint32_t *)(uintptr_t)(GICD_BASE + (off)))
#define GICC(off)   (*(volatile uint32_t *)(uintptr_t)(GICC_BASE + (off)))
#define GICD_CTLR        0x000
#define GICD_ISENABLER   0x100
#define GICD_ICENABLER   0x180
#define GICD_IPRIORITYR  0x400
#define GICD_ITARGETSR   0x800
#define GICC_CTLR        0x000
#define GICC_PMR         0x004
#define GICC_IAR         0x00c
#define GICC_EOIR        0x010
#define GICD_SGIR        0xf00
#define SGI_RESCHED      0u
#define GIC_SPURIOUS     1020u
#define GIC_NIDS         64u

#define TIMER_ENABLE     1u

static uint32_t pending;        // lines raised in software, not yet taken
static uint32_t enabled;        // lines unmasked by the kernel
static bool resched[KMAX_CPUS];
static unsigned current_irq[KMAX_CPUS];
static uint64_t tick_period;
static uint64_t tick_next;                   // the end of the kernel's current tick period
static uint64_t cpu_tick_next[KMAX_CPUS];    // each CPU's next timer compare value

static int line_to_id(unsigned line)
{
    if (line < 16)
        return (int)(16 + line);
    if (line < BOARD_HW_NIRQ)
        return (int)(32 + line - 16);
    return -1;
}

static int id_to_line(unsigned id)
{
    if (id >= 16 && id < 32)
        return (int)(id - 16);
    if (id >= 32 && id < 32 + BOARD_HW_NIRQ - 16)
        return (int)(id - 32 + 16);
    return -1;
}

static void gic_enable(unsigned id, bool on)
{
    GICD((on ? GICD_ISENABLER : GICD_ICENABLER) + 4 * (id / 32)) = 1u << (id % 32);
}

void a64_gic_init(void)
{
    GICD(GICD_CTLR) = 0;
    for (unsigned id = 0; id < GIC_NIDS; id += 32)
        GICD(GICD_ICENABLER + id / 8) = 0xffffffffu;
    for (unsigned id = 0; id < GIC_NIDS; id += 4)
        GICD(GICD_IPRIORITYR + id) = 0xa0a0a0a0u;
    for (unsigned id = 32; id < GIC_NIDS; id += 4)
        GICD(GICD_ITARGETSR + id) = 0x01010101u;    // SPIs to core 0
    GICD(GICD_CTLR) = 1;
    GICC(GICC_PMR) = 0xf0;
    GICC(GICC_CTLR) = 1;
    pending = enabled = 0;
    gic_enable(SGI_RESCHED, true);
}

// Another CPU's interface, and its banked SGI/PPI registers: priorities, the reschedule IPI.
void a64_gic_cpu_init(void)
{
    GICD(GICD_ICENABLER) = 0xffffffffu;
    for (unsigned id = 0; id < 32; id += 4)
        GICD(GICD_IPRIORITYR + id) = 0xa0a0a0a0u;
    GICC(GICC_PMR) = 0xf0;
    GICC(GICC_CTLR) = 1;
    gic_enable(SGI_RESCHED, true);
}

void a64_gic_send_sgi(unsigned cpu)
{
    __asm__ volatile("dsb ish" ::: "memory");
    GICD(GICD_SGIR) = (1u << (16 + cpu)) | SGI_RESCHED;
}

unsigned a64_irq_kind(void)
{
    uint32_t iar = GICC(GICC_IAR);
    unsigned id = iar & 0x3ffu;
    if (id >= GIC_SPURIOUS)
        return KENTRY_RESCHED;
    if (id < 16) {              // an IPI: choose again
        GICC(GICC_EOIR) = iar;
        this_cpu()->ipis++;
        return KENTRY_RESCHED;
    }
    // Acknowledge at once: a line handed to a process is masked by the kernel until its
    // driver unmasks it, so an early end of interrupt cannot storm.
    GICC(GICC_EOIR) = iar;
    int line = id_to_line(id);
    if (line == TICK_IRQ) {
        // The next compare value from the last one, not from now: no drift.
        unsigned c = cpu_id();
        uint64_t now = A64_SYSREG_READ(cntvct_el0);
        cpu_tick_next[c] += tick_period;
        if (cpu_tick_next[c] <= now)
            cpu_tick_next[c] = now + tick_period;
        A64_SYSREG_WRITE(cntv_cval_el0, cpu_tick_next[c]);
        a64_isb();
        if (now + tick_period / 8 < tick_next)    // another CPU took this period's tick
            return KENTRY_RESCHED;
        tick_next += tick_period;
        if (tick_next <= now)
            tick_next = now + tick_period;
        return KENTRY_TICK;
    }
    if (line < 0)
        return KENTRY_RESCHED;
    current_irq[cpu_id()] = (unsigned)line;
    return KENTRY_IRQ;
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
    enabled |= 1u << irq;
    int id = line_to_id(irq);
    if (id >= 0)
        gic_enable((unsigned)id, true);
}

void arch_irq_disable(unsigned irq)
{
    if (irq >= BOARD_NIRQ || irq == TICK_IRQ)
        return;
    enabled &= ~(1u << irq);
    int id = line_to_id(irq);
    if (id >= 0)
        gic_enable((unsigned)id, false);
}

void arch_irq_set_pending(unsigned irq)
{
    if (irq < BOARD_NIRQ)
        pending |= 1u << irq;
}

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
    gic_enable((unsigned)line_to_id(TICK_IRQ), true);
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
    gic_enable((unsigned)line_to_id(TICK_IRQ), true);
}
