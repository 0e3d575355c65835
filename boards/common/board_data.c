// SPDX-License-Identifier: MIT
// The parts of the board contract (kernel/include/kernel/board.h) that are only data, read from
// the board's board_config.h: its name, the interrupt lines programs may attach, and the region
// of RAM for the contiguous allocator. Every board builds this file with its own config.
#include <kernel/board.h>
#include <board_config.h>

const char *board_name(void)
{
    return BOARD_NAME;
}

bool board_irq_user_ok(unsigned irq)
{
    return irq < 32 && ((BOARD_USER_IRQ_MASK >> irq) & 1u);
}

uintptr_t board_pool_base(void)
{
    return POOL_BASE;
}

size_t board_pool_size(void)
{
    return POOL_SIZE;
}
