// SPDX-License-Identifier: MIT
// The D engine's stacks in the kernel (d/dstacks.h's dvm_stack): ustack( ) is the user stack
// of the thread the probe fired in, as it entered the kernel; stack( ) the kernel's own at the
// probe. The architecture's unwinders do the walking (kernel/unwind.h); the probe context
// (kernel entered, interrupts off) is the one they are written for.
#include <kernel/kstack.h>
#include <kernel/arch_trace.h>
#include <kernel/unwind.h>
#include <kernel/kview.h>
#include <d/dstacks.h>
#include <kernel/kernel.h>
#include <kernel/arch.h>

// Frames of the D engine between the probe's site and the unwinder, at most.
#define KSTACK_ENGINE_FRAMES 12u

uintptr_t kstack_probe_site[KMAX_CPUS];

static kstack_fbt_fn fbt_stack;     // written on the exclusive side (kfbt_enable)

void kstack_set_fbt(kstack_fbt_fn fn)
{
    fbt_stack = fn;
}

void kstack_report(uint64_t table_drops)
{
    static uint32_t seen[UNWIND_E_COUNT];
    for (unsigned e = 1; e < UNWIND_E_COUNT; e++) {
        if (unwind_errors[e] != seen[e])
            kprintf("kernel: %u stack walks cut short: %s\n",
                    (unsigned)(unwind_errors[e] - seen[e]), unwind_err_name(e));
        seen[e] = unwind_errors[e];
    }
    if (table_drops) // the program's own (its table is new at each load)
        kprintf("kernel: %u stacks recorded empty: the D stack table is full\n",
                (unsigned)table_drops);
}

unsigned kstack_for_d(unsigned kind, uint64_t *pcs, unsigned max)
{
    if (kind == DVM_STACK_USER)
        return k_current ? arch_unwind_user(k_current, pcs, max) : 0;
    if (this_cpu()->stack_at_interrupt) {  // profile-N in a kernel thread: where it was
        if (!max)
            return 0;
        pcs[0] = arch_thread_pc(k_current);
        return 1;
    }
    if (max > DVM_STACK_MAXDEPTH)
        max = DVM_STACK_MAXDEPTH;
    int fbt = fbt_stack ? fbt_stack(pcs, max) : -1;  // an fbt probe: from its function's caller
    if (fbt >= 0)
        return (unsigned)fbt;
    // the engine's frames (kdt_fire ... here) come first: walk deep enough to pass them,
    // then keep what lies from the probe's site on
    uint64_t all[DVM_STACK_MAXDEPTH + KSTACK_ENGINE_FRAMES];
    unsigned n = arch_unwind_kernel(all, max + KSTACK_ENGINE_FRAMES);
    // compared without bit 0: Thumb return addresses carry it, unwound pcs do not
    uint64_t site = kstack_probe_site[cpu_id()] | 1u;
    unsigned from = 0;
    while (from < n && (all[from] | 1u) != site)
        from++;
    if (from == n) // not found (a walk cut short): all of it, engine frames included
        from = 0;
    unsigned k = 0;
    for (; from < n && k < max; from++)
        pcs[k++] = all[from];
    return k;
}
