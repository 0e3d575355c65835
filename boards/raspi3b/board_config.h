// SPDX-License-Identifier: MIT
// Raspberry Pi 3 Model B (BCM2837, 4 Cortex-A53s; the kernel uses core 0) and QEMU's raspi3b.
// RAM from 0, identity-mapped by the MMU; the firmware (or QEMU) loads the kernel at 0x80000.
//
//   0x00000000 +--------------------+  firmware's spin tables, QEMU's boot stub: left alone
//   0x00080000 +--------------------+  kernel image (kernel8.img / the ELF)      (1.5 MB)
//   0x00200000 +--------------------+
//              | program slots      |  APP_MAX_SLOTS x APP_FLASH_SLOT (256 KB each)
//   0x00600000 +--------------------+  end of "code memory": all else is execute-never
//              | kernel RAM         |  .data, .bss, stacks, page tables             (2 MB)
//   0x00800000 +--------------------+
//              | program RAM slots  |  one per program, APP_RAM_SLOT (64 KB) each
//   0x00900000 +--------------------+
//   0x00a00000 +--------------------+
//              | contiguous pool    |  pmem: trace buffers and other large blocks   (2 MB)
//   0x00c00000 +--------------------+
//              | incident region    |  a D trigger's record, kept across resets (1 MB)
//   0x00d00000 +--------------------+
//   0x01000000   end of the 4 KB-page map (the rest of RAM: 2 MB blocks, kernel only)
//   0x3f000000   peripherals (16 MB, device memory, kernel only): the BCM2835 interrupt
//                controller at 0x3f00b200, PL011 UART0 at 0x3f201000 (the console), the
//                mini UART at 0x3f215040 (the trace stream, tracelogger -u)
//   0x40000000   the BCM2836 local peripherals: per-core timer interrupt routing, mailboxes
//
// Interrupt lines (the kernel's numbers, 0-31; bcm2836_intc.c): 0-3 this core's generic timer
// interrupts (0 CNTPS, 1 CNTPNS: the programs' device timer, 2 CNTHP, 3 CNTV: the tick), 17 the
// PL011 (GPU interrupt 57), 24-31 have no hardware and are raised in software only.
//
// APP_* come from board.mk (-D on the command line), the one place they are set.
// Only #defines here: the linker scripts include this file too.
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define BOARD_NAME        "raspi3b"
#define BOARD_NIRQ        32
#define BOARD_HW_NIRQ     24

#define RAM_BASE          0x00000000
#define CODE_MEM_BASE     0x00080000
#define CODE_MEM_SIZE     0x00580000
#define KERNEL_FLASH_BASE 0x00080000
#define KERNEL_FLASH_SIZE 0x00180000
#define KERNEL_RAM_BASE   0x00600000
#define KERNEL_RAM_SIZE   0x00200000
#define POOL_BASE         0x00a00000
#define POOL_SIZE         0x00200000
// The incident region (docs/incidents.md): RAM after the pool, in no load segment of the
// image: QEMU keeps it across system_reset; the Pi's SDRAM keeps it through a watchdog reset.
#define INCIDENT_RAM_BASE 0x00c00000
#define INCIDENT_RAM_SIZE 0x00100000
#define PAGEMAP_SIZE      0x01000000      // RAM mapped with 4 KB pages, from RAM_BASE
#define RAM_SIZE          0x3f000000      // RAM below the peripherals (the GPU's share included)

#define DEV_BASE          0x3f000000      // peripherals: 2 MB blocks, device memory, kernel only
#define DEV_SIZE          0x01000000
#define DEV2_BASE         0x40000000      // the local peripherals
#define DEV2_SIZE         0x00200000
#define ARMCTRL_BASE      0x3f00b200u     // BCM2835 interrupt controller
#define LOCAL_BASE        0x40000000u     // BCM2836 local interrupt controller
#define UART0_BASE        0x3f201000u
#define DEV_PAGES_BASE    0x3f200000      // this 2 MB of peripherals is mapped with 4 KB pages

#define TICK_IRQ          3               // CNTV
#define DEVTIMER_LINE     1               // CNTPNS: the EL1 physical timer
#define UART0_IRQ         17              // GPU interrupt 57

// The device timer's pseudo window (board.mk BOARD_DEVTIMER_WINDOW): not memory.
#define SYSREG_WINDOW_BASE 0x1000
#define SYSREG_WINDOW_SIZE 0x1000

// Lines a KAPP_F_IO program may attach: the device timer, and lines 24-31.
#define BOARD_USER_IRQ_MASK ((1u << DEVTIMER_LINE) | 0xff000000u)

#endif
