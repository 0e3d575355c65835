// SPDX-License-Identifier: MIT
// Interrupt lines, x86 PC: the two 8259 PICs (lines 0-15, vectors 0x20-0x2f), lines 16-31 with
// no hardware (software-raised only), the PIT's channel 0 as the tick, and the kernel entry's
// classification (the local APIC's vectors too: lapic.c). A raised line (arch_irq_set_pending) and a reschedule request
// (arch_request_resched) are kept here and taken as kernel entries of their own as soon as the
// current one ends (x86_more_work). Everything here runs inside the kernel, interrupts off.
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/tick_counter.h>
#include <x86.h>
#include <board_config.h>

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xa0
#define PIC2_DATA 0xa1
#define PIC_EOI   0x20
#define PIT_CH0   0x40
#define PIT_CMD   0x43
#define PIT_HZ    1193182u

static uint32_t enabled;        // lines unmasked by the kernel
static uint32_t pending;        // lines raised in software, not yet taken
static bool resched;
static bool tick_on;
static uint32_t pit_period;     // the tick's period in TSC cycles
static unsigned current_irq;
static unsigned deferred_kind;  // a device line's entry taken after the profile timer's; 0: none
static unsigned deferred_irq;

static void pic_write_masks(void)
{
    // The cascade from the second PIC stays open; the tick's line once it runs.
    uint16_t m = (uint16_t)~(enabled | 1u << 2 | (tick_on ? 1u << PIT_IRQ : 0));
    outb(PIC1_DATA, (uint8_t)m);
    outb(PIC2_DATA, (uint8_t)(m >> 8));
}

void x86_pic_init(void)
{
    outb(PIC1_CMD, 0x11);       // ICW1: edge, cascade, ICW4 follows
    outb(PIC2_CMD, 0x11);
    outb(PIC1_DATA, VEC_IRQ0);  // ICW2: vector base
    outb(PIC2_DATA, VEC_IRQ0 + 8);
    outb(PIC1_DATA, 4);         // ICW3: slave on line 2
    outb(PIC2_DATA, 2);
    outb(PIC1_DATA, 1);         // ICW4: 8086 mode
    outb(PIC2_DATA, 1);
    enabled = 0;
    pending = 0;
    pic_write_masks();
}

// True when line 7 or 15 fired without a request behind it (the 8259's spurious interrupt).
static bool pic_spurious(unsigned irq)
{
    uint16_t cmd = irq < 8 ? PIC1_CMD : PIC2_CMD;
    if ((irq & 7) != 7)
        return false;
    outb(cmd, 0x0b);            // OCW3: read the in-service register
    return !(inb(cmd) & 0x80);
}

// An 8259 line's entry (x86_entry_kind's), out of line: inline, its call to
// x86_lapic_timer_due made every entry, every kernel call's, save two registers.
static __attribute__((noinline)) unsigned line_entry_kind(unsigned irq)
{
    if (pic_spurious(irq)) {
        if (irq >= 8)
            outb(PIC1_CMD, PIC_EOI);    // the master saw a real request on the cascade
        return KENTRY_RESCHED;
    }
    // Acknowledge at once: a line handed to a process is masked by the kernel until its
    // driver unmasks it, so an early EOI cannot storm.
    if (irq >= 8)
        outb(PIC2_CMD, PIC_EOI);
    outb(PIC1_CMD, PIC_EOI);
    unsigned kind = irq == PIT_IRQ ? KENTRY_TICK : KENTRY_IRQ;
    // The profile timer's time has come too (QEMU wakes a CPU in hlt late, with the 8259's line
    // and the APIC's timer both due): the profile's entry first, in the thread this interrupted
    // (an idle CPU's idle thread), as its interrupt would have been taken at its time; the
    // device's entry right after (x86_more_work). Taken the other way, the device's pulse made
    // its thread ready and the sample fell in that thread (docs/profiling.md, "Samples of an
    // idle CPU"). The APIC's own interrupt, when it comes, finds nothing due (kernel/kprof.c).
    if (x86_lapic_timer_due()) {
        deferred_kind = kind;
        deferred_irq = irq;
        return KENTRY_PROFILE;
    }
    current_irq = irq;
    return kind;
}

unsigned x86_entry_kind(unsigned vector)
{
    if (vector == VEC_KCALL)
        return KENTRY_CALL;
    if (vector < VEC_IRQ0)
        return KENTRY_FAULT;
    if (vector == VEC_PROF) {       // the local APIC's timer (lapic.c)
        x86_lapic_eoi();
        return KENTRY_PROFILE;
    }
    if (vector == VEC_APIC_SPURIOUS)
        return KENTRY_RESCHED;
    return line_entry_kind(vector - VEC_IRQ0);
}

// x86_more_work's answer when there is work: the deferred line first, then the lines raised
// in software, then a reschedule.
static __attribute__((noinline)) bool next_work(unsigned *kind)
{
    if (deferred_kind) {
        *kind = deferred_kind;
        current_irq = deferred_irq;
        deferred_kind = 0;
        return true;
    }
    uint32_t ready = pending & enabled;
    if (ready) {
        unsigned irq = (unsigned)__builtin_ctz(ready);
        pending &= ~(1u << irq);
        current_irq = irq;
        *kind = KENTRY_IRQ;
        return true;
    }
    if (resched) {
        resched = false;
        *kind = KENTRY_RESCHED;
        return true;
    }
    return false;
}

// After every entry, every kernel call's: one test when there is no work.
bool x86_more_work(unsigned *kind)
{
    if (!(deferred_kind | (pending & enabled) | (unsigned)resched))
        return false;
    return next_work(kind);
}

unsigned arch_current_irq(void)
{
    return current_irq;
}

void arch_irq_enable(unsigned irq)
{
    if (irq >= BOARD_NIRQ || irq == PIT_IRQ)
        return;
    enabled |= 1u << irq;
    if (irq < BOARD_HW_NIRQ)
        pic_write_masks();
}

void arch_irq_disable(unsigned irq)
{
    if (irq >= BOARD_NIRQ || irq == PIT_IRQ)
        return;
    enabled &= ~(1u << irq);
    if (irq < BOARD_HW_NIRQ)
        pic_write_masks();
}

void arch_irq_set_pending(unsigned irq)
{
    if (irq < BOARD_NIRQ)
        pending |= 1u << irq;
}

void arch_request_resched(void)
{
    resched = true;
}

// The tick: PIT channel 0, rate generator. The contract gives the period in cycle-counter
// cycles; the PIT counts its own 1.193182 MHz clock, so we go through the tick rate.
void arch_tick_start(uint32_t cycles_per_tick)
{
    uint32_t hz = board_cycles_per_sec() / cycles_per_tick;
    uint32_t div = (PIT_HZ + hz / 2) / hz;
    outb(PIT_CMD, 0x34);        // channel 0, lo/hi byte, mode 2
    outb(PIT_CH0, (uint8_t)div);
    outb(PIT_CH0, (uint8_t)(div >> 8));
    // The PIT's period in TSC cycles (the TSC's rate was measured against the PIT's clock).
    pit_period = (uint32_t)((uint64_t)div * board_cycles_per_sec() / PIT_HZ);
    tick_counter_start(pit_period);
    tick_on = true;
    pic_write_masks();
}

// The periods a tick covers, by the TSC (kernel/tick_counter.c).
unsigned arch_tick_periods(void)
{
    return tick_counter_periods(pit_period);
}

unsigned arch_tick_pending(void)
{
    return tick_counter_pending(pit_period);
}
