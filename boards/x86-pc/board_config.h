// SPDX-License-Identifier: MIT
// A PC (QEMU `pc`, 128 MB), 32-bit protected mode, identity-mapped with 4 KB pages.
//
//   0x00000000 +--------------------+  page 0 unmapped (null pointers fault)
//   0x000b8000   VGA text memory       supervisor-only (the "other device" of the tests)
//   0x00100000 +--------------------+  kernel image (Multiboot loads it here)    (1 MB)
//   0x00200000 +--------------------+
//              | program slots      |  APP_MAX_SLOTS x APP_FLASH_SLOT (8 x 256 KB)
//   0x00400000 +--------------------+  end of "code memory": the user code segment's limit
//              | kernel RAM         |  .data, .bss, stacks, page tables           (1 MB)
//   0x00500000 +--------------------+
//              | program RAM slots  |  one per program, APP_RAM_SLOT (64 KB) each
//   0x00600000 +--------------------+
//              | dtrace's RAM       |  its compiler arena (1 MB, boards/x86-pc/user.mk)
//   0x00700000 +--------------------+
//   0x00800000 +--------------------+
//              | contiguous pool    |  pmem: trace buffers and other large blocks (2 MB)
//   0x00a00000 +--------------------+
//              | incident region    |  a D trigger's record, kept across resets (1 MB)
//   0x00b00000 +--------------------+
//   0x01000000   end of the identity map
//
// I/O ports: COM1 0x3f8 (console, IRQ 4), COM2 0x2f8 (trace stream), PIT 0x40 (the tick,
// IRQ 0), PICs 0x20/0xa0, RTC 0x70 (periodic interrupt IRQ 8: the device timer for programs),
// isa-debug-exit 0xf4 (QEMU: exit status to the host).
// Interrupt lines 16-31 have no hardware: software-triggered only (the tests use them).
//
// APP_* come from board.mk (-D on the command line), the one place they are set.
// Only #defines here: the linker scripts include this file too.
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME        "x86-pc"
#define BOARD_NIRQ        32
#define BOARD_HW_NIRQ     16

#define CODE_MEM_BASE     0x00100000
#define CODE_MEM_SIZE     0x00300000
#define KERNEL_FLASH_BASE 0x00100000
#define KERNEL_FLASH_SIZE 0x00100000
#define KERNEL_RAM_BASE   0x00400000
#define KERNEL_RAM_SIZE   0x00100000
#define POOL_BASE         0x00800000
#define POOL_SIZE         0x00200000
// The incident region (docs/incidents.md): RAM after the pool, in no load segment of the
// image: QEMU keeps it across system_reset; a PC's DRAM across a warm reset.
#define INCIDENT_RAM_BASE 0x00a00000
#define INCIDENT_RAM_SIZE 0x00100000
#define IDMAP_SIZE        0x01000000

#define COM1_PORT         0x3f8
#define DEBUG_EXIT_PORT   0xf4
#define DEBUG_EXIT_BASE   64      // added to the status written there (board.c, qemu.sh)
#define PIT_IRQ           0
#define RTC_IRQ           8

// Lines a KAPP_F_IO program may attach: the RTC, and lines 24-31 (software-triggered only).
#define BOARD_USER_IRQ_MASK ((1u << RTC_IRQ) | 0xff000000u)

#endif
