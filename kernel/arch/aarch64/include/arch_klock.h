// SPDX-License-Identifier: MIT
// The big-reader lock's shared side and the spinlocks of shared mode, AArch64 (kernel/klock.h
// says what they guard; smp.c has the exclusive side and the slow paths). Inline: they are on
// the message fast path. A waiter arms the exclusive monitor on the word it waits for (ldaxr)
// and sleeps in wfe: the store that changes the word clears the monitor, which wakes it, so a
// release is one store.
#ifndef ARCH_KLOCK_H
#define ARCH_KLOCK_H

#include <stdbool.h>
#include <stdint.h>

// Each CPU's shared-mode word (1 while it runs a kernel entry in shared mode), on a cache line
// of its own; the writer word, set while a CPU has (or waits for) the kernel to itself, read by
// every shared entry and written by exclusive ones alone, on a line of its own too (the linker
// had put it beside the tick's per-CPU words, which every CPU's tick writes).
struct a64_shared_word {
    volatile uint32_t in_kernel;
} __attribute__((aligned(64)));
struct a64_writer_word {
    volatile uint32_t set;
} __attribute__((aligned(64)));
extern struct a64_shared_word a64_shared_words[];
extern struct a64_writer_word a64_klock_writer;

// The exclusive side's ticket lock (smp.c): `next` hands out tickets, `owner` is the ticket
// being served.
struct a64_ticket {
    volatile uint32_t next, owner;
};
extern struct a64_ticket a64_kernel_ticket;

// Whether a CPU holds the exclusive side or waits for it (has a ticket): a look, no order.
static inline bool a64_kernel_lock_wanted(void)
{
    return __atomic_load_n(&a64_kernel_ticket.next, __ATOMIC_RELAXED) !=
           __atomic_load_n(&a64_kernel_ticket.owner, __ATOMIC_RELAXED);
}

// Between two looks at a word another CPU holds: a YIELD (QEMU's -icount runs the CPUs one at
// a time and ends this one's turn there, so that the holder runs).
static inline void arch_spin_relax(void)
{
    __asm__ volatile("yield" ::: "memory");
}

// One try: 0 when the lock is now ours.
static inline __attribute__((always_inline)) uint32_t a64_spin_try(volatile uint32_t *word)
{
    uint32_t old, fail = 1;
    __asm__ volatile("   ldaxr %w0, [%2]\n"
                     "   cbnz %w0, 1f\n"
                     "   stxr %w1, %w3, [%2]\n"
                     "1:\n"
                     : "=&r"(old), "+&r"(fail)
                     : "r"(word), "r"(1u)
                     : "memory");
    return fail;
}

// Sleeps until *w reads `want`: the exclusive monitor armed on it (ldaxr), the store that
// changes it wakes the wfe.
static inline void a64_wait_for(const volatile uint32_t *w, uint32_t want)
{
    for (;;) {
        uint32_t v;
        __asm__ volatile("ldaxr %w0, [%1]" : "=r"(v) : "r"(w) : "memory");
        if (v == want)
            return;
        __asm__ volatile("wfe" ::: "memory");
    }
}

// The contended case, out of the lock's inline path (a copy in each file that locks).
static __attribute__((noinline, cold, unused)) void a64_spin_wait(volatile uint32_t *word)
{
    do
        a64_wait_for(word, 0);
    while (a64_spin_try(word));
}

static inline __attribute__((always_inline)) void arch_spin_lock(volatile uint32_t *word)
{
    if (__builtin_expect(a64_spin_try(word), 0))
        a64_spin_wait(word);
}

// One try, as a lock's first step: true when the lock is now ours (D's lockstat spin probes
// tell a lock taken at once from one waited for: kernel/klock.h).
static inline __attribute__((always_inline)) bool arch_spin_trylock(volatile uint32_t *word)
{
    return a64_spin_try(word) == 0;
}

static inline __attribute__((always_inline)) void arch_spin_unlock(volatile uint32_t *word)
{
    __asm__ volatile("stlr wzr, [%0]" :: "r"(word) : "memory");
}

// True: this CPU is in the kernel in shared mode. False: a writer holds or waits for the
// exclusive side, and this entry is to queue behind it for the exclusive side (the ticket lock:
// its turn comes in the order asked), not wait for a moment with no writer: writers that
// follow each other (a tick sent exclusive because another CPU holds a ticket, smp.c
// a64_kernel_lock_wanted, then the next CPU's for the same reason) left no such moment, and
// under QEMU's -icount, which runs one virtual CPU at a time, a shared entry waited 20 ms of
// virtual time with its CPU's interrupts masked (docs/smp.md, "The big-reader lock": the
// exclusive side's ticket bounds the wait).
static inline __attribute__((always_inline)) bool arch_kernel_enter_shared(void)
{
    volatile uint32_t *mine = &a64_shared_words[cpu_id()].in_kernel;
    *mine = 1;
    // Store, full barrier, load (the writer: the same the other way round): one of the two
    // sees the other's word, so a writer and a reader are never in the kernel together.
    __asm__ volatile("dmb ish" ::: "memory");
    if (__builtin_expect(a64_klock_writer.set != 0, 0)) {
        // out of its way (the writer waits for this word), and into the queue
        __asm__ volatile("stlr wzr, [%0]" :: "r"(mine) : "memory");
        return false;
    }
    return true;
}

// Whether this CPU runs a shared entry now (its word is clear in an exclusive one).
static inline bool arch_kernel_in_shared(void)
{
    return a64_shared_words[cpu_id()].in_kernel != 0;
}

static inline __attribute__((always_inline)) void arch_kernel_exit_shared(void)
{
    __asm__ volatile("stlr wzr, [%0]" :: "r"(&a64_shared_words[cpu_id()].in_kernel)
                     : "memory");
}

#endif
