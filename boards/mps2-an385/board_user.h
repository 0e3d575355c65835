// SPDX-License-Identifier: MIT
// What user programs need to know about this board (the demo's driver, the tests, the
// tracelogger): a device timer that interrupts, the UART for the trace stream, a few
// addresses the protection tests aim at, and the memory map for the trace's system page.
// The device windows themselves are granted in board.mk (BOARD_DEVTIMER_WINDOW, ...).
#ifndef BOARD_USER_H
#define BOARD_USER_H

#include <stddef.h>
#include <stdint.h>

// Programs may read the cycle counter, board_cycles32() of board_clock.h, without a kernel
// call: the MPU's clock region (kernel/arch/armv7m/mpu.c) lets programs read timer 1. Their user-event rings (user/lib/trace_uring.c) carry its time.
#define BOARD_USER_CLOCK 1

#define BOARD_NAME_STR "mps2-an385"
#define BOARD_ARCH_STR "armv7m"
// For the trace's QNX system page: processor type (trace/kev_file.h), CPU name, MHz (0: unknown).
#define BOARD_QNX_SYSPAGE_TYPE 4
#define BOARD_CPU_STR "Cortex-M3"
#define BOARD_CPU_MHZ 25

// Addresses a program may not touch: the protection tests aim at them.
#define BOARD_KERNEL_RAM_ADDR 0x20000100u   // kernel data
#define BOARD_CODE_ADDR       0x00000100u   // code memory: read-only for programs
#define BOARD_OTHER_DEV_ADDR  0x40004000u   // the console UART: no program has it

// Kernel trace buffers (16 KB each) the pool has room for beside the programs' allocations:
// the tracelogger's default -k, and what the tests ask for at most.
#define BOARD_TRACE_BUFS 32

// The memory map, for the trace's system page: X(base, size, name).
#define BOARD_MEMORY_MAP(X)                          \
    X(0x00000000u, 0x00400000u, "code")              \
    X(0x20000000u, 0x00400000u, "sram")              \
    X(0x20200000u, 0x00200000u, "pool")

// The device timer: CMSDK APB timer 0, interrupt line 8, counting the 25 MHz core clock.
#define DEVTIMER_IRQ 8
#define DEVTIMER_REG(off) (*(volatile uint32_t *)(0x40000000u + (off)))

static inline void devtimer_start(uint32_t period_cycles)
{
    DEVTIMER_REG(0x0) = 0;              // CTRL
    DEVTIMER_REG(0xc) = 1;              // INTCLEAR
    DEVTIMER_REG(0x8) = period_cycles;  // RELOAD
    DEVTIMER_REG(0x4) = period_cycles;  // VALUE
    DEVTIMER_REG(0x0) = 1u | 8u;        // enable, interrupt
}

static inline void devtimer_ack(void)
{
    DEVTIMER_REG(0xc) = 1;
}

static inline void devtimer_stop(void)
{
    DEVTIMER_REG(0x0) = 0;
}

// The device timer at a rate in Hz (the interrupt-rate test, acq): it counts the 25 MHz core
// clock, so the period is 25 MHz / hz cycles. Returns the rate programmed.
#define DEVTIMER_CLOCK_HZ 25000000u

static inline uint32_t devtimer_start_hz(uint32_t hz)
{
    uint32_t period = DEVTIMER_CLOCK_HZ / hz;
    devtimer_start(period);
    return DEVTIMER_CLOCK_HZ / period;
}

// The trace stream UART: CMSDK APB UART 1 (QEMU's second -serial), at 25 MHz / BAUDDIV 16.
#define BOARD_TRACE_UART_BAUD 1562500
#define TRACE_UART_REG(off) (*(volatile uint32_t *)(0x40005000u + (off)))

