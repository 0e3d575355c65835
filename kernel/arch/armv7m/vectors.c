// SPDX-License-Identifier: MIT
// Vector table and reset. The table lives at the start of the kernel image (address 0 on
// this board family: VTOR's reset value). Reset copies .data, clears .bss and enters the
// portable kernel with interrupts off; arch_start() turns them on.
#include <kernel/kernel.h>
#include <kernel/arch_upcall.h>
#include <board_config.h>

extern uint32_t __stack_top[], __data_load[], __data_start[], __data_end[], __bss_start[],
    __bss_end[];
void exc_svc(void);
void exc_systick(void);
void exc_irq(void);
void exc_pendsv(void);
void exc_profile(void);
void exc_fault(void);
void reset_handler(void);
void exc_nmi(void);

void exc_nmi(void)
{
    kpanic("NMI");
}

void reset_handler(void)
{
    __asm__ volatile("cpsid i");
    uint32_t *s = __data_load, *d = __data_start;
    while (d < __data_end)
        *d++ = *s++;
    for (d = __bss_start; d < __bss_end; d++)
        *d = 0;
#ifdef PROBE_RAM_BASE   // the probe area, outside .bss on such a board (ldscripts/kernel.ld.S)
    extern uint32_t __probe_start[], __probe_end[];
    for (d = __probe_start; d < __probe_end; d++)
        *d = 0;
#endif
    kernel_main();
}

typedef void (*vector_fn)(void);

// A board with a profile timer (kernel/ptimer.h) names its line (board_config.h
// BOARD_PTIMER_IRQ): its vector enters the kernel as KENTRY_PROFILE, in place of the device
// interrupt entry the range gives every line (hence the one initializer overridden below).
#ifdef BOARD_PTIMER_IRQ
#define PTIMER_VECTOR(fn) [16 + BOARD_PTIMER_IRQ] = fn,
#else
#define PTIMER_VECTOR(fn)
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"

__attribute__((section(".vectors"), used))
const vector_fn arch_vectors[16 + BOARD_NIRQ] = {
    [0] = (vector_fn)(uintptr_t)__stack_top,
    [1] = reset_handler,
    [2] = exc_nmi,
    [3] = exc_fault,        // HardFault
    [4] = exc_fault,        // MemManage
    [5] = exc_fault,        // BusFault
    [6] = exc_fault,        // UsageFault
    [11] = exc_svc,
    [12] = exc_fault,       // DebugMonitor: a process's bkpt (systick.c)
    [14] = exc_pendsv,
    [15] = exc_systick,
    [16 ... 16 + BOARD_NIRQ - 1] = exc_irq,
    PTIMER_VECTOR(exc_profile)
};

#ifndef KTRACE_DISABLED
void exc_svc_traced(void);
void exc_systick_traced(void);
void exc_irq_traced(void);
void exc_pendsv_traced(void);
void exc_fault_traced(void);
void exc_profile_traced(void);

// The same table while tracing runs (entry_select.c points VTOR here): the thread-mode
// entries go to kentry_traced. VTOR needs the table aligned to its size rounded up to a
// power of two.
#define VECTORS_ALIGN ((16 + BOARD_NIRQ) * 4 <= 256 ? 256 : (16 + BOARD_NIRQ) * 4 <= 512 ? 512 : 1024)
__attribute__((aligned(VECTORS_ALIGN)))
const vector_fn arch_vectors_traced[16 + BOARD_NIRQ] = {
    [0] = (vector_fn)(uintptr_t)__stack_top,
    [1] = reset_handler,
    [2] = exc_nmi,
    [3] = exc_fault_traced,
    [4] = exc_fault_traced,
    [5] = exc_fault_traced,
    [6] = exc_fault_traced,
    [11] = exc_svc_traced,
    [12] = exc_fault_traced,
    [14] = exc_pendsv_traced,
    [15] = exc_systick_traced,
    [16 ... 16 + BOARD_NIRQ - 1] = exc_irq_traced,
    PTIMER_VECTOR(exc_profile_traced)
};
_Static_assert((16 + BOARD_NIRQ) * 4 <= 1024, "vector table larger than VECTORS_ALIGN");
#endif
#pragma GCC diagnostic pop
