// SPDX-License-Identifier: MIT
// Multiprocessor support, AArch64 (boards with BOARD_MAX_CPUS > 1): the big kernel lock,
// finding and starting the other CPUs through PSCI (the firmware interface QEMU's virt machine
// and ARM's Trusted Firmware implement, called with `hvc`), a starting CPU's way into its idle
// thread, and the reschedule IPI (the interrupt controller's, a64_intc.h).
//
// The lock: a big-reader lock (kernel/klock.h says what runs under which side). Its exclusive
// side is a ticket lock (fair: CPUs get the kernel in the order they asked) plus the writer
// word, taken by every kernel entry but the message fast path before it touches anything shared
// and released just before the return to a thread (cpu.c); having the ticket, the holder sets
// the writer word and waits until every other CPU's shared word is clear. The shared side is a
// word per CPU, on a cache line of its own; an entry that finds the writer word set clears its
// word and queues for the exclusive side instead (arch_klock.h: no entry waits for a gap
// between writers, so none starves). The fine-grained spinlocks of shared mode are here
// too (arch_spin_lock). While one CPU runs the kernel is free of all of them (k_ncpus == 1).
#include <kernel/arch.h>
#include <kernel/kernel.h>
#include <kernel/arch_upcall.h>
#include <kernel/board.h>
#include <a64.h>
#include <a64_intc.h>
#include <stddef.h>

_Static_assert(offsetof(struct cpu, current) == 0, "entry.S loads current at offset 0");
_Static_assert(offsetof(struct cpu, id) == A64_CPU_ID, "entry.S loads id at A64_CPU_ID");
_Static_assert(offsetof(struct cpu, user_root) == A64_CPU_USER_ROOT,
               "entry.S loads user_root at A64_CPU_USER_ROOT");
_Static_assert(offsetof(struct cpu, entry_root) == A64_CPU_ENTRY_ROOT,
               "entry.S loads entry_root at A64_CPU_ENTRY_ROOT");

#define PSCI_AFFINITY_INFO 0xc4000004u
#define PSCI_CPU_ON        0xc4000003u

// Each secondary waits at boot until its word here is set (boot.S): on boards that start every
// core at power-on, and as a second gate behind PSCI's CPU_ON.
volatile uint32_t a64_cpu_release[KMAX_CPUS];
// CurrentEL as core 0 found it at reset (boot.S). Entered at EL3, the kernel is the machine's
// firmware and there is no PSCI below it to start the other cores: it runs on core 0 alone.
uint64_t a64_boot_el;

#if KMAX_CPUS > 1
#include <kernel/klock.h>

// The ticket lock (arch_klock.h).
struct a64_ticket a64_kernel_ticket;

// Set for every other CPU by an exclusive holder that changed kernel text (fbt_patch.c), taken
// by its CPU with an ISB when it gets the lock after waiting for it (a64_fbt_resync_others).
static volatile uint8_t fbt_resync[KMAX_CPUS];

struct a64_shared_word a64_shared_words[KMAX_CPUS];
uint64_t k_klock_exclusive_entries;
struct a64_writer_word a64_klock_writer;

static inline uint32_t load_acquire(const volatile uint32_t *w)
{
    uint32_t v;
    __asm__ volatile("ldar %w0, [%1]" : "=r"(v) : "r"(w) : "memory");
    return v;
}

static inline void store_release(volatile uint32_t *w, uint32_t v)
{
    __asm__ volatile("stlr %w0, [%1]" :: "r"(v), "r"(w) : "memory");
}

static inline void wait_for(const volatile uint32_t *w, uint32_t want)
{
    a64_wait_for(w, want);
}

void a64_kernel_lock(void)
{
    uint32_t ticket, tmp, fail;
    __asm__ volatile("1: ldaxr %w0, [%3]\n"
                     "   add %w1, %w0, #1\n"
                     "   stxr %w2, %w1, [%3]\n"
                     "   cbnz %w2, 1b\n"
                     : "=&r"(ticket), "=&r"(tmp), "=&r"(fail)
                     : "r"(&a64_kernel_ticket.next)
                     : "memory");
    // Wait for our turn: sevl + wfe lets a waiting CPU sleep until the owner's release. A
    // turn not ours at once is a wait for a free on the exclusive side (kernel/kunmap.h).
    bool waited = false;
    __asm__ volatile("sevl" ::: "memory");
    for (;;) {
        uint32_t owner;
        __asm__ volatile("wfe\n\tldar %w0, [%1]" : "=r"(owner) : "r"(&a64_kernel_ticket.owner)
                         : "memory");
        if (owner == ticket)
            break;
        if (!waited) {
            waited = true;
            kunmap_wait_begin(this_cpu());
        }
    }
    // The kernel to ourselves: no CPU enters shared mode now, and those in it finish.
    a64_klock_writer.set = 1;
    __asm__ volatile("dmb ish" ::: "memory");
    unsigned self = cpu_id();
    for (unsigned i = 0; i < k_ncpus; i++)
        if (i != self)
            wait_for(&a64_shared_words[i].in_kernel, 0);
    k_klock_exclusive_entries++;
    if (unlikely(waited)) {
        kunmap_waited(this_cpu());
        if (fbt_resync[self]) {     // kernel text changed while this CPU waited
            fbt_resync[self] = 0;
            a64_isb();
        }
    }
}

