// SPDX-License-Identifier: MIT
// The periodic tick from SysTick (every ARMv7-M core has it, clocked by the core clock), and
// the rest of the exception set-up: priorities, fault enables, MPU.
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/tick_counter.h>
#include <armv7m_regs.h>
#include <board_config.h>


void arch_init(void)
{
    // SVC (SHPR2 top byte), PendSV and SysTick (SHPR3 top two bytes) at the kernel level;
    // MemManage, BusFault, UsageFault (SHPR1) above it.
    SCB_SHPR1 = PRIO_FAULT | PRIO_FAULT << 8 | PRIO_FAULT << 16;
    SCB_SHPR2 = PRIO_KERNEL << 24;
    SCB_SHPR3 = PRIO_KERNEL << 16 | PRIO_KERNEL << 24;
    for (unsigned i = 0; i < BOARD_NIRQ; i++)
        NVIC_IPR(i) = PRIO_KERNEL;
    SCB_SHCSR |= SHCSR_MEMFAULTENA | SHCSR_BUSFAULTENA | SHCSR_USGFAULTENA;
    SCB_CCR |= CCR_DIV_0_TRP;
    arch_mpu_init();
}

void arch_tick_start(uint32_t cycles_per_tick)
{
    SYST_RVR = cycles_per_tick - 1;
    SYST_CVR = 0;
    SYST_CSR = 7;   // enable, interrupt, core clock
    tick_counter_start(cycles_per_tick);
}

// The periods a tick covers, by the board's counter. Its period in counter cycles: the same
// clock as SysTick's on mps2-an385; on netduinoplus2 in QEMU SysTick runs 0.8 % fast against
// the counter (TIM2), and now and then a tick counts 0 periods (docs/timers.md).
unsigned arch_tick_periods(void)
{
    return tick_counter_periods(board_cycles_per_sec() / TICK_HZ);
}
