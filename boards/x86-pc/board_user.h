// SPDX-License-Identifier: MIT
// What user programs need to know about this board (the tests, the demo's driver, the
// tracelogger): a device timer that interrupts, the UART for the trace stream, a few addresses
// the protection tests aim at, and the memory map for the trace's system page. Devices are
// I/O ports here; a program reaches them only with its device window (board.mk), which the
// kernel grants through the TSS I/O permission bitmap while the program runs.
#ifndef BOARD_USER_H
#define BOARD_USER_H

#include <stddef.h>
#include <stdint.h>

// Programs may read the cycle counter, board_cycles32() of board_clock.h, without a kernel
// call: rdtsc runs at CPL 3 (CR4.TSD clear). Their user-event rings (user/lib/trace_uring.c) carry its time.
#define BOARD_USER_CLOCK 1

#define BOARD_NAME_STR "x86-pc"
#define BOARD_ARCH_STR "x86"
// For the trace's QNX system page: processor type (trace/kev_file.h), CPU name, MHz (0: unknown).
#define BOARD_QNX_SYSPAGE_TYPE 0
#define BOARD_CPU_STR "i686"
#define BOARD_CPU_MHZ 0

// The cycle counter (the TSC) has no fixed rate: the kernel measures it at boot
// (ClockCyclesPerSec() gives the figure).
#define BOARD_CYCLE_HZ 0u

// Addresses a program may not touch: the protection tests aim at them.
#define BOARD_KERNEL_RAM_ADDR 0x00400100u   // kernel data
#define BOARD_CODE_ADDR       0x00100100u   // the kernel image: no program may write it
#define BOARD_OTHER_DEV_ADDR  0x000b8000u   // VGA text memory: no program has it

// Kernel trace buffers (16 KB each) the pool has room for beside the programs' allocations:
// the tracelogger's default -k, and what the tests ask for at most.
#define BOARD_TRACE_BUFS 32

// init and appinit start the tracelogger at this priority, below the programs (10): it sends
// each buffer by polling COM2, ~600 us of CPU per 16 KB in QEMU and ~1.4 s at a real PC's
// 115200 baud, so above them it would take their periods (user/include/logger_prio.h).
#define BOARD_LOGGER_SPAWN_PRIO 5

// The memory map, for the trace's system page: X(base, size, name).
#define BOARD_MEMORY_MAP(X)                          \
    X(0x00100000u, 0x00300000u, "code")              \
    X(0x00400000u, 0x00200000u, "ram")               \
    X(0x00800000u, 0x00200000u, "pool")

static inline void board_outb(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port));
}

static inline uint8_t board_inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

// The device timer: the RTC's periodic interrupt (line 8). Its rate is a power of two of
// 32768 Hz; the requested period (in cycle-counter cycles, for the ARM boards' timers) is
// rounded to 1024 Hz, about 1 ms, the only period the programs ask for.
#define DEVTIMER_IRQ 8
#define RTC_INDEX 0x70
#define RTC_DATA  0x71

static inline uint8_t rtc_read(uint8_t reg)
{
    board_outb(RTC_INDEX, reg);
    return board_inb(RTC_DATA);
}

static inline void rtc_write(uint8_t reg, uint8_t v)
{
    board_outb(RTC_INDEX, reg);
    board_outb(RTC_DATA, v);
}

static inline void devtimer_start(uint32_t period_cycles)
{
    (void)period_cycles;
    rtc_write(0x0a, (uint8_t)((rtc_read(0x0a) & 0xf0u) | 6u));   // 1024 Hz
    rtc_write(0x0b, (uint8_t)(rtc_read(0x0b) | 0x40u));          // periodic interrupt on
    (void)rtc_read(0x0c);                                        // clear what is pending
}

static inline void devtimer_ack(void)
{
    (void)rtc_read(0x0c);       // reading register C re-arms the interrupt
}

static inline void devtimer_stop(void)
{
    rtc_write(0x0b, (uint8_t)(rtc_read(0x0b) & ~0x40u));
    (void)rtc_read(0x0c);
}

// The device timer at a rate in Hz (the interrupt-rate test, acq): the RTC's periodic rates
// are 32768 >> (rs - 1) Hz (rs 3..15), so the nearest one at or above hz (1000 gives 1024).
// Returns the rate programmed.
static inline uint32_t devtimer_start_hz(uint32_t hz)
{
    unsigned rs = 3;
    while (rs < 15 && (32768u >> rs) >= hz)
        rs++;
    rtc_write(0x0a, (uint8_t)((rtc_read(0x0a) & 0xf0u) | rs));
    rtc_write(0x0b, (uint8_t)(rtc_read(0x0b) | 0x40u));
    (void)rtc_read(0x0c);
    return 32768u >> (rs - 1);
}

// The trace stream UART: COM2 (QEMU's second -serial), 16550, polled.
#define TRACE_UART_PORT 0x2f8

static inline void trace_uart_init(void)
{
    board_outb(TRACE_UART_PORT + 1, 0);       // no interrupts
    board_outb(TRACE_UART_PORT + 3, 0x80);    // DLAB: divisor 1 = 115200
    board_outb(TRACE_UART_PORT + 0, 1);
    board_outb(TRACE_UART_PORT + 1, 0);
    board_outb(TRACE_UART_PORT + 3, 0x03);    // 8N1
    board_outb(TRACE_UART_PORT + 2, 0x07);    // FIFOs on
}

// The stream is this board's storage, and init and appinit start the logger below the
// programs already (BOARD_LOGGER_SPAWN_PRIO): it sends at its own priority.
#define BOARD_STREAM_BELOW 0

// The logger's send (tracelogger/stream.c): every byte, polling LSR THRE before each, as the
// logger always has here. No TX interrupt is wired (COM2's IRQ 3 is not a line programs may
// attach), and a tick's sleep whenever the transmitter is busy carries a byte a millisecond,
// under the line's 11.5; the logger runs below the programs on this board
// (BOARD_LOGGER_SPAWN_PRIO), so its polling takes their idle time only.
static inline size_t trace_uart_write(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        while (!(board_inb(TRACE_UART_PORT + 5) & 0x20))
            ;
        board_outb(TRACE_UART_PORT + 0, p[i]);
    }
    return n;
}

static inline int trace_uart_tx_full(void)
{
    return !(board_inb(TRACE_UART_PORT + 5) & 0x20);
}

// A byte the host sent (flow control, trace/kev_stream.h), or -1 when none waits. (Without a
// second -serial COM2 reads 0xff everywhere: "data ready" always, the byte 0xff, ignored.)
static inline int trace_uart_getc(void)
{
    if (!(board_inb(TRACE_UART_PORT + 5) & 0x01))             // LSR: data ready
        return -1;
    return board_inb(TRACE_UART_PORT + 0);
}

#endif
