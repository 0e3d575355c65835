// SPDX-License-Identifier: MIT
// Thread contexts, kernel-call registers and the start of the first thread, x86.
// The kernel-call convention (user/arch/x86/include/kcall_arch.h): `int $0x80` with the call
// number in eax and the arguments in ebx, ecx, edx, esi, edi, ebp; the result in eax (edx: the
// high word of ClockCycles/ClockTime). All of it lives in the saved frame (struct arch_context).
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <arch_kcall.h>
#include <x86.h>

#define EFLAGS_IF   0x200u
#define EFLAGS_RSVD 0x002u

// A new thread starts at entry(arg0, arg1) as if called (cdecl): the arguments on its stack
// above a return address of 0, so returning from entry faults. esp+4 is 16-byte aligned at
// entry, as the i386 ABI has it.
bool arch_thread_setup(struct thread *t, uint32_t entry, uint32_t arg0, uint32_t arg1,
                       uint32_t stack_top, bool privileged)
{
    uint32_t sp = (stack_top & ~15u) - 20u;
    uint32_t *s = (uint32_t *)(uintptr_t)sp;
    s[0] = 0;
    s[1] = arg0;
    s[2] = arg1;
    kmemset(&t->ctx, 0, sizeof(t->ctx));
    t->ctx.eip = entry;
    t->ctx.cs = privileged ? SEL_KCODE : SEL_UCODE;
    t->ctx.eflags = EFLAGS_IF | EFLAGS_RSVD;
    t->ctx.esp = sp;
    t->ctx.ss = privileged ? SEL_KDATA : SEL_UDATA;
    x86_fpu_new_thread(t);
    return true;
}

uint32_t arch_call_number(const struct thread *t) { return arch_kc_number(&t->ctx); }

uint32_t arch_thread_pc(const struct thread *t) { return t->ctx.eip; }
uint32_t arch_thread_sp(const struct thread *t) { return t->ctx.esp; }

// No register a thread can read and not write: the library looks its ring up (kernel/arch.h).
void arch_thread_ring_hint(struct thread *t, uint32_t addr)
{
    (void)t, (void)addr;
}

uint32_t arch_call_arg(const struct thread *t, unsigned i) { return arch_kc_arg(&t->ctx, i); }

uint32_t arch_call_result(const struct thread *t, unsigned i)
{
    return arch_kc_result(&t->ctx, i);
}

void arch_set_result(struct thread *t, uint32_t r0)
{
    t->ctx.eax = r0;
}

void arch_set_result2(struct thread *t, uint32_t r0, uint32_t r1)
{
    t->ctx.eax = r0;
    t->ctx.edx = r1;
}

static uint32_t boot_stack[256] __attribute__((aligned(16)));

_Noreturn void arch_start(struct thread *boot)
{
    k_current = boot;
    boot->state = THS_RUNNING;
    x86_start_boot_thread((uint32_t)(uintptr_t)&boot_stack[ARRAY_SIZE(boot_stack)]);
}

// The idle thread runs in ring 0 with interrupts on; every interrupt leaves it for the kernel.
void arch_idle_loop(void)
{
    for (;;)
        __asm__ volatile("hlt");
}

// No semihosting on a PC (board_has_semihosting() is false, so nobody calls this).
int32_t arch_semihost(uint32_t op, uint32_t arg)
{
    (void)op;
    (void)arg;
    return -1;
}
