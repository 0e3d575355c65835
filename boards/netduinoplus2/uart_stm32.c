// SPDX-License-Identifier: MIT
// Console on USART1 (PA9 TX, PA10 RX, 115200 8N1): polled transmit, so the kernel console
// works from any context, including a panic. Also sets up USART2 (PA2 TX, PA3 RX), the
// trace stream UART, as far as a program cannot: its clock, pins and baud rate; the
// tracelogger enables it through its device window (board_user.h).
// The chip runs from the 16 MHz HSI with APB1 and APB2 undivided, so both UARTs are clocked
// at BOARD_HSI_HZ. QEMU ignores the clock enables, the pins and the baud rate.
#include <kernel/board.h>
#include "stm32f4.h"

// Alternate function `af` on pin `pin` of GPIOA.
static void gpioa_af(unsigned pin, unsigned af)
{
    uint32_t moder = STM_REG(GPIOA_BASE, GPIO_MODER);
    moder = (moder & ~(3u << (2 * pin))) | 2u << (2 * pin);
    STM_REG(GPIOA_BASE, GPIO_MODER) = moder;
    uint32_t off = pin < 8 ? GPIO_AFRL : GPIO_AFRH;
    unsigned sh = 4 * (pin % 8);
    STM_REG(GPIOA_BASE, off) = (STM_REG(GPIOA_BASE, off) & ~(15u << sh)) | af << sh;
}

void uart_stm32_init(void)
{
    STM_REG(RCC_BASE, RCC_AHB1ENR) |= RCC_AHB1_GPIOA;
    STM_REG(RCC_BASE, RCC_APB2ENR) |= RCC_APB2_USART1;
    STM_REG(RCC_BASE, RCC_APB1ENR) |= RCC_APB1_USART2;
    STM_REG(RCC_BASE, RCC_APB1ENR) |= RCC_APB1_USART3;  // clocked for irqpace's level line
    (void)STM_REG(RCC_BASE, RCC_APB1ENR);     // the enables take a bus cycle to act
    gpioa_af(9, 7);
    gpioa_af(10, 7);
    gpioa_af(2, 7);
    gpioa_af(3, 7);
    // 16x oversampling: BRR = f_ck / baud, mantissa in bits 15:4 and sixteenths below.
    STM_REG(USART1_BASE, USART_BRR) = (BOARD_HSI_HZ + CONSOLE_BAUD / 2) / CONSOLE_BAUD;
    STM_REG(USART1_BASE, USART_CR1) = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE;
    STM_REG(USART2_BASE, USART_BRR) = BOARD_HSI_HZ / TRACE_UART_BAUD;
}

void board_console_putc(char c)
{
    while (!(STM_REG(USART1_BASE, USART_SR) & USART_SR_TXE))
        ;
    STM_REG(USART1_BASE, USART_DR) = (uint8_t)c;
}
