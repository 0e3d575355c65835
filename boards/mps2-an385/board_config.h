// SPDX-License-Identifier: MIT
// ARM MPS2 + AN385 (Cortex-M3, 25 MHz), as QEMU's `mps2-an385` models it.
//
//   0x00000000 +--------------------+  SSRAM1 (4 MB, "code memory")
//              | kernel image       |  vectors, text, rodata, .data image   (512 KB)
//   0x00080000 +--------------------+
//              | program slots      |  APP_MAX_SLOTS x APP_FLASH_SLOT (128 KB each)
//   0x00400000 +--------------------+
//   0x20000000 +--------------------+  SSRAM2/3 (4 MB)
//              | kernel RAM         |  .data, .bss, main stack               (256 KB)
//   0x20040000 +--------------------+
//              | program RAM slots  |  one per program, APP_RAM_SLOT (32 KB) each
//   0x20400000 +--------------------+
//   0x21000000 +--------------------+  PSRAM (16 MB): QEMU's machine RAM, the one part of the
//              | contiguous pool    |  board a host file can back (make live shares it):
//              |                    |  pmem: trace buffers and other large blocks (2 MB)
//   0x21200000 +--------------------+
//              | probe area         |  the ring's table, the probe block (64 KB)
//   0x21210000 +--------------------+
//              | incident region    |  a D trigger's record, kept across resets (1 MB)
//   0x21310000 +--------------------+
//   0x40000000  CMSDK APB timer 0 (IRQ 8): free for a user driver (the demo's "device")
//   0x40001000  CMSDK APB timer 1 (IRQ 9): the kernel's 64-bit cycle counter
//   0x40002000  CMSDK APB dual timer (IRQ 10): the kernel's profile timer (kernel/ptimer.h)
//   0x40004000  CMSDK APB UART 0 (IRQ 0 rx, 1 tx): the console
//   0x40005000  CMSDK APB UART 1 (IRQ 2 rx, 3 tx): the trace stream (tracelogger -u), else a
//               program's
//   0x40006000  CMSDK APB UART 2 (IRQ 4 rx, 5 tx): free for a program (QEMU's third -serial)
//
// APP_* come from board.mk (-D on the command line), the one place they are set.
// Only #defines here: the linker scripts include this file too.
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME        "mps2-an385"
#define BOARD_NIRQ        32
#define BOARD_CPU_HZ      25000000u

#define CODE_MEM_BASE     0x00000000
#define CODE_MEM_SIZE     0x00400000
#define KERNEL_FLASH_BASE 0x00000000
#define KERNEL_FLASH_SIZE 0x00080000
#define KERNEL_RAM_BASE   0x20000000
#define KERNEL_RAM_SIZE   0x00040000
#define POOL_BASE         0x21000000
#define POOL_SIZE         0x00200000
#define PROBE_RAM_BASE    0x21200000
#define PROBE_RAM_SIZE    0x00010000
// The incident region (docs/incidents.md): PSRAM after the probe area, which no load segment
// of the image covers and no reset clears (QEMU keeps its RAM across system_reset; the real
// board's PSRAM keeps its contents through a warm reset, not a power cycle).
#define INCIDENT_RAM_BASE 0x21210000
#define INCIDENT_RAM_SIZE 0x00100000
#define BOARD_SHARED_RAM_BASE 0x21000000   // what QEMU's machine RAM is (make live's file)

#define UART0_BASE        0x40004000u
#define TIMER0_BASE       0x40000000u
#define TIMER1_BASE       0x40001000u
#define DUALTIMER_BASE    0x40002000u
#define TIMER0_IRQ        8
#define TIMER1_IRQ        9
// The cycle counter's registers (timer 1), readable by programs (the MPU's clock region):
// their user-event rings carry its time (user/lib/trace_uring.c).
#define BOARD_CYCLES_MMIO_BASE TIMER1_BASE
#define BOARD_CYCLES_MMIO_SIZE 32u
#define DUALTIMER_IRQ     10
// The profile timer's line: its vector is the profile entry (kernel/arch/armv7m/vectors.c).
#define BOARD_PTIMER_IRQ  DUALTIMER_IRQ

// Lines a KAPP_F_IO program may attach (docs/boards.md, "Devices for programs"): timer 0,
// UART 1's two (the tracelogger's stream waits on its transmit line; a program owns the UART
// when no stream runs), UART 2's two, and lines 24-31, which no device on this board drives
// (software-triggered only; the tests use them).
#define UART1_RX_IRQ      2
#define UART1_TX_IRQ      3
#define UART2_RX_IRQ      4
#define UART2_TX_IRQ      5
#define BOARD_USER_IRQ_MASK ((1u << TIMER0_IRQ) | (1u << UART1_RX_IRQ) | (1u << UART1_TX_IRQ) | \
                             (1u << UART2_RX_IRQ) | (1u << UART2_TX_IRQ) | 0xff000000u)

#endif
