// SPDX-License-Identifier: MIT
// Console on the CMSDK APB UART 0: polled transmit (the kernel console must work from any
// context, including a panic).
#include <kernel/board.h>
#include <board_config.h>

#define UART_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00))
#define UART_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04))
#define UART_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08))
#define UART_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10))
#define STATE_TX_FULL 1u
#define CTRL_TX_EN    1u
#define CTRL_RX_EN    2u

void uart_cmsdk_init(void);
void uart_cmsdk_init(void)
{
    UART_BAUDDIV = BOARD_CPU_HZ / 115200u;
    UART_CTRL = CTRL_TX_EN | CTRL_RX_EN;
}

void board_console_putc(char c)
{
    while (UART_STATE & STATE_TX_FULL)
        ;
    UART_DATA = (uint8_t)c;
}