// After the exclusive holder changed kernel text and made every CPU's instruction caches
// forget it (docs/fbt.md, "Placing on several CPUs"): every other CPU is at EL0, idle, or on
// its way into the kernel, and each must synchronise its context before it runs kernel text
// the table lets probe. An exception entry does so for those still to come. One already on
// the entry path runs only code the rules leave unprobed (the entry, the shared side's try,
// this lock: reason "lock") up to the wait for the lock, which it takes after this CPU lets
// go: every other CPU is marked, and once each CPU holding a ticket behind ours is seen
// waiting (it waits: this CPU holds the lock), each ends its wait with an ISB. A CPU that
// takes a ticket after the count below waits as well. Bounded: a CPU that does not show up
// within the limit is counted (it still meets the mark if it waits).
uint32_t a64_fbt_resync_late;
void a64_fbt_resync_others(void)
{
    if (k_ncpus < 2)
        return;   // (one CPU online takes no lock: its words say nothing)
    unsigned self = cpu_id();
    for (unsigned c = 0; c < k_ncpus; c++)
        if (c != self)
            fbt_resync[c] = 1;
    __asm__ volatile("dmb ish" ::: "memory");
    uint32_t behind = load_acquire(&a64_kernel_ticket.next) - a64_kernel_ticket.owner - 1u;
    uint64_t t0 = board_cycles();
    uint64_t limit = (uint64_t)board_cycles_per_sec() / 10u;   // 100 ms
    for (;;) {
        uint32_t waiting = 0;
        for (unsigned c = 0; c < k_ncpus; c++)
            waiting += c != self && *(volatile bool *)&k_cpus[c].lock_waiting;
        if (waiting >= behind)
            return;
        if (board_cycles() - t0 > limit) {
            a64_fbt_resync_late++;
            return;
        }
        arch_spin_hint();
    }
}

void a64_kernel_unlock(void)
{
    uint32_t next = a64_kernel_ticket.owner + 1;
    store_release(&a64_klock_writer.set, 0);
    __asm__ volatile("stlr %w0, [%1]\n\tdsb ish\n\tsev" :: "r"(next), "r"(&a64_kernel_ticket.owner)
                     : "memory");
}

static int64_t psci_call(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    register uint64_t x0 __asm__("x0") = fn;
    register uint64_t x1 __asm__("x1") = a1;
    register uint64_t x2 __asm__("x2") = a2;
    register uint64_t x3 __asm__("x3") = a3;
    __asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) :: "memory");
    return (int64_t)x0;
}

// CPUs 0..n-1 whose MPIDR affinity 0 is their number: PSCI's AFFINITY_INFO answers for the
// ones that exist (on or off) and refuses the others.
unsigned arch_cpus_present(void)
{
    unsigned n = 1;
    if ((a64_boot_el >> 2) == 3)
        return 1;
    while (n < KMAX_CPUS && psci_call(PSCI_AFFINITY_INFO, n, 0, 0) >= 0)
        n++;
    return n;
}

extern uint8_t reset_handler[];

void arch_cpus_start(void)
{
    for (unsigned i = 1; i < k_ncpus; i++) {
        a64_cpu_release[i] = 1;
        __asm__ volatile("dsb ish\n\tsev" ::: "memory");
        int64_t r = psci_call(PSCI_CPU_ON, i, (uint64_t)(uintptr_t)reset_handler, 0);
        if (r != 0)
            kprintf("kernel: CPU %u did not start (PSCI error %d)\n", i, (int)r);
    }
}

// A secondary CPU, from boot.S on its kernel stack, MMU off: its translation regime, vectors
// and GIC interface, then its first turn in the kernel, which picks the thread it runs first
// (its idle thread, unless something more urgent is ready).
_Noreturn void a64_secondary(uint64_t id);
_Noreturn void a64_secondary(uint64_t id)
{
    A64_SYSREG_WRITE(vbar_el1, (uint64_t)(uintptr_t)a64_vectors);
    a64_isb();
    a64_mmu_start_secondary();
    A64_SYSREG_WRITE(tpidr_el1, (uint64_t)(uintptr_t)&k_cpus[id]);
    intc_cpu_init();
    a64_kernel_lock();
    a64_tick_start_cpu();
    kernel_cpu_online();
    a64_kernel_unlock();
    a64_enter_current((uint64_t)(uintptr_t)(a64_kstacks + (id + 1) * A64_KSTACK));
}

void arch_cpu_kick(unsigned cpu)
{
    intc_send_ipi(cpu);
}
#else
void a64_fbt_resync_others(void)
{
}
#endif
