// SPDX-License-Identifier: MIT
// The lock-order checker (kernel/klock.h), in images built with KLOCK_CHECK (make
// KLOCK_CHECK=1): each CPU keeps the ranks it holds (struct cpu.locks_held, bit per rank);
// taking a rank at or below one held, or releasing one not held, is a kernel panic naming both;
// so is work of the exclusive side done in a shared entry (klock_check_exclusive).
// Built only into KLOCK_CHECK images of several CPUs (kernel/module.mk); elsewhere the lock
// calls check nothing.
#include <kernel/kernel.h>
#include <kernel/klock.h>

void klock_check_acquire(unsigned rank)
{
    struct cpu *c = this_cpu();
    if (!klock_order_ok(c->locks_held, rank))
        kpanic("lock order: rank %u taken on CPU %u holding ranks %x", rank, c->id,
               (unsigned)c->locks_held);
    c->locks_held |= 1u << rank;
}

void klock_check_release(unsigned rank)
{
    struct cpu *c = this_cpu();
    if (!(c->locks_held & (1u << rank)))
        kpanic("lock order: rank %u released on CPU %u, not held (ranks %x)", rank, c->id,
               (unsigned)c->locks_held);
    c->locks_held &= ~(1u << rank);
}

void klock_check_exclusive(const char *what)
{
    if (arch_kernel_in_shared())
        kpanic("%s on CPU %u in a shared entry: the exclusive side's work", what, cpu_id());
}
