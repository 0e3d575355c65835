// SPDX-License-Identifier: MIT
// stack( )/ustack( ) on ARMv7-M: EHABI tables (ehabi.c), because Thumb-2 code's frame
// pointers do not chain (docs/profiling.md says why). A user stack starts from the frame the
// hardware pushed on the thread's psp at kernel entry (r0-r3, r12, lr, pc, xPSR) and the
// callee-saved registers entry.S saved; the tables are the program's own .ARM.exidx, which
// its header names (user/lib/apphdr.c). Every read is checked: user memory with
// proc_can_read, the kernel's stack within its bounds.
#include <kernel/unwind.h>
#include <kernel/arch_upcall.h>
#include <ehabi.h>
#include <board_config.h>
#include <kernel/arch_trace.h>
#include <d/dfbt.h>
#include <arch_fbt.h>
#include <stdbool.h>
#include <string.h>

// arch_thread_setup's lr for a thread's entry function (context.c): where its walk ends
#define ARMV7M_THREAD_LR 0xfffffffeu

unsigned arch_unwind_user(const struct thread *t, uint64_t *pcs, unsigned max)
{
    const struct proc *p = t ? t->proc : NULL;
    if (!p || !p->app || !max)
        return 0;
    struct unwind_mem m = { unwind_read_user, p, p->ram_base, (uint64_t)p->ram_base + p->ram_size };
    uint32_t hw[8]; // r0, r1, r2, r3, r12, lr, pc, xPSR
    if (unwind_read_user(p, t->ctx.psp, hw, sizeof(hw)) != 0) {
        unwind_count(UNWIND_E_READ);
        return 0;
    }
    struct ehabi_regs r = { .r = { hw[0], hw[1], hw[2], hw[3], t->ctx.r4, t->ctx.r5,
                                   t->ctx.r6, t->ctx.r7, t->ctx.r8, t->ctx.r9, t->ctx.r10,
                                   t->ctx.r11, hw[4], 0, hw[5], hw[6] } };
    r.r[13] = t->ctx.psp + 32u + ((hw[7] & (1u << 9)) ? 4u : 0u); // xPSR bit 9: realigned
    struct ehabi_table tab = { p->app->exidx_start, p->app->exidx_end, p->flash_base,
                               p->flash_base + p->flash_size };
    int err;
    unsigned n = ehabi_unwind(&m, &tab, &r, pcs, max, &err);
    if (err == UNWIND_E_READ && r.r[15] == (ARMV7M_THREAD_LR & ~1u))
        err = UNWIND_OK; // the thread's entry function returns to the kernel's sentinel
    unwind_count(err);
    return n;
}

unsigned arch_thread_uregs(const struct thread *t, uint64_t *regs, uint64_t *sp)
{
    const struct proc *p = t ? t->proc : NULL;
    uint32_t hw[8]; // r0, r1, r2, r3, r12, lr, pc, xPSR: the frame at psp
    if (!p || unwind_read_user(p, t->ctx.psp, hw, sizeof(hw)) != 0)
        return 0;
    const uint32_t r[17] = { hw[0], hw[1], hw[2], hw[3], t->ctx.r4, t->ctx.r5, t->ctx.r6,
                             t->ctx.r7, t->ctx.r8, t->ctx.r9, t->ctx.r10, t->ctx.r11, hw[4],
                             t->ctx.psp + 32u + ((hw[7] & (1u << 9)) ? 4u : 0u), hw[5], hw[6],
                             hw[7] };
    for (unsigned k = 0; k < 17; k++)
        regs[k] = r[k];
    *sp = r[13];
    return 17;
}

// -funwind-tables makes each function's table entry name a personality routine, which would
// pull libgcc's C++ unwinder into the kernel; nothing throws, and the tables are read here:
// these stand in for them and are never called.
void __aeabi_unwind_cpp_pr0(void);
void __aeabi_unwind_cpp_pr1(void);
void __aeabi_unwind_cpp_pr2(void);
void __aeabi_unwind_cpp_pr0(void) {}
void __aeabi_unwind_cpp_pr1(void) {}
void __aeabi_unwind_cpp_pr2(void) {}

// The kernel's tables and stack (ldscripts/kernel.ld.S).
extern const char __exidx_start[], __exidx_end[], __stack_top[];

