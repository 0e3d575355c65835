// SPDX-License-Identifier: MIT
// The kernel's source of stacks for D (kernel/kstack.c): kind DVM_STACK_USER or
// DVM_STACK_KERNEL, at most max pcs, the pc first; returns the count.
#ifndef KERNEL_KSTACK_H
#define KERNEL_KSTACK_H

#include <stdbool.h>
#include <stdint.h>
#include <kernel/cpu.h>

unsigned kstack_for_d(unsigned kind, uint64_t *pcs, unsigned max);

// stack( ) while this CPU fires an fbt probe: the probed function's caller first, at most max
// pcs; -1 when no fbt probe fires here. A hook the fbt provider installs when it places probes
// (kernel/kfbt.c: kfbt_fire.c's kfbt_stack), so that the stacks call nothing of the trap's.
typedef int (*kstack_fbt_fn)(uint64_t *pcs, unsigned max);
void kstack_set_fbt(kstack_fbt_fn fn);

// kstack_report: prints on the console the stack walks cut short since the last report (by
// reason, kernel/unwind.h) and the stacks recorded empty because the D engine's stack table
// was full (table_drops, the program's count), when there are any: nothing is lost silently.
void kstack_report(uint64_t table_drops);

// The return address of the kernel function that fired the probe (kdt_fire and its
// siblings set it): stack( ) leaves out the D engine's own frames below it, as DTrace's
// stack( ) starts at the probe. Kernel entries never nest on a CPU while a probe fires.
extern uintptr_t kstack_probe_site[];
// While profile-N / tick-N fire on a CPU in a kernel thread (kdtrace.c sets struct cpu's
// stack_at_interrupt), stack( ) is the pc the timer's interrupt found that thread at (its saved
// pc, the one frame a KERNEL stack sample of the capture holds: kernel/ktrace_stack.c), as
// DTrace's stack( ) at profile-N is the interrupted code's, not the profile timer's frames.
#define KSTACK_MARK_PROBE_SITE() \
    (kstack_probe_site[cpu_id()] = (uintptr_t)__builtin_return_address(0))

#endif
