// SPDX-License-Identifier: MIT
// The board's timers the kernel keeps (timer 0 is the programs' device timer):
// - The 64-bit cycle counter. QEMU's Cortex-M3 has no DWT cycle counter, so CMSDK timer 1
//   runs free at the core clock (25 MHz) from 0xffffffff down; its wrap interrupt (every
//   ~172 s) counts the high word. Reading: low = ~VALUE counts up; a wrap not yet handled shows
//   in INTSTATUS (the kernel cannot be interrupted while it reads), so the read accounts for it.
// - The profile timer (kernel/ptimer.h): the CMSDK dual timer's first counter, one-shot, at the
//   same 25 MHz (its TIMCLK is the APB clock), so a time of the cycle counter is a count of it;
//   its interrupt (line 10, both counters' combined one) comes to exc_profile
//   (kernel/arch/armv7m/vectors.c, BOARD_PTIMER_IRQ), a KENTRY_PROFILE entry.
#include <kernel/board.h>
#include <kernel/irq.h>
#include <kernel/arch.h>
#include <kernel/ptimer.h>
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

// The dual timer's first counter (ARM's CMSDK APB dual timer, "Timer1" of the pair).
#define DT_LOAD     (*(volatile uint32_t *)(DUALTIMER_BASE + 0x00))
#define DT_CTRL     (*(volatile uint32_t *)(DUALTIMER_BASE + 0x08))
#define DT_INTCLR   (*(volatile uint32_t *)(DUALTIMER_BASE + 0x0c))
#define DT_ONESHOT  (1u << 0)
#define DT_32BIT    (1u << 1)
#define DT_INTEN    (1u << 5)
#define DT_ENABLE   (1u << 7)

bool ptimer_present(void)
{
    return true;
}

// Off, its interrupt cleared; the line enabled once (board_late_init).
void timer_cmsdk_ptimer_attach(void);
void timer_cmsdk_ptimer_attach(void)
{
    DT_CTRL = 0;
    DT_INTCLR = 1;
    arch_irq_enable(BOARD_PTIMER_IRQ);
}

// One CPU: cpu is 0. A count of 0 is not taken by the counter, so a time due now or past
// counts 1. Clearing the interrupt here acknowledges the one being taken (kprof_expired arms
// the next from its entry).
void ptimer_arm(unsigned cpu, uint64_t at)
{
    (void)cpu;
    DT_CTRL = 0;
    DT_INTCLR = 1;
    if (!at)
        return;
    uint64_t now = board_cycles();
    uint64_t n = at > now ? at - now : 1u;
    DT_LOAD = n > 0xffffffffu ? 0xffffffffu : (uint32_t)n;
    DT_CTRL = DT_ENABLE | DT_ONESHOT | DT_32BIT | DT_INTEN;
}
