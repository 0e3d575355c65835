// SPDX-License-Identifier: MIT
// QEMU `virt` with a Cortex-A53, 128 MB of RAM at 1 GB, identity-mapped by the MMU.
//
//   0x08000000   GICv2 distributor, 0x08010000 CPU interface   (kernel only)
//   0x09000000   PL011 UART 0 (SPI 1): the console               (kernel only)
//   0x09040000   PL011 secure UART (secure=on): the trace stream (tracelogger -u's window)
//   0x40000000 +--------------------+  RAM; QEMU puts the device tree here: left alone (1 MB)
//   0x40100000 +--------------------+  kernel image (-kernel loads the ELF here)     (1 MB)
//   0x40200000 +--------------------+
//              | program slots      |  APP_MAX_SLOTS x APP_FLASH_SLOT (256 KB each)
//   0x40600000 +--------------------+  end of "code memory": all else is execute-never
//              | kernel RAM         |  .data, .bss, stacks, page tables             (2 MB)
//   0x40800000 +--------------------+
//              | program RAM slots  |  one per program, APP_RAM_SLOT (64 KB) each
//   0x40900000 +--------------------+
//              | dtrace's RAM       |  its compiler arena (user.mk)                (1 MB)
//   0x40a00000 +--------------------+
//              | contiguous pool    |  pmem: trace buffers and other large blocks   (2 MB)
//   0x40c00000 +--------------------+
//              | incident region    |  a D trigger's record, kept across resets (1 MB)
//   0x40d00000 +--------------------+
//   0x41000000   end of the 4 KB-page map (the rest of RAM: 2 MB blocks, kernel only)
//
// Interrupt lines (the kernel's numbers, 0-31): 0-15 are the GIC's PPIs (GIC ids 16-31:
// line 11 the virtual timer, the tick; line 14 the EL1 physical timer, the programs' device
// timer), 16-23 SPIs 0-7 (GIC ids 32-39: line 17 the UART), 24-31 have no hardware and are
// raised in software only (the tests use them).
//
// APP_* come from board.mk (-D on the command line), the one place they are set.
// Only #defines here: the linker scripts include this file too.
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME        "qemu-virt-a53"
#define BOARD_NIRQ        32
#define BOARD_HW_NIRQ     24

#define RAM_BASE          0x40000000
#define CODE_MEM_BASE     0x40100000
#define CODE_MEM_SIZE     0x00500000
#define KERNEL_FLASH_BASE 0x40100000
#define KERNEL_FLASH_SIZE 0x00100000
#define KERNEL_RAM_BASE   0x40600000
#define KERNEL_RAM_SIZE   0x00200000
#define POOL_BASE         0x40a00000
#define POOL_SIZE         0x00200000
// The incident region (docs/incidents.md): RAM after the pool, in no load segment of the
// image, which QEMU keeps across system_reset.
#define INCIDENT_RAM_BASE 0x40c00000
#define INCIDENT_RAM_SIZE 0x00100000
#define PAGEMAP_SIZE      0x01000000      // RAM mapped with 4 KB pages, from RAM_BASE
#define RAM_SIZE          0x08000000      // -m 128 (qemu.sh)

#define DEV_BASE          0x08000000      // devices: 2 MB blocks, device memory, kernel only
#define DEV_SIZE          0x02000000
#define GICD_BASE         0x08000000u
#define GICC_BASE         0x08010000u
#define UART0_BASE        0x09000000u
#define UART1_BASE        0x09040000u
#define DEV_PAGES_BASE    0x09000000      // this 2 MB of devices is mapped with 4 KB pages

#define TICK_IRQ          11              // virtual timer, PPI 27
#define DEVTIMER_LINE     14              // EL1 physical timer, PPI 30
#define UART0_IRQ         17              // SPI 1

// The device timer's pseudo window (board.mk BOARD_DEVTIMER_WINDOW): not memory.
#define SYSREG_WINDOW_BASE 0x1000
#define SYSREG_WINDOW_SIZE 0x1000

// Lines a KAPP_F_IO program may attach: the device timer, and lines 24-31.
#define BOARD_USER_IRQ_MASK ((1u << DEVTIMER_LINE) | 0xff000000u)

#endif