static int kernel_read(const void *ctx, uint64_t addr, void *dst, unsigned n)
{
    (void)ctx;
    uintptr_t a = (uintptr_t)addr;
    bool table = a >= (uintptr_t)__exidx_start && a + n <= (uintptr_t)__exidx_end;
    bool code = a - KERNEL_FLASH_BASE < KERNEL_FLASH_SIZE &&
                KERNEL_FLASH_BASE + KERNEL_FLASH_SIZE - a >= n;
    bool stack = a - KERNEL_RAM_BASE < (uintptr_t)__stack_top - KERNEL_RAM_BASE &&
                 (uintptr_t)__stack_top - a >= n;
    if (addr > UINT32_MAX || (a & 3u) || !(table || code || stack))
        return -1;
    memcpy(dst, (const void *)a, n);
    return 0;
}

__attribute__((noinline)) unsigned arch_unwind_kernel(uint64_t *pcs, unsigned max)
{
    struct ehabi_regs r;
    memset(&r, 0, sizeof(r));
    __asm__ volatile("mov %0, sp\n\tmov %1, r7" : "=r"(r.r[13]), "=r"(r.r[7]));
    r.r[15] = (uint32_t)(uintptr_t)&arch_unwind_kernel & ~1u;
    struct unwind_mem m = { kernel_read, NULL, r.r[13], (uintptr_t)__stack_top };
    struct ehabi_table tab = { (uint32_t)(uintptr_t)__exidx_start,
                               (uint32_t)(uintptr_t)__exidx_end, KERNEL_FLASH_BASE,
                               KERNEL_FLASH_BASE + KERNEL_FLASH_SIZE };
    // this function's own frame first: its caller's registers are where the walk starts
    int err = ehabi_step(&m, &tab, &r);
    unsigned n = 0;
    if (err == UNWIND_OK)
        n = ehabi_unwind(&m, &tab, &r, pcs, max, &err);
    // the exception entry (entry.S) has no unwind entry of its own: that ends every walk
    unwind_count(err == UNWIND_E_NOINFO || err < 0 ? UNWIND_OK : err);
    return n;
}

// stack( ) in an fbt probe (kernel/kfbt.h): the probed function's caller first, as DTrace's
// fbt probes give it (the function's own frame is not made yet at its entry, and is gone at its
// return), from the trapped registers. At a site that pops the return address (pop {..., pc},
// ldr pc, [sp], #4) that pop is done here on a copy of the registers, from the slot's copy of
// the instruction, so the walk starts in the caller's own state.
unsigned arch_fbt_unwind(const struct fbt_regs *tr, const struct dfbt_site *s, uint64_t *pcs,
                         unsigned max)
{
    struct ehabi_regs r;
    for (unsigned i = 0; i < 16; i++)
        r.r[i] = (uint32_t)arch_fbt_reg(tr, i);
    struct unwind_mem m = { kernel_read, NULL, r.r[13], (uintptr_t)__stack_top };
    const uint16_t *insn = (const uint16_t *)(uintptr_t)s->ds_slot;
    uint32_t list = 0;
    if (s->ds_ra == DFBT_RA_LR) {
        r.r[15] = r.r[14];
    } else if ((insn[0] & 0xfe00u) == 0xbc00u) {   // pop {...}
        list = (insn[0] & 0xffu) | (insn[0] & 0x100u) << 7;
    } else if ((insn[0] & 0xffd0u) == 0xe890u) {   // ldmia.w sp!, {...}
        list = insn[1];
    } else {                                       // ldr.w pc, [sp], #4
        list = 1u << 15;
    }
    for (unsigned i = 0; i < 16 && list; i++) {
        if (!(list >> i & 1u))
            continue;
        uint32_t v;
        if (kernel_read(NULL, r.r[13], &v, 4) != 0) {
            unwind_count(UNWIND_E_READ);
            return 0;
        }
        r.r[i] = v;
        r.r[13] += 4;
    }
    r.r[15] &= ~1u;
    m.lo = r.r[13];
    struct ehabi_table tab = { (uint32_t)(uintptr_t)__exidx_start,
                               (uint32_t)(uintptr_t)__exidx_end, KERNEL_FLASH_BASE,
                               KERNEL_FLASH_BASE + KERNEL_FLASH_SIZE };
    int err;
    unsigned n = ehabi_unwind(&m, &tab, &r, pcs, max, &err);
    unwind_count(err == UNWIND_E_NOINFO || err < 0 ? UNWIND_OK : err);
    return n;
}
