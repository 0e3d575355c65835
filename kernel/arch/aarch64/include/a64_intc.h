// SPDX-License-Identifier: MIT
// The interrupt controller a board's AArch64 kernel uses, as irq_timer.c sees it. A board names
// the file that implements it in its board.mk (BOARD_SRCS): kernel/arch/aarch64/gicv2.c (QEMU's
// virt), boards/raspi3b/bcm2836_intc.c (the Raspberry Pi 3). Lines are the kernel's numbers
// (0 .. BOARD_NIRQ-1, board_config.h); TICK_IRQ is this CPU's virtual timer. Everything runs in
// the kernel with interrupts masked.
#ifndef A64_INTC_H
#define A64_INTC_H

#include <stdbool.h>

#define INTC_NONE (-1)      // nothing (spurious)
#define INTC_IPI  (-2)      // a reschedule IPI from another CPU
#define INTC_NOT_ACKED (-3) // (irq_timer.c's callers: nothing acknowledged yet)

void intc_init(void);               // the boot CPU: every line off
void intc_cpu_init(void);           // another CPU: its own (banked) part
int intc_ack(void);                 // this CPU's pending interrupt: a line, INTC_IPI or INTC_NONE
int intc_peek(void);                // what intc_ack would answer now, acknowledging nothing
void intc_enable(unsigned line, bool on);   // a line with hardware (< BOARD_HW_NIRQ)
void intc_send_ipi(unsigned cpu);

#endif
