// SPDX-License-Identifier: MIT
// The Raspberry Pi 2/3's interrupt controllers as a64_intc.h's: the BCM2836 "local" one
// (0x40000000: each core's generic-timer interrupts and mailboxes, and whether the GPU's
// interrupts reach the core) and the BCM2835 one behind it (0x3f00b200: the peripherals').
// Lines: 0-3 this core's timer interrupts (CNTPS, CNTPNS, CNTHP, CNTV: bits 0-3 of its timer
// control and interrupt source registers), 17 the PL011 (GPU interrupt 57); mailbox 0 of a
// core is the reschedule IPI. All sources are levels: a timer's holds until its compare value
// moves, a device's until its driver clears it; the kernel masks a line it hands to a process
// until the driver unmasks it, so nothing needs acknowledging here.
#include <kernel/kernel.h>
#include <kernel/cpu.h>
#include <board_config.h>
#include <a64_intc.h>

#define LOCAL(off)          (*(volatile uint32_t *)(uintptr_t)(LOCAL_BASE + (off)))
#define LOCAL_GPU_ROUTING   0x0c            // GPU interrupts to core (bits 1:0)
#define LOCAL_TIMER_CTL(c)  (0x40 + 4 * (c))
#define LOCAL_MBOX_CTL(c)   (0x50 + 4 * (c))
#define LOCAL_IRQ_SRC(c)    (0x60 + 4 * (c))
#define LOCAL_MBOX0_SET(c)  (0x80 + 16 * (c))
#define LOCAL_MBOX0_CLR(c)  (0xc0 + 16 * (c))
#define SRC_TIMERS          0x00fu
#define SRC_MBOX0           0x010u
#define SRC_GPU             0x100u

#define ARMCTRL(off)        (*(volatile uint32_t *)(uintptr_t)(ARMCTRL_BASE + (off)))
#define IRQ_PENDING2        0x08
#define IRQ_ENABLE2         0x14
#define IRQ_DISABLE1        0x1c
#define IRQ_DISABLE2        0x20
#define IRQ_DISABLE_BASIC   0x24
#define GPU_UART0_BIT       (1u << (57 - 32))

void intc_cpu_init(void)
{
    unsigned c = cpu_id();
    LOCAL(LOCAL_TIMER_CTL(c)) = 0;
    LOCAL(LOCAL_MBOX0_CLR(c)) = 0xffffffffu;
    LOCAL(LOCAL_MBOX_CTL(c)) = 1;           // mailbox 0: an IRQ
}

void intc_init(void)
{
    ARMCTRL(IRQ_DISABLE1) = 0xffffffffu;
    ARMCTRL(IRQ_DISABLE2) = 0xffffffffu;
    ARMCTRL(IRQ_DISABLE_BASIC) = 0xffffffffu;
    LOCAL(LOCAL_GPU_ROUTING) = 0;           // the peripherals' interrupts to core 0, as IRQ
    intc_cpu_init();
}

// What this CPU's controllers show, in intc_ack's order; `take` clears the mailbox it answers.
static int pending_line(bool take)
{
    unsigned c = cpu_id();
    uint32_t src = LOCAL(LOCAL_IRQ_SRC(c));
    uint32_t timers = src & LOCAL(LOCAL_TIMER_CTL(c)) & SRC_TIMERS;
    if (timers & (1u << TICK_IRQ))
        return TICK_IRQ;
    if (timers)
        return __builtin_ctz(timers);
    if (src & SRC_MBOX0) {
        if (take)
            LOCAL(LOCAL_MBOX0_CLR(c)) = 0xffffffffu;
        return INTC_IPI;
    }
    if ((src & SRC_GPU) && (ARMCTRL(IRQ_PENDING2) & GPU_UART0_BIT))
        return UART0_IRQ;
    return INTC_NONE;
}

int intc_ack(void)
{
    return pending_line(true);
}

int intc_peek(void)
{
    return pending_line(false);
}

void intc_enable(unsigned line, bool on)
{
    if (line < 4) {
        unsigned c = cpu_id();
        uint32_t v = LOCAL(LOCAL_TIMER_CTL(c));
        LOCAL(LOCAL_TIMER_CTL(c)) = on ? v | (1u << line) : v & ~(1u << line);
    } else if (line == UART0_IRQ) {
        ARMCTRL(on ? IRQ_ENABLE2 : IRQ_DISABLE2) = GPU_UART0_BIT;
    }
}

void intc_send_ipi(unsigned cpu)
{
    __asm__ volatile("dsb ish" ::: "memory");
    LOCAL(LOCAL_MBOX0_SET(cpu)) = 1;
}
