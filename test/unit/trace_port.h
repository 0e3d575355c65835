// SPDX-License-Identifier: MIT
// Host test port for trace/trace_ring.h (the port contract is documented there): a fake cycle
// counter the tests set or let advance by a fixed step per read, a settable CPU number and
// "in interrupt" flag, a nesting-checked fake interrupt lock, and a log of notifications.
// Single-threaded tests only. The state is one weak object so that every translation unit
// including this header shares it without a separate .c file.
#ifndef TRACE_PORT_H
#define TRACE_PORT_H

#include <stddef.h>
#include <stdint.h>

struct trace_ring;

#define TRACE_HOST_MAX_NOTES 4096u
#define TRACE_HOST_MAX_PUBS 64u

struct trace_host_note {
    struct trace_ring *r;
    unsigned idx, seq;
};

struct trace_host_pub {
    const void *p;
    size_t n;
};

struct trace_host_port {
    uint64_t now;      // the fake cycle counter
    uint64_t step;     // added after each read (0: the clock only moves when a test sets it)
    unsigned cpu;
    int in_irq;
    int irq_off;       // nesting depth of irq_save
    unsigned nnotes;   // notifications so far (the log keeps the first TRACE_HOST_MAX_NOTES)
    int notify_in_irq; // set if a notification was ever sent in interrupt context (a bug)
    int nstopped;      // times the ring stopped itself (trace_port_stopped)
    struct trace_host_note notes[TRACE_HOST_MAX_NOTES];
    unsigned npub;     // publications (trace_port_publish; the log keeps the first 64)
    struct trace_host_pub pubs[TRACE_HOST_MAX_PUBS];
    unsigned nfetch;   // trace_port_fetch calls
};

__attribute__((weak)) struct trace_host_port trace_host_port;

static inline uint64_t trace_port_now64(void)
{
    uint64_t t = trace_host_port.now;
    trace_host_port.now += trace_host_port.step;
    return t;
}

static inline uint32_t trace_port_now32(void)
{
    return (uint32_t)trace_port_now64();
}

static inline unsigned trace_port_cpu(void)
{
    return trace_host_port.cpu;
}

static inline unsigned long trace_port_irq_save(void)
{
    return (unsigned long)trace_host_port.irq_off++;
}

static inline void trace_port_irq_restore(unsigned long s)
{
    trace_host_port.irq_off = (int)s;
}

static inline int trace_port_in_interrupt(void)
{
    return trace_host_port.in_irq;
}

static inline void trace_port_notify(struct trace_ring *r, unsigned idx, unsigned seq)
{
    struct trace_host_port *p = &trace_host_port;
    if (p->in_irq)
        p->notify_in_irq = 1;
    if (p->nnotes < TRACE_HOST_MAX_NOTES)
        p->notes[p->nnotes] = (struct trace_host_note){ r, idx, seq };
    p->nnotes++;
}

static inline void trace_port_stopped(struct trace_ring *r)
{
    (void)r;
    trace_host_port.nstopped++;
}

// The host's memory is coherent: the ring's publications are recorded, for the tests that
// hold the quiet ring to cleaning what a probe reads (test_trace_ring.c).
static inline void trace_port_publish(const void *p, size_t n)
{
    struct trace_host_port *h = &trace_host_port;
    if (h->npub < TRACE_HOST_MAX_PUBS)
        h->pubs[h->npub] = (struct trace_host_pub){ p, n };
    h->npub++;
}

static inline void trace_port_fetch(const void *p, size_t n)
{
    (void)p, (void)n;
    trace_host_port.nfetch++;
}

// One thread: a lock found held is a lock taken twice (a deadlock on a real CPU), so a test
// that gets there fails at once. test/unit/trace_port_threads/ has the real, threaded one.
static inline void trace_port_lock(uint32_t *word)
{
    if (*word)
        __builtin_trap();
    *word = 1;
}

static inline void trace_port_unlock(uint32_t *word)
{
    *word = 0;
}

#endif
