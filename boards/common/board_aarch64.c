// SPDX-License-Identifier: MIT
// Board glue shared by the AArch64 boards (qemu-virt-a53, raspi3b): bring-up order, the
// cycle counter (the generic timer's count at CNTFRQ_EL0) and the PL011 console. Semihosting,
// the command line and the halt are boards/common/board_semihost.c.
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
