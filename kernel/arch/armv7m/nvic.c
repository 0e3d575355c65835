// SPDX-License-Identifier: MIT
// Device interrupt lines through the NVIC, and the software request for a kernel entry
// (PendSV: taken as soon as the current kernel entry returns, at the same priority).
#include <kernel/arch.h>
#include <armv7m_regs.h>
#include <board_config.h>

// The kernel numbers device lines 0-31 (KMAX_IRQS). A board whose device sits on an NVIC
// line above that may give it one of those numbers it does not use: BOARD_NVIC_ALIAS_LINE
// (the kernel's) stands for NVIC line BOARD_NVIC_ALIAS_HW (board_config.h; netduinoplus2:
// USART3's line 39 as line 31). Every NVIC register below is indexed by hw_line().
#ifdef BOARD_NVIC_ALIAS_LINE
#define hw_line(irq) ((irq) == BOARD_NVIC_ALIAS_LINE ? (unsigned)BOARD_NVIC_ALIAS_HW : (irq))
#else
#define hw_line(irq) (irq)
#endif

unsigned arch_current_irq(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    unsigned n = (unsigned)(ipsr & 0x1ff) - 16u;
#ifdef BOARD_NVIC_ALIAS_LINE
    if (n == BOARD_NVIC_ALIAS_HW)
        return BOARD_NVIC_ALIAS_LINE;
#endif
    return n;
}

// Unmasking forgets what the NVIC latched while the line was masked, then enables it.
// Why: a device line handed to a process is masked by irq_dispatch while the device still
// asserts it (its driver has not run yet), and the exception return then latches the line
// pending again (ARMv7-M: a level still high when its handler returns re-pends). By the
// time the driver unmasks it has serviced the device, so that latch is stale: enabling on
// top of it delivered every interrupt twice, the second ~1 us after InterruptUnmask.
// The rule (docs/interrupts.md): unmask means "the device's condition is serviced". Every
// device line on these boards is a level (CMSDK and STM32 timers, UARTs): on the chip,
// clearing the pending state of a level still asserted leaves it pending (Cortex-M3/M4
// Generic User Guide, "Hardware and software control of interrupts"), so a request that came
// after the service is not lost. A pulse (edge) device would lose a pulse that arrived while
// masked: none is attached here. QEMU's model clears the latch even while the level is high
// and pends only on a rising level, so a driver there must acknowledge its device shortly
// before unmasking (every driver in the tree does): a request landing in between is lost,
// and the line stays quiet until the device lowers and raises it again.
// A request raised by software while the line was masked (InterruptTrigger) is an event of
// its own, not a stale latch: it stays pending and is delivered on unmask.
// Lines raised by software while masked, not yet enabled: only the kernel touches it, with
// interrupts off (one CPU on these boards).
static uint32_t soft_raised[(BOARD_NIRQ + 31) / 32];

void arch_irq_enable(unsigned irq)
{
    unsigned hw = hw_line(irq);
    uint32_t bit = 1u << (irq % 32), hwbit = 1u << (hw % 32);
    if (!(soft_raised[irq / 32] & bit))
        NVIC_ICPR(hw / 32) = hwbit;
    soft_raised[irq / 32] &= ~bit;
    NVIC_ISER(hw / 32) = hwbit;
}

void arch_irq_disable(unsigned irq)
{
    unsigned hw = hw_line(irq);
    NVIC_ICER(hw / 32) = 1u << (hw % 32);
}

void arch_irq_set_pending(unsigned irq)
{
    unsigned hw = hw_line(irq);
    uint32_t bit = 1u << (irq % 32), hwbit = 1u << (hw % 32);
    if (!(NVIC_ISER(hw / 32) & hwbit))
        soft_raised[irq / 32] |= bit;
    NVIC_ISPR(hw / 32) = hwbit;
}

void arch_request_resched(void)
{
    SCB_ICSR = ICSR_PENDSVSET;
}
