// SPDX-License-Identifier: MIT
// Host stand-in for the arch's spinlocks and big-reader lock (kernel/klock.h), for the unit
// test of the lock-order checker (test_klock): one thread, so a lock is a word set and cleared.
#ifndef ARCH_KLOCK_H
#define ARCH_KLOCK_H

#include <stdint.h>

// How many spinlocks "this CPU" holds (a test looks at it inside a hook the kernel calls).
extern int test_spins_held;
static inline void arch_spin_lock(volatile uint32_t *word) { *word = 1; test_spins_held++; }
static inline void arch_spin_unlock(volatile uint32_t *word) { *word = 0; test_spins_held--; }
static inline void arch_spin_relax(void) { }
static inline bool arch_spin_trylock(volatile uint32_t *word) { arch_spin_lock(word); return true; }
// Whether "this CPU" runs a shared entry (the test sets it through enter and exit).
extern int test_in_shared;
static inline bool arch_kernel_enter_shared(void) { test_in_shared = 1; return true; }
static inline void arch_kernel_exit_shared(void) { test_in_shared = 0; }
static inline int arch_kernel_in_shared(void) { return test_in_shared; }

#endif
