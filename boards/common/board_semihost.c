// SPDX-License-Identifier: MIT
// The part of the board contract (kernel/include/kernel/board.h) that every board shares whose
// host is a debugger speaking ARM semihosting (QEMU, or a debug probe on the real board): the
// Cortex-M and AArch64 boards. Whether semihosting is there, the command line (the debugger's,
// none from a boot loader), and the halt that hands the exit status to the host: SYS_EXIT with
// a parameter block, which QEMU exits with (arch_semihost takes the 32-bit block on every
// port; the AArch64 one widens it). Portable: the stop after it is the CPU's own
// (arch_halt_in_place, arch_cpu.h).
#include <kernel/board.h>
#include <kernel/arch.h>
#include <arch_cpu.h>

bool board_has_semihosting(void)
{
    // QEMU answers semihosting when started with -semihosting-config (our scripts always do).
    // On a chip only an attached debug probe can, and a semihosting call without one is a
    // fault: a build to run free is made with BOARD_NO_SEMIHOSTING (docs/boards.md).
#ifdef BOARD_NO_SEMIHOSTING
    return false;
#else
    return true;
#endif
}

// No boot loader command line: the debugger's (semihosting) is the programs' command line.
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
        uint32_t blk[2] = { 0x20026u, (uint32_t)status };   // ADP_Stopped_ApplicationExit
        arch_semihost(0x20, (uint32_t)(uintptr_t)blk);      // SYS_EXIT_EXTENDED
    }
    arch_halt_in_place();
}
