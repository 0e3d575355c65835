// SPDX-License-Identifier: MIT
// Host stand-in for the arch's spinlocks (kernel/klock.h) for test_ktimer_smp: one thread
// plays two CPUs, so a lock is a word set and cleared, and the test can have "another CPU"
// take a lock just before this one gets it (test_spin_hook, run once at the next take): the
// interleaving of two holds of the timer list's lock that the test is about.
#ifndef ARCH_KLOCK_H
#define ARCH_KLOCK_H

#include <stdint.h>
#include <stdlib.h>

extern void (*test_spin_hook)(void);
static inline void arch_spin_lock(volatile uint32_t *word)
{
    void (*hook)(void) = test_spin_hook;
    if (hook) {
        test_spin_hook = NULL;
        hook();             // the other CPU's whole hold, before this take succeeds
    }
    if (*word)
        abort();            // held: with one thread, a deadlock
    *word = 1;
}
static inline void arch_spin_unlock(volatile uint32_t *word) { *word = 0; }
static inline void arch_spin_relax(void) { }
static inline bool arch_spin_trylock(volatile uint32_t *word)
{
    arch_spin_lock(word);
    return true;
}
static inline bool arch_kernel_enter_shared(void) { return true; }
static inline void arch_kernel_exit_shared(void) {}
static inline int arch_kernel_in_shared(void) { return 1; }

#endif
