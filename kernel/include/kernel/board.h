// SPDX-License-Identifier: MIT
// What the portable kernel asks of a board (boards/<board>/ implements it). The board's own
// constants (memory map, IRQ numbers) are in boards/<board>/board_config.h.
#ifndef KERNEL_BOARD_H
#define KERNEL_BOARD_H

#include <kernel/kernel.h>

// board_init: console and clocks, before anything else. board_late_init: after the
// kernel's subsystems are up (attaches the board's own interrupt handlers).
void board_init(void);
void board_late_init(void);
void board_console_putc(char c);
// 64-bit monotonic cycle counter (ClockCycles), and its frequency.
uint64_t board_cycles(void);
uint32_t board_cycles_per_sec(void);
// True when this board may attach interrupt `irq` for a user process.
bool board_irq_user_ok(unsigned irq);
// Region of RAM handed to the contiguous allocator.
uintptr_t board_pool_base(void);
size_t board_pool_size(void);
// True when a debugger/host answers semihosting calls.
bool board_has_semihosting(void);
// The command line the boot loader gave the kernel (x86-pc: Multiboot's, from QEMU's -append),
// without the kernel's own name, or NULL when there is none (or it is empty). Programs read
// it through SYS_GET_CMDLINE when there is no semihosting host (kernel/shost.c).
const char *board_boot_cmdline(void);
// The length of the boot loader's command line when it was longer than the board keeps
// (x86-pc: 2047 bytes), else 0. The board says so on the console at boot, board_boot_cmdline
// gives NULL and SYS_GET_CMDLINE fails for every caller (as QEMU's semihosting does for a line
// over the caller's buffer): a program stops with its "too long" error, never runs on a cut line.
size_t board_boot_cmdline_over(void);
_Noreturn void board_halt(int status);
const char *board_name(void);

#endif
