// SPDX-License-Identifier: MIT
// Thread contexts, kernel-call registers and the start of the first thread, ARMv7-M.
// A stopped thread's r0-r3, r12, lr, pc, xPSR sit in the hardware frame at ctx.psp; kernel
// call arguments 0-3 come from there, 4 and 5 from the saved r4/r5, the number from r12.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <arch_kcall.h>

enum { F_R0, F_R1, F_R2, F_R3, F_R12, F_LR, F_PC, F_XPSR, F_WORDS };

#define XPSR_THUMB   (1u << 24)
#define CONTROL_NPRIV 1u
#define CONTROL_SPSEL 2u

static uint32_t *frame_of(const struct thread *t)
{
    return (uint32_t *)(uintptr_t)t->ctx.psp;
}

uint32_t arch_thread_pc(const struct thread *t) { return frame_of(t)[F_PC]; }
// The stack pointer before the exception: above the 8-word frame the hardware pushed (4 bytes
// off when it aligned the frame; the frame itself is not read: after a stacking fault it is not
// there).
uint32_t arch_thread_sp(const struct thread *t) { return t->ctx.psp + 4u * F_WORDS; }

// No register a thread can read and not write: the library looks its ring up (kernel/arch.h).
void arch_thread_ring_hint(struct thread *t, uint32_t addr)
{
    (void)t, (void)addr;
}

bool arch_thread_setup(struct thread *t, uint32_t entry, uint32_t arg0, uint32_t arg1,
                       uint32_t stack_top, bool privileged)
{
    uint32_t *f = (uint32_t *)(uintptr_t)((stack_top & ~7u) - F_WORDS * 4u);
    f[F_R0] = arg0;
    f[F_R1] = arg1;
    f[F_R2] = f[F_R3] = f[F_R12] = 0;
    f[F_LR] = 0xfffffffeu;          // returning from the entry function faults
    f[F_PC] = entry & ~1u;
    f[F_XPSR] = XPSR_THUMB;
    kmemset(&t->ctx, 0, sizeof(t->ctx));
    t->ctx.psp = (uint32_t)(uintptr_t)f;
    t->ctx.control = CONTROL_SPSEL | (privileged ? 0 : CONTROL_NPRIV);
    return true;
}

uint32_t arch_call_number(const struct thread *t) { return arch_kc_number(&t->ctx); }

uint32_t arch_call_arg(const struct thread *t, unsigned i) { return arch_kc_arg(&t->ctx, i); }

uint32_t arch_call_result(const struct thread *t, unsigned i)
{
    return arch_kc_result(&t->ctx, i);
}

void arch_set_result(struct thread *t, uint32_t r0)
{
    frame_of(t)[F_R0] = r0;
}

void arch_set_result2(struct thread *t, uint32_t r0, uint32_t r1)
{
    frame_of(t)[F_R0] = r0;
    frame_of(t)[F_R1] = r1;
}

void arch_start_on_psp(uint32_t psp);
static uint32_t boot_stack[64] __attribute__((aligned(8)));

_Noreturn void arch_start(struct thread *boot)
{
    k_current = boot;
    boot->state = THS_RUNNING;
    arch_start_on_psp((uint32_t)(uintptr_t)&boot_stack[ARRAY_SIZE(boot_stack)]);
    __builtin_unreachable();
}

void arch_idle_loop(void)
{
    for (;;)
        __asm__ volatile("wfi");
}

void arch_entry_on_msp(uint32_t exc_return);
void arch_entry_on_msp(uint32_t exc_return)
{
    kpanic("kernel entry from a thread on the main stack (EXC_RETURN %x)", (unsigned)exc_return);
}
