// SPDX-License-Identifier: MIT
// raspi3b: what user programs need to know about this board (the tests, the demo's driver, the
// tracelogger): a device timer that interrupts, a few addresses the protection tests aim at,
// and the memory map for the trace's system page. The device timer is the generic timer's EL1
// physical timer (CNTP_*), which a program may program from EL0 only while it holds the
// device-timer window (board.mk: the kernel sets CNTKCTL_EL1.EL0PTEN while it runs).
#ifndef BOARD_USER_H
#define BOARD_USER_H

#include <stddef.h>
#include <stdint.h>

// Programs may read the cycle counter, board_cycles32() of board_clock.h, without a kernel
// call: CNTKCTL_EL1.EL0VCTEN opens CNTVCT_EL0 to EL0. Their user-event rings
// (user/lib/trace_uring.c) carry its time.
#define BOARD_USER_CLOCK 1

#define BOARD_NAME_STR "raspi3b"
#define BOARD_ARCH_STR "aarch64le"      // QNX's name for the machine
// For the trace's QNX system page: processor type (trace/kev_file.h), CPU name, MHz (0: unknown).
#define BOARD_QNX_SYSPAGE_TYPE 7
#define BOARD_CPU_STR "Cortex-A53"
#define BOARD_CPU_MHZ 1200     // the Pi 3 B's Cortex-A53s

// The generic timer's rate is CNTFRQ_EL0, which differs between QEMU versions and boards:
// ClockCyclesPerSec() gives it.
#define BOARD_CYCLE_HZ 0u

// Addresses a program may not touch: the protection tests aim at them.
#define BOARD_KERNEL_RAM_ADDR 0x00600100u   // kernel data
#define BOARD_CODE_ADDR       0x00080100u   // the kernel image: no program may write it
#define BOARD_OTHER_DEV_ADDR  0x3f201000u   // the console UART: no program has it

#define BOARD_TRACE_BUFS 32

// The memory map, for the trace's system page: X(base, size, name).
#define BOARD_MEMORY_MAP(X)                          \
    X(0x00080000u, 0x00580000u, "code")              \
    X(0x00600000u, 0x00300000u, "ram")               \
    X(0x00a00000u, 0x00200000u, "pool")

// The device timer: CNTP (non-secure), line 1. Periodic by moving the compare value on by one period at
// each interrupt (the timer's condition is level: it holds until CVAL moves past the count).
#define DEVTIMER_IRQ 1

#include <devtimer_a64.h>       // devtimer_start/ack/stop: the generic timer's CNTP

// The trace stream UART: the mini UART (AUX, QEMU's second -serial), polled. 115200 8N1 on
// the board comes from the firmware (enable_uart=1); QEMU needs no set-up.
#define TRACE_UART_REG(off) (*(volatile uint32_t *)(uintptr_t)(0x3f215000u + (off)))

static inline void trace_uart_init(void)
{
    TRACE_UART_REG(0x04) |= 1u;                             // AUX_ENABLES: mini UART on
    TRACE_UART_REG(0x44) = 0;                               // AUX_MU_IER: no interrupts
    TRACE_UART_REG(0x60) = 3u;                              // AUX_MU_CNTL: TX, RX on
}

// The logger's send (tracelogger/stream.c): bytes while the TX FIFO has room, how many written.
// No TX interrupt wired (the AUX line is not one programs may attach): when full the logger
// sleeps a tick instead of polling.
static inline size_t trace_uart_write(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && (TRACE_UART_REG(0x54) & (1u << 5)))     // AUX_MU_LSR: TX has room
        TRACE_UART_REG(0x40) = p[i++];                      // AUX_MU_IO
    return i;
}

static inline int trace_uart_tx_full(void)
{
    return !(TRACE_UART_REG(0x54) & (1u << 5));
}

// A byte the host sent (flow control, trace/kev_stream.h), or -1 when none waits.
static inline int trace_uart_getc(void)
{
    if (!(TRACE_UART_REG(0x54) & 1u))                       // AUX_MU_LSR: data ready
        return -1;
    return (int)(TRACE_UART_REG(0x40) & 0xffu);             // AUX_MU_IO
}

#endif
