// SPDX-License-Identifier: MIT
// Device interrupt lines through the NVIC, and the software request for a kernel entry
// (PendSV: taken as soon as the current kernel entry returns, at the same priority).
#include <kernel/arch.h>
#include <armv7m_regs.h>

unsigned arch_current_irq(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    return (unsigned)(ipsr & 0x1ff) - 16u;
}

void arch_irq_enable(unsigned irq)
{
    NVIC_ISER(irq / 32) = 1u << (irq % 32);
}

void arch_irq_disable(unsigned irq)
{
    NVIC_ICER(irq / 32) = 1u << (irq % 32);
}

void arch_irq_set_pending(unsigned irq)
{
    NVIC_ISPR(irq / 32) = 1u << (irq % 32);
}

void arch_request_resched(void)
{
    SCB_ICSR = ICSR_PENDSVSET;
}
