// SPDX-License-Identifier: MIT
// Board glue for the MPS2 AN385: bring-up order, the pool, the user-attachable interrupt
// lines, and the halt that hands the exit status to the host (semihosting exit).
#include <kernel/board.h>
#include <kernel/arch.h>
#include <board_config.h>

void uart_cmsdk_init(void);
void timer_cmsdk_cycles_init(void);

void board_init(void)
{
    uart_cmsdk_init();
    timer_cmsdk_cycles_init();
}

void timer_cmsdk_cycles_attach(void);

void board_late_init(void)
{
    timer_cmsdk_cycles_attach();
}

uint32_t board_cycles_per_sec(void)
{
    return BOARD_CPU_HZ;
}

bool board_has_semihosting(void)
{
    // QEMU answers semihosting when started with -semihosting-config (our scripts always do);
    // on the real board it needs a debug probe, so a build for running free sets this to 0.
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

_Noreturn void board_halt(int status)
{
    if (board_has_semihosting()) {
        uint32_t blk[2] = { 0x20026u, (uint32_t)status };   // ADP_Stopped_ApplicationExit
        arch_semihost(0x20, (uint32_t)(uintptr_t)blk);      // SYS_EXIT_EXTENDED
    }
    __asm__ volatile("cpsid i");
    for (;;)
        __asm__ volatile("wfi");
}
