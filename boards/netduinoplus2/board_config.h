// SPDX-License-Identifier: MIT
// Netduino Plus 2: STM32F405RG (Cortex-M4F), as on the real board and as QEMU's
// `netduinoplus2` models it. Everything is planned for the real chip's memory: QEMU shows
// 192 KB of SRAM at 0x20000000, but the chip has 128 KB there (SRAM1 112 KB + SRAM2 16 KB,
// contiguous) and 64 KB of CCM at 0x10000000 that QEMU does not model, so nothing here uses
// more than the first 128 KB and nothing uses CCM.
//
//   0x00000000  flash, aliased (BOOT0 = 0): the reset vector is fetched here
//   0x08000000 +--------------------+  flash (1 MB)
//              | kernel image       |  vectors, text, rodata, .data image   (256 KB:
//   0x08040000 +--------------------+   flash sectors 0-5; 124 KB used today)
//              | program slots      |  APP_MAX_SLOTS (7) x APP_FLASH_SLOT (32 KB)
//   0x08078000 +--------------------+
//              | (free)             |
//   0x08100000 +--------------------+
//   0x10000000  CCM (64 KB, not in QEMU): unused
//   0x20000000 +--------------------+  SRAM1 + SRAM2 (128 KB)
//              | kernel RAM         |  .data, .bss, main stack   (40 KB; 34 KB used today)
//   0x2000a000 +--------------------+
//              | program RAM slots  |  7 x APP_RAM_SLOT (8 KB), each aligned on its size
//   0x20018000 +--------------------+
//              | contiguous pool    |  pmem: the trace ring, 2 buffers of 16 KB (32 KB)
//   0x20020000 +--------------------+  end of the real chip's SRAM
//   0x40000000  TIM2  (IRQ 28, 32-bit): the kernel's 64-bit cycle counter (timer_stm32.c)
//   0x40000400  TIM3  (IRQ 29, 16-bit): the device timer, free for a user driver
//   0x40004400  USART2 (IRQ 38, PA2 TX / PA3 RX): the trace stream UART (tracelogger -u)
//   0x40011000  USART1 (IRQ 37, PA9 TX / PA10 RX): the console, 115200 8N1
//   0x40020000  GPIOA;  0x40023800  RCC
//
// The trace pool takes 32 KB aligned on 32 KB: the MPU maps the ring to its logger as one
// power-of-two region, so 2 buffers (32 KB) fit and 3 (a 64 KB region) do not.
//
// APP_* come from board.mk (-D on the command line), the one place they are set.
// Only #defines here: the linker scripts include this file too.
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME        "netduinoplus2"
#define BOARD_NIRQ        82

#define CODE_MEM_BASE     0x08000000
#define CODE_MEM_SIZE     0x00100000
#define KERNEL_FLASH_BASE 0x08000000
#define KERNEL_FLASH_SIZE 0x00040000
#define KERNEL_RAM_BASE   0x20000000
#define KERNEL_RAM_SIZE   0x0000a000
#define POOL_BASE         0x20018000
#define POOL_SIZE         0x00008000
// Its pool holds 2 trace buffers: the kernel keeps the state of 8 at most, not the default 64
// (1.3 KB of its 40 KB of RAM: trace_port_kernel.h).
#define BOARD_TRACE_MAX_BUFS 8u

#define RCC_BASE          0x40023800u
#define GPIOA_BASE        0x40020000u
#define USART1_BASE       0x40011000u
#define USART2_BASE       0x40004400u
#define TIM2_BASE         0x40000000u
#define TIM3_BASE         0x40000400u
// The cycle counter's registers (TIM2, CNT at 0x24), readable by programs (the MPU's clock
// region): their user-event rings carry its time (user/lib/trace_uring.c).
#define BOARD_CYCLES_MMIO_BASE TIM2_BASE
#define BOARD_CYCLES_MMIO_SIZE 64u
#define TIM2_IRQ          28
#define TIM3_IRQ          29

// The clock the chip runs from out of reset (HSI), which this board keeps: core, AHB, APB1
// and APB2 all at 16 MHz, so SysTick, the timers and the UARTs share one clock.
#define BOARD_HSI_HZ      16000000u
#define CONSOLE_BAUD      115200u
#define TRACE_UART_BAUD   1000000u

// Lines a KAPP_F_IO program may attach: the device timer (TIM3, 29), lines 24-27 and 30
// (TIM1/TIM9-11, TIM4: this board never enables them, so only software triggers them; the
// tests use 24 and 25), and 31 (USART3, below). Line 28 (TIM2) is the kernel's. The kernel
// handles lines 0-31 only (KMAX_IRQS), so every line this board uses has a number below 32.
#define BOARD_USER_IRQ_MASK 0xef000000u
// Line 31 is not I2C1's (never enabled here) but USART3's NVIC line 39, which the kernel's
// 32 lines cannot name: its transmission-complete interrupt is the level line of the
// interrupt-rate test (board_user.h SWLINE_IRQ; kernel/arch/armv7m/nvic.c hw_line).
#define BOARD_NVIC_ALIAS_LINE 31u
#define BOARD_NVIC_ALIAS_HW   39u

#endif
