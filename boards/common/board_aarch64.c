// SPDX-License-Identifier: MIT
// Board glue shared by the AArch64 boards (qemu-virt-a53, raspi3b): bring-up order, the
// cycle counter (the generic timer's count at CNTFRQ_EL0), the PL011 console, semihosting
// (QEMU answers it with -semihosting-config, which the boards' qemu.sh always give; on a real
// board a debugger does) and the halt that hands the exit status to QEMU (SYS_EXIT with an
// AArch64 parameter block: QEMU exits with the status).
#include <kernel/board.h>
#include <kernel/arch.h>
#include <board_config.h>
#include <board_clock.h>

void pl011_init(void);

static uint32_t cntfrq;

void board_init(void)
{
    uint64_t f;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
    cntfrq = (uint32_t)f;
    pl011_init();
}

void board_late_init(void)
{
}

uint64_t board_cycles(void)
{
    return board_cntvct();
}

uint32_t board_cycles_per_sec(void)
{
    return cntfrq;
}

bool board_has_semihosting(void)
{
#ifdef BOARD_NO_SEMIHOSTING
    return false;
#else
    return true;
#endif
}

const char *board_boot_cmdline(void)
{
    return NULL;
}

size_t board_boot_cmdline_over(void)
{
    return 0;
}

_Noreturn void board_halt(int status)
{
    if (board_has_semihosting()) {
        // arch_semihost takes the 32-bit block layout of the other ports and widens it.
        uint32_t blk[2] = { 0x20026u, (uint32_t)status };   // ADP_Stopped_ApplicationExit
        arch_semihost(0x20, (uint32_t)(uintptr_t)blk);      // SYS_EXIT_EXTENDED
    }
    for (;;)
        __asm__ volatile("msr daifset, #0xf\n\twfi");
}
