// SPDX-License-Identifier: MIT
// Console on the 16550 UART at COM1: 115200 8N1, polled transmit (the kernel console must work
// from any context, including a panic).
#include <kernel/board.h>
#include <x86.h>
#include <board_config.h>

#define UART_THR (COM1_PORT + 0)
#define UART_IER (COM1_PORT + 1)
#define UART_FCR (COM1_PORT + 2)
#define UART_LCR (COM1_PORT + 3)
#define UART_MCR (COM1_PORT + 4)
#define UART_LSR (COM1_PORT + 5)
#define LSR_THRE 0x20

void uart16550_init(void);
void uart16550_init(void)
{
    outb(UART_IER, 0);          // no interrupts
    outb(UART_LCR, 0x80);       // DLAB: divisor 1 = 115200
    outb(UART_THR, 1);
    outb(UART_IER, 0);
    outb(UART_LCR, 0x03);       // 8N1
    outb(UART_FCR, 0x07);       // FIFOs on, cleared
    outb(UART_MCR, 0x03);       // DTR, RTS
}

void board_console_putc(char c)
{
    while (!(inb(UART_LSR) & LSR_THRE))
        ;
    outb(UART_THR, (uint8_t)c);
}