// The UART free for a program (docs/boards.md, "Devices for programs"): CMSDK APB UART 2, its
// window BOARD_USER_UART_WINDOW (board.mk), receive on line 4, transmit on line 5 (each a
// level once its event came: a byte in, a byte sent, with its enable in CTRL; cleared by writing
// its bit to INTCLEAR, before the bytes are read: one that comes after raises it again). In
// QEMU the third -serial (QEMU_EXTRA, docs/boards.md).
#define USER_UART_RX_IRQ 4
#define USER_UART_TX_IRQ 5
#define USER_UART_REG(off) (*(volatile uint32_t *)(0x40006000u + (off)))
#define USER_UART_DATA      0x00u
#define USER_UART_STATE     0x04u       // bit 0 TX full, bit 1 RX full
#define USER_UART_CTRL      0x08u       // bit 0 TX on, 1 RX on, 2 TX interrupt, 3 RX interrupt
#define USER_UART_INTSTATUS 0x0cu       // (read) bit 0 TX, bit 1 RX; (write) INTCLEAR
#define USER_UART_BAUDDIV   0x10u

static inline void trace_uart_init(void)
{
    TRACE_UART_REG(0x10) = 16;          // BAUDDIV
    TRACE_UART_REG(0x08) = 3;           // CTRL: transmit, receive (the host's XON/XOFF)
}

// The logger's send (tracelogger/stream.c): trace_uart_write writes bytes while the transmit
// buffer (one byte: the CMSDK UART has no FIFO) has room and returns how many; when it stops
// short, the logger waits for the TX interrupt (TRACE_UART_TX_IRQ, QEMU's UART 1 TX line),
// which trace_uart_tx_irq(true) enables after clearing a stale one (the UART latches it when
// the buffer drains while enabled), instead of polling. trace_uart_tx_full says whether the
// buffer is still full (the logger looks once more after enabling, so that a drain between its
// last look and the enable is not waited for).
#define TRACE_UART_TX_IRQ 3

// STATE is 0 while nothing is pending (the transmit buffer free, no byte received, no overrun):
// one test a byte on that path, and only a non-zero STATE is looked at for bit 0 (transmit
// buffer full).
#define TRACE_UART_TX_BUSY(state) ((state) && ((state) & 1u))

static inline size_t trace_uart_write(const uint8_t *p, size_t n)
{
    volatile uint32_t *state = &TRACE_UART_REG(0x04), *data = &TRACE_UART_REG(0x00);
    const uint8_t *s = p, *end4 = p + (n & ~(size_t)3), *end = p + n;
    for (; p != end4; p += 4) {     // four bytes a turn
        if (TRACE_UART_TX_BUSY(*state))
            return (size_t)(p - s);
        *data = p[0];
        if (TRACE_UART_TX_BUSY(*state))
            return (size_t)(p + 1 - s);
        *data = p[1];
        if (TRACE_UART_TX_BUSY(*state))
            return (size_t)(p + 2 - s);
        *data = p[2];
        if (TRACE_UART_TX_BUSY(*state))
            return (size_t)(p + 3 - s);
        *data = p[3];
    }
    for (; p != end; p++) {
        if (TRACE_UART_TX_BUSY(*state))
            break;
        *data = *p;
    }
    return (size_t)(p - s);
}

static inline int trace_uart_tx_full(void)
{
    return (int)(TRACE_UART_REG(0x04) & 1u);
}

static inline void trace_uart_tx_irq(int on)
{
    TRACE_UART_REG(0x0c) = 1u;                  // INTCLEAR: TX
    TRACE_UART_REG(0x08) = on ? 3u | 4u : 3u;   // CTRL: transmit, receive, TX interrupt
}

// A byte the host sent (flow control, trace/kev_stream.h), or -1 when none waits.
static inline int trace_uart_getc(void)
{
    if (!(TRACE_UART_REG(0x04) & 2u))   // STATE: receive buffer full
        return -1;
    return (int)(TRACE_UART_REG(0x00) & 0xffu);
}

#endif
