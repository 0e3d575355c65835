// SPDX-License-Identifier: MIT
// A threaded host port for trace/trace_ring.h (the contract is there): each host thread is
// one CPU (trace_thread_cpu, set by the thread), the clock is one atomic counter, the ring's
// spinlocks are real (GCC atomics, which ThreadSanitizer understands), and notifications are
// counted atomically. For test_trace_threads.c, built under -fsanitize=thread.
#ifndef TRACE_PORT_H
#define TRACE_PORT_H

#include <stdint.h>
#include <sched.h>

struct trace_ring;

extern _Thread_local unsigned trace_thread_cpu;     // this thread's CPU number
extern uint64_t trace_thread_clock;                 // the shared cycle counter
extern unsigned trace_thread_notes, trace_thread_stops;

static inline uint64_t trace_port_now64(void)
{
    return __atomic_add_fetch(&trace_thread_clock, 1u, __ATOMIC_RELAXED);
}

static inline uint32_t trace_port_now32(void) { return (uint32_t)trace_port_now64(); }
static inline unsigned trace_port_cpu(void) { return trace_thread_cpu; }
static inline unsigned long trace_port_irq_save(void) { return 0; }     // no interrupts here
static inline void trace_port_irq_restore(unsigned long s) { (void)s; }
static inline int trace_port_in_interrupt(void) { return 0; }

static inline void trace_port_notify(struct trace_ring *r, unsigned idx, unsigned seq)
{
    (void)r, (void)idx, (void)seq;
    __atomic_add_fetch(&trace_thread_notes, 1u, __ATOMIC_RELAXED);
}

static inline void trace_port_stopped(struct trace_ring *r)
{
    (void)r;
    __atomic_add_fetch(&trace_thread_stops, 1u, __ATOMIC_RELAXED);
}

// The host's memory is coherent: nothing to clean for the reader thread.
static inline void trace_port_publish(const void *p, size_t n) { (void)p, (void)n; }
static inline void trace_port_fetch(const void *p, size_t n) { (void)p, (void)n; }

static inline void trace_port_lock(uint32_t *word)
{
    while (__atomic_exchange_n(word, 1u, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(word, __ATOMIC_RELAXED))
            sched_yield();  // more threads than host cores: let the holder run
}

static inline void trace_port_unlock(uint32_t *word)
{
    __atomic_store_n(word, 0u, __ATOMIC_RELEASE);
}

#endif
