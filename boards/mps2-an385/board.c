// SPDX-License-Identifier: MIT
// Board glue for the MPS2 AN385: bring-up order and the cycle counter's rate. Semihosting,
// the command line and the halt are boards/common/board_semihost.c.
#include <kernel/board.h>
#include <board_config.h>
#include <armv7m_regs.h>

void uart_cmsdk_init(void);
void timer_cmsdk_cycles_init(void);

void board_init(void)
{
    uart_cmsdk_init();
    timer_cmsdk_cycles_init();
}

void timer_cmsdk_cycles_attach(void);
void timer_cmsdk_ptimer_attach(void);

void board_late_init(void)
{
    timer_cmsdk_cycles_attach();
    timer_cmsdk_ptimer_attach();
}

uint32_t board_cycles_per_sec(void)
{
    return BOARD_CPU_HZ;
}

// SysTick counts the core clock, the cycle counter's (armv7m_regs.h).
uint32_t board_systick_hz(void)
{
    return BOARD_CPU_HZ;
}
