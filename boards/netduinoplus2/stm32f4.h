// SPDX-License-Identifier: MIT
// Register offsets of the STM32F4 blocks this board uses (RM0090), and the board files'
// functions for one another. Private to boards/netduinoplus2/.
#ifndef STM32F4_H
#define STM32F4_H

#include <stdbool.h>
#include <stdint.h>
#include <board_config.h>

#define STM_REG(base, off) (*(volatile uint32_t *)((base) + (off)))

#define RCC_CR           0x00u
#define RCC_AHB1ENR      0x30u
#define RCC_APB1ENR      0x40u
#define RCC_APB2ENR      0x44u
#define RCC_CR_HSION     (1u << 0)
#define RCC_AHB1_GPIOA   (1u << 0)
#define RCC_APB1_TIM2    (1u << 0)
#define RCC_APB1_TIM3    (1u << 1)
#define RCC_APB1_USART2  (1u << 17)
#define RCC_APB1_USART3  (1u << 18)
#define RCC_APB2_USART1  (1u << 4)

#define GPIO_MODER       0x00u
#define GPIO_AFRL        0x20u
#define GPIO_AFRH        0x24u

#define TIM_CR1          0x00u
#define TIM_DIER         0x0cu
#define TIM_SR           0x10u
#define TIM_DIER_UIE     (1u << 0)
#define TIM_SR_UIF       (1u << 0)
#define TIM_CNT          0x24u
#define TIM_PSC          0x28u
#define TIM_ARR          0x2cu
#define TIM_CR1_CEN      (1u << 0)

#define USART_SR         0x00u
#define USART_DR         0x04u
#define USART_BRR        0x08u
#define USART_CR1        0x0cu
#define USART_SR_TXE     (1u << 7)
#define USART_CR1_UE     (1u << 13)
#define USART_CR1_TE     (1u << 3)
#define USART_CR1_RE     (1u << 2)

// board.c: true when running in QEMU, which models no RCC (its registers read as zero; on
// the chip RCC_CR always shows HSION while the HSI clocks the core, as it does here).
bool stm32_on_qemu(void);
// uart_stm32.c: the console (USART1) and the trace stream UART's pins and baud rate.
void uart_stm32_init(void);
// timer_stm32.c: the cycle counter (TIM2).
void timer_stm32_cycles_init(void);
void timer_stm32_cycles_attach(void);
uint32_t timer_stm32_cycles_hz(void);

#endif
