// SPDX-License-Identifier: MIT
// Board glue for the Netduino Plus 2 (STM32F405RG): bring-up order, where the vector table
// is, and the cycle counter's rate. Semihosting, the command line and the halt are
// boards/common/board_semihost.c.
//
// Clocks: the chip comes out of reset on its 16 MHz internal oscillator (HSI) with every bus
// undivided, and this board leaves it so: SysTick, TIM2 and the UARTs all run at 16 MHz, and
// nothing waits on an RCC ready flag (QEMU, which models no RCC, would never set one).
// Faster clocks: docs/boards.md.
#include <kernel/board.h>
#include <armv7m_regs.h>
#include "stm32f4.h"

#define QEMU_CORE_HZ 168000000u     // QEMU's STM32F405 core clock (SysTick's)

static bool on_qemu;

bool stm32_on_qemu(void)
{
    return on_qemu;
}

void board_init(void)
{
    on_qemu = (STM_REG(RCC_BASE, RCC_CR) & RCC_CR_HSION) == 0;
    // The vector table is at the start of flash; VTOR's reset value (0) reaches it only
    // through the boot alias, which a boot loader (the ROM's DFU loader) may leave pointing
    // elsewhere.
    SCB_VTOR = KERNEL_FLASH_BASE;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    uart_stm32_init();
    timer_stm32_cycles_init();
}

void board_late_init(void)
{
    timer_stm32_cycles_attach();
}

// The cycle counter's rate: 16 MHz on the chip, 166.67 MHz in QEMU (timer_stm32.c says
// why).
uint32_t board_cycles_per_sec(void)
{
    return timer_stm32_cycles_hz();
}

// SysTick's clock, the core's (armv7m_regs.h): the HSI's 16 MHz on the chip, as the counter;
// 168 MHz in QEMU (docs/boards.md, "Clocks"), where SysTick programmed in counter cycles ran
// 0.8 % fast.
uint32_t board_systick_hz(void)
{
    return stm32_on_qemu() ? QEMU_CORE_HZ : BOARD_HSI_HZ;
}
