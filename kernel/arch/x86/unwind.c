// SPDX-License-Identifier: MIT
// stack( )/ustack( ) on i686: the ebp chain (frame records of two words), walked by the
// portable kernel/unwind.c; kernel and programs are built with -fno-omit-frame-pointer
// (arch.mk). A user stack starts from the trap frame saved at kernel entry (eip, ebp), read
// with the checked user-access path (proc_can_read); the kernel's own from this function's
// caller, within the kernel stack; an fbt probe's from the trapped registers.
#include <kernel/unwind.h>
#include <kernel/arch_trace.h>
#include <d/dfbt.h>
#include <arch_fbt.h>
#include <kernel/arch_upcall.h>
#include <x86.h>
#include <string.h>

unsigned arch_thread_uregs(const struct thread *t, uint64_t *regs, uint64_t *sp)
{
    if (!t || !t->proc || (t->ctx.cs & 3u) != 3u)  // ring 3: a thread that came from a program
        return 0;
    // i386's user_regs_struct: ebx ecx edx esi edi ebp eax ds es fs gs orig_eax eip cs eflags
    // esp ss (the segments the flat model's: the user data selector for all four)
    const uint32_t r[17] = { t->ctx.ebx, t->ctx.ecx, t->ctx.edx, t->ctx.esi, t->ctx.edi,
                             t->ctx.ebp, t->ctx.eax, t->ctx.ss, t->ctx.ss, t->ctx.ss, t->ctx.ss,
                             t->ctx.eax, t->ctx.eip, t->ctx.cs, t->ctx.eflags, t->ctx.esp,
                             t->ctx.ss };
    for (unsigned k = 0; k < 17; k++)
        regs[k] = r[k];
    *sp = t->ctx.esp;
    return 17;
}

unsigned arch_unwind_user(const struct thread *t, uint64_t *pcs, unsigned max)
{
    const struct proc *p = t ? t->proc : NULL;
    if (!p || !max || (t->ctx.cs & 3u) != 3u) // ring 3: a thread that came from a program
        return 0;
    struct unwind_mem m = { unwind_read_user, p, t->ctx.esp, (uint64_t)p->ram_base + p->ram_size };
    uint32_t fp = t->ctx.ebp;
    // a kernel call carries its sixth argument in ebp and pushes the frame pointer just
    // before the trap (user/arch/x86/include/kcall_arch.h): it is the word at esp
    if (t->ctx.vector == VEC_KCALL && unwind_read_user(p, t->ctx.esp, &fp, 4) != 0) {
        unwind_count(UNWIND_E_READ);
        return 0;
    }
    int err;
    unsigned n = unwind_frame_records(&m, 4, t->ctx.eip, fp, pcs, max, &err);
    unwind_count(err);
    return n;
}

__attribute__((noinline)) unsigned arch_unwind_kernel(uint64_t *pcs, unsigned max)
{
    uint32_t fp = (uint32_t)(uintptr_t)__builtin_frame_address(0);
    struct unwind_mem m = { unwind_read_bounded, NULL, fp, (uintptr_t)x86_kstack_top };
    m.ctx = &m;
    int err;
    unsigned n = unwind_frame_records(&m, 4, 0, fp, pcs, max, &err);
    // the entry code makes no frame: its ebp is the interrupted code's; no error
    unwind_count(err == UNWIND_E_BOUNDS || err == UNWIND_E_READ ? UNWIND_OK : err);
    return n;
}

// stack( ) in an fbt probe (kernel/kfbt.h): the probed function's caller first, as DTrace's fbt
// probes give it. At every i386 site (the entry, a ret, a tail call's jmp) the return address
// is the word at esp and ebp is still, or again, the caller's frame pointer: the function's
// own record is not pushed yet, or already popped.
unsigned arch_fbt_unwind(const struct fbt_regs *tr, const struct dfbt_site *s, uint64_t *pcs,
                         unsigned max)
{
    (void)s;
    uint32_t sp = (uint32_t)arch_fbt_sp(tr);
    struct unwind_mem m = { unwind_read_bounded, NULL, sp, (uintptr_t)x86_kstack_top };
    m.ctx = &m;
    int err;
    unsigned n = unwind_frame_records(&m, 4, arch_fbt_link(tr), tr->ebp, pcs, max, &err);
    unwind_count(err == UNWIND_E_BOUNDS || err == UNWIND_E_READ ? UNWIND_OK : err);
    return n;
}
