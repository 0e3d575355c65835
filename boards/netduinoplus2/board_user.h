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
// call: the MPU's clock region (kernel/arch/armv7m/mpu.c) lets programs read TIM2. Their user-event rings (user/lib/trace_uring.c) carry its time.
#define BOARD_USER_CLOCK 1

#define BOARD_NAME_STR "netduinoplus2"
#define BOARD_ARCH_STR "armv7m"
// For the trace's QNX system page: processor type (trace/kev_file.h), CPU name, MHz (0: unknown).
#define BOARD_QNX_SYSPAGE_TYPE 4
#define BOARD_CPU_STR "Cortex-M4"
#define BOARD_CPU_MHZ 168

// Addresses a program may not touch: the protection tests aim at them.
#define BOARD_KERNEL_RAM_ADDR 0x20000100u   // kernel data
#define BOARD_CODE_ADDR       0x08000100u   // flash: read-only for programs
#define BOARD_OTHER_DEV_ADDR  0x40011000u   // USART1, the console: no program has it

// Kernel trace buffers (16 KB each) the pool has room for: the 32 KB pool (board_config.h)
// holds two. The tracelogger's default -k, and what the tests ask for at most.
#define BOARD_TRACE_BUFS 2
// The tracelogger's RTT up-channel (tracelogger/rtt.c): one stream frame (1036 bytes) and a
// little; for it, the .kev header and system page buffers shrink to 1280 bytes each (the
// demo's take 450 and 604), or its 8 KB RAM slot overflows.
#define BOARD_RTT_BYTES 1040u
#define BOARD_KEV_HEAD_BYTES 1280
// No incident region (board_config.h: its 128 KB of SRAM are all taken; the chip's CCM,
// which QEMU does not model, would be one): the tracelogger carries no incident writer.
#define BOARD_NO_INCIDENT 1
// The tracelogger reads the boot command line into 512 bytes here, not 2048 (tracelogger/
// main.c): 2 KB would overflow its 8 KB slot by ~1.2 KB. A longer line is refused with a message.
#define BOARD_TRACELOGGER_CMDLINE_BYTES 512
// Records in each program's user-event ring (user/lib/trace_uring.c): 8 KB RAM slots here.
#define BOARD_USER_RING_RECORDS 16u

// The memory map, for the trace's system page: X(base, size, name). The real chip's SRAM
// (QEMU shows more; board_config.h).
#define BOARD_MEMORY_MAP(X)                          \
    X(0x08000000u, 0x00100000u, "code")              \
    X(0x20000000u, 0x00020000u, "sram")              \
    X(0x20018000u, 0x00008000u, "pool")

// The device timer: TIM3, interrupt line 29, counting up to ARR and interrupting at each
// update. The period is in ticks of the timer's clock, which on the chip is the core clock
// (16 MHz: ClockCycles' unit); TIM3 is 16-bit there, so a longer period is cut to 65535
// (4 ms). QEMU clocks its timers at 1 GHz (ClockCycles runs at 166.67 MHz there), so a
// period is 1 ns ticks there (at most 65.5 us), its interrupts come at uneven intervals, and
// its timer model needs ARR written again after each update to raise the next one
// (devtimer_ack does; on the chip that write changes nothing).
#define DEVTIMER_IRQ 29
#define DEVTIMER_REG(off) (*(volatile uint32_t *)(0x40000400u + (off)))
#define DEVTIMER_PERIOD_MAX 0xffffu

static inline void devtimer_start(uint32_t period_cycles)
{
    if (period_cycles > DEVTIMER_PERIOD_MAX)
        period_cycles = DEVTIMER_PERIOD_MAX;
    DEVTIMER_REG(0x00) = 0;                 // CR1: stop
    DEVTIMER_REG(0x0c) = 1;                 // DIER: update interrupt
    DEVTIMER_REG(0x10) = 0;                 // SR: clear
    DEVTIMER_REG(0x00) = 1;                 // CR1: count
    // ARR last: QEMU's model arms its alarm on this write and, when the alarm fires while
    // the update interrupt or the counter is still off, never arms it again (the demo's
    // driver then saw no interrupt at all, more often the busier the host). On the chip the
    // order makes no difference (no ARR preload: the counter runs up to the new value).
    DEVTIMER_REG(0x2c) = period_cycles;     // ARR
}

static inline void devtimer_ack(void)
{
    DEVTIMER_REG(0x10) = 0;                             // SR: clear the update flag
    DEVTIMER_REG(0x2c) = DEVTIMER_REG(0x2c);            // ARR again: QEMU re-arms on it
}

