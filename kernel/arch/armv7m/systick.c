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
    SCB_SHPR2 = PRIO_KERNEL_REST << 24;
    // DebugMonitor (SHPR3's low byte) at the faults' level too, and enabled: a process's bkpt
    // is a fault of its own like the others rather than a HardFault, so the kernel handles it
    // where an fbt probe's trap can still be taken (docs/fbt.md; in a HardFault it could not).
    SCB_SHPR3 = PRIO_FAULT | PRIO_KERNEL_REST << 16 | PRIO_KERNEL_REST << 24;
    SCB_DEMCR |= DEMCR_MON_EN;
    // One group for every kernel entry (none preempts another), and within it the profile
    // timer's interrupt first (docs/profiling.md, "Samples of an idle CPU"): when several are
    // pending at once, as when a CPU waiting in WFI is woken late for timers that expired
    // meanwhile, the sample is taken before the others run and before the thread they wake
    // is switched in (PendSV), so it finds the CPU as it was at the sample's time: idle.
    SCB_AIRCR = AIRCR_VECTKEY | AIRCR_PRIGROUP(6);
    for (unsigned i = 0; i < BOARD_NIRQ; i++)
        NVIC_IPR(i) = PRIO_KERNEL_REST;
#ifdef BOARD_PTIMER_IRQ
    NVIC_IPR(BOARD_PTIMER_IRQ) = PRIO_KERNEL;
#endif
    SCB_SHCSR |= SHCSR_MEMFAULTENA | SHCSR_BUSFAULTENA | SHCSR_USGFAULTENA;
    SCB_CCR |= CCR_DIV_0_TRP;
    arch_mpu_init();
}

void arch_tick_start(uint32_t cycles_per_tick)
{
    // The period in SysTick's own clock: the counter's cycles_per_tick, scaled where the two
    // clocks differ, so that the tick is TICK_HZ by the counter (the late tick's count follows
    // the counter, docs/timers.md: a SysTick that ran fast had every 125th interrupt count 0).
    SYST_RVR = (uint32_t)((uint64_t)cycles_per_tick * board_systick_hz() /
                          board_cycles_per_sec()) - 1;
    SYST_CVR = 0;
    SYST_CSR = 7;   // enable, interrupt, core clock
    tick_counter_start(cycles_per_tick);
}

// The periods a tick covers, by the board's counter, in whose cycles the tick's period is.
unsigned arch_tick_periods(void)
{
    return tick_counter_periods(board_cycles_per_sec() / TICK_HZ);
}

unsigned arch_tick_pending(void)
{
    return tick_counter_pending(board_cycles_per_sec() / TICK_HZ);
}
