// SPDX-License-Identifier: MIT
// The trace ring's port for this kernel on every architecture (contract in
// trace/include/trace/trace_ring.h); kernel/arch/<arch>/include/trace_port.h includes it.
// Every trace event is emitted inside the kernel, and kernel entries never nest (they share
// one exception priority; a fault in the kernel halts it), so the ring needs no interrupt
// masking of its own: irq_save is free. Notifications are only queued here, per CPU
// (ktrace_port_notify, ktrace.c), and raised as the synthetic interrupt on the way out of
// the kernel, under the kernel lock, where sending a pulse is safe; so the ring never needs
// to know about interrupt context, and its callers need not hold the kernel lock.
#ifndef KERNEL_TRACE_PORT_KERNEL_H
#define KERNEL_TRACE_PORT_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <arch_cache.h>
#include <board_clock.h>
#include <board_config.h>
#include <kernel/cpu.h>

// Each CPU writes its own current buffer under its own lock; the ring's shared state (pool,
// filters, the logger's calls) under the ring's pool lock (trace_ring.h, LOCKING): none of it
// needs the kernel lock. On one CPU the ring compiles its locks out.
#define TRACE_MAX_CPUS KMAX_CPUS
// The most buffers a ring may have: a board whose pool holds few says so, and its kernel's
// RAM keeps the bookkeeping of the rest (netduinoplus2: 2 fit its pool).
#ifdef BOARD_TRACE_MAX_BUFS
#define TRACE_MAX_BUFS BOARD_TRACE_MAX_BUFS
#endif

struct trace_ring;
uint64_t board_cycles(void);
void ktrace_port_notify(struct trace_ring *r, unsigned bufidx, unsigned seq);
void ktrace_port_stopped(struct trace_ring *r);
void ktrace_port_publish(const void *p, size_t n);

static inline uint32_t trace_port_now32(void) { return board_cycles32(); }
static inline uint64_t trace_port_now64(void) { return board_cycles(); }
static inline unsigned trace_port_cpu(void) { return cpu_id(); }
// On several CPUs this CPU's state in the kernel's ring is a pointer its struct cpu keeps
// (one load); any other ring's is found by number. With one CPU the ring's own constant
// address is shorter.
#if KMAX_CPUS > 1
extern struct trace_ring ktrace;
#define TRACE_PORT_CPU_STATE(r) \
    ((r) == &ktrace ? this_cpu()->ktrace_cpu : &(r)->tr_cpu[cpu_id()])
#define TRACE_PORT_CPU_LIMIT(r, c) ((r) == &ktrace ? this_cpu()->ktrace_limit : &(c)->tc_limit)
#endif
static inline unsigned long trace_port_irq_save(void) { return 0; }
static inline void trace_port_irq_restore(unsigned long s) { (void)s; }
static inline int trace_port_in_interrupt(void) { return 0; }
static inline void trace_port_notify(struct trace_ring *r, unsigned bufidx, unsigned seq)
{
    ktrace_port_notify(r, bufidx, seq);
}
static inline void trace_port_stopped(struct trace_ring *r) { ktrace_port_stopped(r); }
// A probe's reads go around a data cache (the architecture's <arch_cache.h>): the kernel cleans
// what it publishes for it (timed, KTRACE_PROBE_WORK: kernel/ktrace_probe.c) and invalidates
// what it reads of the probe's words. Where no cache stands between, nothing at all.
static inline void trace_port_publish(const void *p, size_t n)
{
    if (ARCH_DCACHE)
        ktrace_port_publish(p, n);
}
static inline void trace_port_fetch(const void *p, size_t n) { arch_dcache_fetch(p, n); }

// The ring's spinlocks (used only when KMAX_CPUS > 1): a test-and-set on a word, spinning on
// plain loads while it is held. Held for a few stores (an event) or a buffer switch.
static inline void trace_port_lock(uint32_t *word)
{
    while (__atomic_exchange_n(word, 1u, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(word, __ATOMIC_RELAXED))
            ;
}

static inline void trace_port_unlock(uint32_t *word)
{
    __atomic_store_n(word, 0u, __ATOMIC_RELEASE);
}

#endif
