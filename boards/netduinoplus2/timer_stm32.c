// SPDX-License-Identifier: MIT
// The 64-bit cycle counter. QEMU's Cortex-M4 has no DWT cycle counter, so TIM2 (32-bit)
// counts up, free-running over all 32 bits; the high word is kept here.
//
// On the chip TIM2 is clocked like the core (16 MHz HSI, APB1 undivided), no prescaler, and
// its update interrupt at each wrap (every ~268 s) makes sure the wrap is seen. QEMU clocks
// its STM32 timers at 1 GHz whatever the core runs at (168 MHz there), so it gets a
// prescaler of 6 (166.67 MHz, the nearest to the core clock). QEMU's timer model misfires
// its update interrupt (a count never wraps at ARR; after the first hit the alarm lands at
// bogus times), so there the interrupt stays off and the wrap (every ~25.8 s) is seen only by
// reads: board_cycles() must then run at least once per wrap, which every traced run does.
//
// The high word: a read that finds the low word smaller than at the last read has crossed a
// wrap. Reads happen only inside the kernel, whose entries never nest, so no locking.
#include <kernel/board.h>
#include <kernel/irq.h>
#include <board_clock.h>
#include "stm32f4.h"

#define QEMU_TIMER_HZ 1000000000u
#define QEMU_PRESCALE 6u

static uint32_t cycles_hi, cycles_last, cycles_hz;

static void cycles_wrap(unsigned irq, void *arg)
{
    (void)irq;
    (void)arg;
    STM_REG(TIM2_BASE, TIM_SR) = ~TIM_SR_UIF;
    (void)board_cycles();
}

// Starts TIM2 counting from board_init, before the kernel prints its first line (which
// gives the rate).
void timer_stm32_cycles_init(void)
{
    STM_REG(RCC_BASE, RCC_APB1ENR) |= RCC_APB1_TIM2 | RCC_APB1_TIM3;
    (void)STM_REG(RCC_BASE, RCC_APB1ENR);
    STM_REG(TIM2_BASE, TIM_CR1) = 0;
    if (stm32_on_qemu()) {
        STM_REG(TIM2_BASE, TIM_PSC) = QEMU_PRESCALE - 1;     // QEMU applies it at once
        cycles_hz = (QEMU_TIMER_HZ + QEMU_PRESCALE / 2) / QEMU_PRESCALE;
    } else {
        cycles_hz = BOARD_HSI_HZ;                           // PSC stays 0, as after reset
    }
    STM_REG(TIM2_BASE, TIM_ARR) = 0xffffffffu;
    STM_REG(TIM2_BASE, TIM_SR) = 0;
    STM_REG(TIM2_BASE, TIM_CR1) = TIM_CR1_CEN;
    cycles_last = board_cycles32();
}

// Called once the interrupt layer is up (board_late_init).
void timer_stm32_cycles_attach(void)
{
    if (stm32_on_qemu())
        return;
    STM_REG(TIM2_BASE, TIM_DIER) = TIM_DIER_UIE;
    irq_attach_kernel(TIM2_IRQ, cycles_wrap, 0);
}

uint32_t timer_stm32_cycles_hz(void)
{
    return cycles_hz;
}

// The 64-bit count. Called only inside the kernel (entries never nest), and at least once
// per wrap of the low word, or a wrap goes uncounted.
uint64_t board_cycles(void)
{
    uint32_t lo = board_cycles32();
    if (lo < cycles_last)
        cycles_hi++;
    cycles_last = lo;
    return (uint64_t)cycles_hi << 32 | lo;
}
