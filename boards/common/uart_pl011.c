// SPDX-License-Identifier: MIT
// Console on the PL011 UART 0: polled transmit (the kernel console must work from any
// context, including a panic). QEMU needs no baud rate set-up; a real PL011 (the Raspberry
// Pi's) is left as the firmware configured it.
#include <kernel/board.h>
#include <board_config.h>

#define UART_DR   (*(volatile uint32_t *)(uintptr_t)(UART0_BASE + 0x00))
#define UART_FR   (*(volatile uint32_t *)(uintptr_t)(UART0_BASE + 0x18))
#define UART_CR   (*(volatile uint32_t *)(uintptr_t)(UART0_BASE + 0x30))
#define UART_IMSC (*(volatile uint32_t *)(uintptr_t)(UART0_BASE + 0x38))
#define FR_TXFF   (1u << 5)

void pl011_init(void);
void pl011_init(void)
{
    UART_IMSC = 0;                              // no interrupts
    UART_CR = (1u << 0) | (1u << 8) | (1u << 9); // UART, TX, RX enabled
}

void board_console_putc(char c)
{
    while (UART_FR & FR_TXFF)
        ;
    UART_DR = (uint8_t)c;
}