static inline void devtimer_stop(void)
{
    DEVTIMER_REG(0x00) = 0;
    DEVTIMER_REG(0x0c) = 0;
}

// The device timer at a rate in Hz (the interrupt-rate test, acq): not on QEMU's model of this
// chip. QEMU 7.2's TIM arms its alarm at now + the counter's absolute end (not the time left to
// it), so its interrupts come at intervals that grow with the time since boot, whatever ARR and
// PSC say (a PSC write even schedules the alarm in the past, forever). So this runs the timer
// as devtimer_start does and returns 0: no rate can be promised (the interrupt-rate test
// drives the level line below instead; docs/interrupts.md).
static inline uint32_t devtimer_start_hz(uint32_t hz)
{
    (void)hz;
    devtimer_start(DEVTIMER_PERIOD_MAX);
    return 0;
}

// A level line that a program raises and lowers itself, for the interrupt-rate test here
// (user/apps/irqpace, test/qemu/test_irqrate.sh): QEMU's STM32 timer keeps no rate (above),
// and its timer and EXTI only pulse their lines, which never re-pend. USART3's interrupt is a
// level, held until the driver services it. On the chip: TC stays set while the UART sends
// nothing (from reset on), so TCIE raises the line. QEMU 7.2's model raises it only for
// RXNE with RXNEIE, and lets software set RXNE through SR (the chip ignores a 1 written
// there), so raising sets RXNE and enables both; lowering disables both and clears RXNE (in
// QEMU the SR write is what lowers the line; on the chip writing TC as 1 keeps it). The kernel
// enables USART3's clock (uart_stm32.c); the window is board.mk's BOARD_SWLINE_WINDOW. Its
// NVIC line, 39, is the kernel's line 31 (board_config.h BOARD_NVIC_ALIAS_LINE).
#define SWLINE_IRQ 31
#define SWLINE_REG(off) (*(volatile uint32_t *)(0x40004800u + (off)))
#define SWLINE_SR_TXE_TC  0xc0u
#define SWLINE_SR_RXNE    (1u << 5)
#define SWLINE_CR1_UE     (1u << 13)

static inline void swline_raise(void)
{
    SWLINE_REG(0x00) = SWLINE_SR_TXE_TC | SWLINE_SR_RXNE;          // SR (QEMU: RXNE)
    SWLINE_REG(0x0c) = SWLINE_CR1_UE | (1u << 6) | (1u << 5);      // CR1: TCIE, RXNEIE
}

static inline void swline_lower(void)
{
    SWLINE_REG(0x0c) = SWLINE_CR1_UE;                               // CR1: no interrupt
    SWLINE_REG(0x00) = SWLINE_SR_TXE_TC;                            // SR: RXNE cleared
}

// The trace stream UART: USART2 (QEMU's second -serial), 1 Mbaud 8N1 on the chip. The
// kernel has set its clock, pins and baud rate (uart_stm32.c); a program enables it.
#define TRACE_UART_REG(off) (*(volatile uint32_t *)(0x40004400u + (off)))

static inline void trace_uart_init(void)
{
    TRACE_UART_REG(0x0c) = (1u << 13) | (1u << 3) | (1u << 2); // CR1: UE, TE, RE
}

// Its two kernel buffers leave no room for a stream sent below the programs: while one is
// sent, the other fills and the kernel drops. The logger sends at its own priority here.
#define BOARD_STREAM_BELOW 0
// The stream's compact encoding (tracelogger/wire.c) needs 4.6 KB of the logger's 8 KB of RAM:
// here the buffers go out as their bytes.
#define BOARD_STREAM_COMPACT 0

// The logger's send (tracelogger/stream.c): bytes while the data register is empty (TXE), how
// many written. No TX interrupt: USART2's line (38) is past the kernel's 32, so when it is full
// the logger sleeps a tick instead of polling.
static inline size_t trace_uart_write(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && (TRACE_UART_REG(0x00) & (1u << 7)))     // SR: TXE
        TRACE_UART_REG(0x04) = p[i++];                      // DR
    return i;
}

static inline int trace_uart_tx_full(void)
{
    return !(TRACE_UART_REG(0x00) & (1u << 7));
}

// A byte the host sent (flow control, trace/kev_stream.h), or -1 when none waits.
static inline int trace_uart_getc(void)
{
    if (!(TRACE_UART_REG(0x00) & (1u << 5)))            // SR: RXNE
        return -1;
    return (int)(TRACE_UART_REG(0x04) & 0xffu);         // DR
}

#endif
