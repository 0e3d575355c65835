// SPDX-License-Identifier: MIT
// The 64-bit cycle counter. QEMU's Cortex-M3 has no DWT cycle counter, so CMSDK timer 1 runs
// free at the core clock (25 MHz) from 0xffffffff down; its wrap interrupt (every ~172 s)
// counts the high word. Reading: low = ~VALUE counts up; a wrap not yet handled shows in
// INTSTATUS (the kernel cannot be interrupted while it reads), so the read accounts for it.
#include <kernel/board.h>
#include <kernel/irq.h>
#include <board_config.h>

#define T_CTRL(b)   (*(volatile uint32_t *)((b) + 0x00))
#define T_VALUE(b)  (*(volatile uint32_t *)((b) + 0x04))
#define T_RELOAD(b) (*(volatile uint32_t *)((b) + 0x08))
#define T_INT(b)    (*(volatile uint32_t *)((b) + 0x0c))
#define CTRL_EN     1u
#define CTRL_IRQEN  8u

static volatile uint32_t cycles_hi;

static void cycles_wrap(unsigned irq, void *arg)
{
    (void)irq;
    (void)arg;
    T_INT(TIMER1_BASE) = 1;
    cycles_hi++;
}

void timer_cmsdk_cycles_init(void);
void timer_cmsdk_cycles_init(void)
{
    T_CTRL(TIMER1_BASE) = 0;
    T_RELOAD(TIMER1_BASE) = 0xffffffffu;
    T_VALUE(TIMER1_BASE) = 0xffffffffu;
    T_INT(TIMER1_BASE) = 1;
    T_CTRL(TIMER1_BASE) = CTRL_EN | CTRL_IRQEN;
}

// Called once the interrupt layer is up (from arch/board start, see kernel_main).
void timer_cmsdk_cycles_attach(void);
void timer_cmsdk_cycles_attach(void)
{
    irq_attach_kernel(TIMER1_IRQ, cycles_wrap, 0);
}

uint64_t board_cycles(void)
{
    uint32_t hi = cycles_hi;
    uint32_t lo = ~T_VALUE(TIMER1_BASE);
    if (T_INT(TIMER1_BASE) & 1u) {
        hi++;
        lo = ~T_VALUE(TIMER1_BASE);
    }
    return ((uint64_t)hi << 32) | lo;
}
