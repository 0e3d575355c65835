// SPDX-License-Identifier: MIT
// The D engine's words that firings on several CPUs share (dvm.h, "CONCURRENCY"): 32-bit loads,
// stores, compare-and-swap and add through GCC's __atomic builtins, which every target inlines
// (AArch64, Armv7-M's LDREX/STREX, x86), never a library call (no 64-bit word is shared this
// way: Armv7-M has no 64-bit exclusive). Each takes the engine's mode: with dvm_opts.concurrent
// clear (one firing at a time: one CPU, a capture's replay) they are the plain accesses of
// before, so the one-CPU boards pay nothing for them.
#ifndef D_DATOMIC_H
#define D_DATOMIC_H

#include <d/dvm.h>
#include <stdint.h>

static inline uint32_t d_load_acq(const uint32_t *w, unsigned conc)
{
    return conc ? __atomic_load_n(w, __ATOMIC_ACQUIRE) : *w;
}

static inline void d_store_rel(uint32_t *w, uint32_t v, unsigned conc)
{
    if (conc)
        __atomic_store_n(w, v, __ATOMIC_RELEASE);
    else
        *w = v;
}

/* *w from `old` to `v`: 1 if it was `old` (and is now v), else 0. Release on success (what was
 * written before it is seen by whoever reads v with acquire), acquire on failure. */
static inline int d_cas(uint32_t *w, uint32_t old, uint32_t v, unsigned conc)
{
    if (!conc) {
        if (*w != old)
            return 0;
        *w = v;
        return 1;
    }
    return __atomic_compare_exchange_n(w, &old, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* *w += n; returns the value before. */
static inline uint32_t d_fetch_add(uint32_t *w, uint32_t n, unsigned conc)
{
    if (!conc) {
        uint32_t v = *w;
        *w = v + n;
        return v;
    }
    return __atomic_fetch_add(w, n, __ATOMIC_RELAXED);
}

/* A full barrier: this CPU's stores before it are seen by every CPU before its loads after it
 * are made (the store-then-load order release and acquire do not give). ThreadSanitizer takes
 * no fence: there it is a sequentially consistent add of 0 to `own`, a word of the caller's
 * (what it checks are the acquire and release pairs, which hold either way). */
static inline void d_full_barrier(uint32_t *own)
{
#if defined(__SANITIZE_THREAD__)
    __atomic_fetch_add(own, 0u, __ATOMIC_SEQ_CST);
#else
    (void)own;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/* A word lock (0 free, 1 held) for the few places DTrace's semantics need one (the deleters
 * of one stripe of the dynamic-variable hash, a speculation's buffer): held for a bounded
 * copy or unlink, never across a firing's program. */
static inline void d_word_lock(uint32_t *w, unsigned conc)
{
    if (!conc)
        return;
    while (!__atomic_compare_exchange_n(w, &(uint32_t){ 0 }, 1u, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED))
        while (__atomic_load_n(w, __ATOMIC_RELAXED))
            if (dvm_spin_relax)
                dvm_spin_relax();
}

static inline void d_word_unlock(uint32_t *w, unsigned conc)
{
    if (conc)
        __atomic_store_n(w, 0u, __ATOMIC_RELEASE);
}

#endif
