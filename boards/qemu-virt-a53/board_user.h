// SPDX-License-Identifier: MIT
// What user programs need to know about this board (the tests, the demo's driver, the
// tracelogger): a device timer that interrupts, a few addresses the protection tests aim at,
// and the memory map for the trace's system page. The device timer is the generic timer's EL1
// physical timer (CNTP_*), which a program may program from EL0 only while it holds the
// device-timer window (board.mk: the kernel sets CNTKCTL_EL1.EL0PTEN while it runs).
#ifndef BOARD_USER_H
#define BOARD_USER_H

#include <stddef.h>
#include <stdint.h>

// Programs may read the cycle counter, board_cycles32() of board_clock.h, without a kernel
// call: CNTKCTL_EL1.EL0VCTEN opens CNTVCT_EL0 to EL0. Their user-event rings (user/lib/trace_uring.c) carry its time.
#define BOARD_USER_CLOCK 1
// User-event rings of a program's own (user/lib/trace_uring.c): up to 4 threads per program
// get one each, so that threads on different CPUs share no ring (docs/smp.md).
#define BOARD_USER_RING_THREADS 4
// Records in each of those rings and the process's (user/lib/apphdr.c; 64 elsewhere): a full
// ring is a kernel entry, and on QEMU an entry costs a whole TLB and jump-cache flush (the
// kernel switches TTBR0's ASID at every entry and exit), so 256 records make a flood about
// three times faster on the host's clock than 64 (docs/smp.md, "User events").
// 5 rings of 4 KB in each program's RAM.
#define BOARD_USER_RING_RECORDS 256u

#define BOARD_NAME_STR "qemu-virt-a53"
#define BOARD_ARCH_STR "aarch64le"      // QNX's name for the machine
// For the trace's QNX system page: processor type (trace/kev_file.h), CPU name, MHz (0: unknown).
#define BOARD_QNX_SYSPAGE_TYPE 7
#define BOARD_CPU_STR "Cortex-A53"
#define BOARD_CPU_MHZ 0

// The generic timer's rate is CNTFRQ_EL0, which differs between QEMU versions and boards:
// ClockCyclesPerSec() gives it.
#define BOARD_CYCLE_HZ 0u

// Addresses a program may not touch: the protection tests aim at them.
#define BOARD_KERNEL_RAM_ADDR 0x40600100u   // kernel data
#define BOARD_CODE_ADDR       0x40100100u   // the kernel image: no program may write it
#define BOARD_OTHER_DEV_ADDR  0x09000000u   // the console UART: no program has it

#define BOARD_TRACE_BUFS 32

// The memory map, for the trace's system page: X(base, size, name).
#define BOARD_MEMORY_MAP(X)                          \
    X(0x40100000u, 0x00500000u, "code")              \
    X(0x40600000u, 0x00300000u, "ram")               \
    X(0x40a00000u, 0x00200000u, "pool")

// The device timer: CNTP, line 14. Periodic by moving the compare value on by one period at
// each interrupt (the timer's condition is level: it holds until CVAL moves past the count).
#define DEVTIMER_IRQ 14

#include <devtimer_a64.h>       // devtimer_start/ack/stop: the generic timer's CNTP

// The trace stream UART: virt's secure PL011 (QEMU's second -serial), polled.
#define TRACE_UART_REG(off) (*(volatile uint32_t *)(uintptr_t)(0x09040000u + (off)))

static inline void trace_uart_init(void)
{
    TRACE_UART_REG(0x38) = 0;                               // no interrupts
    TRACE_UART_REG(0x30) = (1u << 0) | (1u << 8) | (1u << 9); // UART, TX and RX enabled
}

// The logger's send (tracelogger/stream.c): bytes while the TX FIFO has room, how many
// written. No TX interrupt here: the secure UART's line (SPI 8) is past the kernel's 32 lines,
// so when the FIFO is full the logger sleeps a tick instead of polling (QEMU's PL011 writes
// each byte at once, so in QEMU it is never full).
static inline size_t trace_uart_write(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && !(TRACE_UART_REG(0x18) & (1u << 5)))    // FR: TX FIFO full
        TRACE_UART_REG(0x00) = p[i++];
    return i;
}

static inline int trace_uart_tx_full(void)
{
    return (int)(TRACE_UART_REG(0x18) & (1u << 5));
}

// A byte the host sent (flow control, trace/kev_stream.h), or -1 when none waits.
static inline int trace_uart_getc(void)
{
    if (TRACE_UART_REG(0x18) & (1u << 4))                   // RX FIFO empty
        return -1;
    return (int)(TRACE_UART_REG(0x00) & 0xffu);
}

#endif
