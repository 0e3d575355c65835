// SPDX-License-Identifier: MIT
// Taking a map back from every CPU (kernel/kunmap.h has the per-CPU words and their rules).
// The trace ring (ktrace.c free_buffers) and a D consumer's block (kdtrace.c unmap) are mapped
// read-only into their owner; a CPU running one of the owner's threads at EL0 keeps them in its
// translation table until it switches tables, which a thread that keeps its CPU never makes it
// do. Freed and reused (the next ring, another consumer's block), that memory would show the
// new owner's data to such a thread. So the free waits here, on the exclusive side, until each
// other CPU whose current table opens the memory is waiting for the kernel lock: it is then at
// EL1 (an entry from a table with a map moves to the kernel's table before anything else,
// mmu.c (2)), and the first thing it does with the lock, after this holder lets go, is to
// switch tables again, for its thread's process, which no longer has the map
// (kunmap_waited). Only then does it return to a thread. The same wait for every other CPU,
// with no map to take back, keeps them all off EL0 while the holder writes a program's text
// (kcpus_hold: pid probes, docs/pid.md "Several CPUs").
//
// Why the wait cannot deadlock: it waits for the marked CPUs to wait for the lock, not to get
// it. Why it ends: every other CPU is then at EL0, where interrupts are open, or on its way
// into the kernel (where it must wait, this CPU holding the lock exclusive) or out of it; the
// IPI brings it in within its next turn. A CPU already waiting is not interrupted.
// Why the entries pay nothing: the words are written on the lock's slow paths alone (an entry
// that finds the lock held waits anyway), and kunmap_others reads them.
//
// A CPU's other (not current) table may still open the memory: it is used again only for a
// process whose regions equal its key, so only for a process that owns that memory by then
// (kernel/arch/aarch64/mmu.c, (7)).
#include <kernel/kunmap.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/kernel.h>
#include <kernel/thread.h>
#include <kernel/smp.h>

// How long a marked CPU may take to come: far beyond any turn (QEMU's -icount runs the CPUs
// one at a time, a few milliseconds each; a loaded host deschedules a virtual CPU for tens).
#define KUNMAP_WAIT_MS 1000u

// Returns once every CPU of `want` waits for the kernel lock (each one not waiting yet
// interrupted); what, base and size: for the panic's message.
static void wait_in_kernel(uint32_t want, const char *what, uint32_t base, uint32_t size)
{
    uint32_t wait = 0;
    for (unsigned c = 0; c < k_ncpus; c++)
        if ((want >> c & 1u) && !*(volatile bool *)&k_cpus[c].lock_waiting) {
            wait |= 1u << c;
            smp_kick(c);
        }
    uint64_t t0 = board_cycles();
    uint64_t limit = (uint64_t)board_cycles_per_sec() / 1000u * KUNMAP_WAIT_MS;
    while (wait) {
        for (unsigned c = 0; c < k_ncpus; c++)
            if ((wait >> c & 1u) && *(volatile bool *)&k_cpus[c].lock_waiting)
                wait &= ~(1u << c);
        if (wait && board_cycles() - t0 > limit)
            kpanic("%s: CPUs %x not in the kernel %u ms after the IPI (%x, %u bytes)", what,
                   (unsigned)wait, KUNMAP_WAIT_MS, (unsigned)base, (unsigned)size);
        arch_spin_hint();
    }
}

void kunmap_others(uint32_t base, uint32_t size)
{
    unsigned self = cpu_id();
    uint32_t want = 0;
    for (unsigned c = 0; c < k_ncpus; c++) {
        if (c == self || !arch_mpu_cpu_maps(c, base, size))
            continue;
        k_cpus[c].remap = true;
        want |= 1u << c;
    }
    wait_in_kernel(want, "kunmap", base, size);
}

// Why a CPU waiting for the lock runs no thread's instruction before this holder lets go: it
// took an exception to get there and returns to a thread only with the lock (an entry that
// finds the writer word set queues for the exclusive side too, kernel/klock.h); and its return
// is an exception return, which synchronises its context with what was written meanwhile.
void kcpus_hold(void)
{
    if (k_ncpus < 2)
        return;
    unsigned self = cpu_id();
    uint32_t want = 0;
    for (unsigned c = 0; c < k_ncpus; c++)
        if (c != self)
            want |= 1u << c;
    wait_in_kernel(want, "kcpus_hold", 0, 0);
}

void kunmap_waited(struct cpu *c)
{
    c->lock_waiting = false;
    if (c->remap) {
        c->remap = false;
        arch_mpu_switch(c->current->proc);
    }
}
