// SPDX-License-Identifier: MIT
// stack( )/ustack( ) on AArch64: frame records (the x29 chain of AAPCS64), walked by the
// portable kernel/unwind.c. Kernel and programs are built with -fno-omit-frame-pointer
// (arch.mk). A user stack starts from the registers saved at kernel entry (pc = ELR, x29),
// read with the checked user-access path (proc_can_read); the kernel's own from this
// function's caller, within this CPU's kernel stack.
#include <kernel/unwind.h>
#include <kernel/arch_trace.h>
#include <kernel/arch_upcall.h>
#include <a64.h>
#include <string.h>

unsigned arch_unwind_user(const struct thread *t, uint64_t *pcs, unsigned max)
{
    const struct proc *p = t ? t->proc : NULL;
    if (!p || !max || (t->ctx.pstate & 0xf) != 0) // 0: EL0t, a thread that came from EL0
        return 0;
    struct unwind_mem m = { unwind_read_user, p, t->ctx.sp, (uint64_t)p->ram_base + p->ram_size };
    int err;
    unsigned n = unwind_frame_records(&m, 8, t->ctx.pc, t->ctx.x[29], pcs, max, &err);
    unwind_count(err);
    return n;
}

unsigned arch_thread_uregs(const struct thread *t, uint64_t *regs, uint64_t *sp)
{
    if (!t || !t->proc || (t->ctx.pstate & 0xf) != 0)  // a thread that came from EL0
        return 0;
    for (unsigned k = 0; k < 31; k++)
        regs[k] = t->ctx.x[k];
    regs[31] = t->ctx.sp;
    regs[32] = t->ctx.pc;
    regs[33] = t->ctx.pstate;
    *sp = t->ctx.sp;
    return 34;
}

__attribute__((noinline)) unsigned arch_unwind_kernel(uint64_t *pcs, unsigned max)
{
    uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
    // this CPU's kernel stack: the A64_KSTACK block of a64_kstacks that holds sp
    uint64_t base = (uint64_t)(uintptr_t)a64_kstacks;
    uint64_t top = sp >= base ? base + ((sp - base) / A64_KSTACK + 1u) * A64_KSTACK : sp;
    struct unwind_mem m = { unwind_read_bounded, NULL, sp, top };
    m.ctx = &m;
    uint64_t fp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
    int err;
    // the first record is this function's own: start from its caller
    unsigned n = unwind_frame_records(&m, 8, 0, fp, pcs, max, &err);
    // the exception entry (entry.S) makes no record: its x29 is the interrupted code's, out
    // of these bounds; that ends every kernel walk and is no error
    unwind_count(err == UNWIND_E_BOUNDS ? UNWIND_OK : err);
    return n;
}
