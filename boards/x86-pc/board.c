// SPDX-License-Identifier: MIT
// Board glue for a PC under QEMU: bring-up order, the pool, the user-attachable interrupt
// lines, and the halt that hands the exit status to the host through QEMU's isa-debug-exit
// device: we write 64 + status (at most 63), QEMU exits with (value << 1) | 1, qemu.sh maps it
// back; the offset keeps QEMU's own failures (exit code 1) from reading as status 0.
#include <kernel/board.h>
#include <kernel/arch.h>
#include <x86.h>
#include <kernel/bootfile.h>
#include <board_config.h>

void uart16550_init(void);
void tsc_calibrate(void);

void board_init(void)
{
    uart16550_init();
    tsc_calibrate();
}

// A Multiboot command line over what the kernel keeps is refused whole (cpu.c): said here,
// once, naming the limit, so that the programs' own "too long" errors have their cause.
void board_late_init(void)
{
    size_t over = x86_boot_cmdline_over();
    if (over)
        kprintf("kernel: boot command line of %u bytes is over the %u the kernel keeps: "
                "not given to programs\n", (unsigned)over, (unsigned)X86_BOOT_CMDLINE_MAX);
    unsigned refused = x86_boot_files_refused();
    if (refused)
        kprintf("kernel: %u boot module(s) not kept as files: more than %u, a name over %u "
                "characters, or loaded over memory the kernel uses (docs/x86.md)\n", refused,
                BOOTFILE_MAX, BOOTFILE_NAME_MAX);
}

bool board_has_semihosting(void)
{
    return false;
}

// Multiboot's command line (QEMU's -append; GRUB's `multiboot` line), which stands in for
// semihosting's: the tracelogger's and tflood's options (boards/x86-pc/qemu.sh).
const char *board_boot_cmdline(void)
{
    return x86_boot_cmdline();
}

size_t board_boot_cmdline_over(void)
{
    return x86_boot_cmdline_over();
}

_Noreturn void board_halt(int status)
{
    // Under QEMU this write ends the emulation; on a real PC nothing answers: stop here.
    uint32_t v = DEBUG_EXIT_BASE + (status < 0 || status > 63 ? 63u : (uint32_t)status);
    __asm__ volatile("outl %0, %w1" :: "a"(v), "Nd"(DEBUG_EXIT_PORT));
    for (;;)
        __asm__ volatile("cli\n\thlt");
}
