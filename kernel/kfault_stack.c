// SPDX-License-Identifier: MIT
// Whether a thread's fault is its stack's overflow, so that the kernel's line says so instead
// of the bare access (docs/hostile.md, "Stack guards"). The thread's stack is [stack_base,
// stack_top) (kernel/thread.h); the part it may use starts above its guard when it has one
// (a KSTACK stack, the library's allocated one), else at stack_base (a stack given plain, the
// main thread's at the bottom of its RAM slot, below which lies no memory of the process's).
// An overflow is a fault below that start and near the stack pointer: the pointer itself below
// it (a frame made, then written), or the access a store a little under the pointer made (a
// push or a pre-indexed pair that faulted before the pointer moved), or, for an exception the
// CPU could not stack (the Cortex-M's stacking fault, which names no address), its frame.
#include <kernel/kfault_stack.h>
#include <kernel/thread.h>
#include <kernel/arch.h>
#include <trace/kev.h>

// How far below its stack's start a fault still counts as the stack's: a guard and the frames
// that step past it lie well within it; a stack pointer set wild (kt_fault's into the kernel's
// RAM, hundreds of KB away) lies beyond.
#define KFAULT_STACK_REACH 0x10000u
// How far below the stack pointer a store may land before the pointer moves: AArch64's
// pre-indexed store pair reaches 512 bytes, a Cortex-M push or stacking 64.
#define KFAULT_STACK_BELOW_SP 1024u

uint32_t kfault_stack_start(const struct thread *t)
{
    return t->stack_guard ? t->stack_guard + KSTACK_GUARD : t->stack_base;
}

bool kfault_stack_overflow(const struct thread *t, const struct arch_fault_where *w)
{
    uint32_t lo = kfault_stack_start(t);
    if (!t->proc || !t->stack_top)
        return false;
    uint32_t floor = lo > KFAULT_STACK_REACH ? lo - KFAULT_STACK_REACH : 0u;
    uint32_t sp = arch_thread_sp(t);
    if (sp < lo && sp >= floor)
        return true;
    uint32_t a;
    if (w->addr_valid && w->addr <= UINT32_MAX)
        a = (uint32_t)w->addr;
    else if (w->kind == KEV_FAULT_STACKING)
        a = sp - 64u;       // the exception frame the CPU could not write below sp (the
                            // arch's sp may stand a frame above it: arch_thread_sp)
    else
        return false;
    return a < lo && a >= floor && (uint64_t)a + KFAULT_STACK_BELOW_SP >= sp;
}
