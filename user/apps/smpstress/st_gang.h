// SPDX-License-Identifier: MIT
// A gang: one thread bound to each of CPUs 1..n-1, all started and then let go at once, so that
// their calls meet on the kernel's shared side together (smpstress's tests 19 and 20). Each
// test's thread struct begins with a struct st_gang_thread; the test keeps an array of them,
// indexed by CPU (entry 0 unused).
#ifndef SMPSTRESS_ST_GANG_H
#define SMPSTRESS_ST_GANG_H
#include <stddef.h>
#include <stdint.h>

struct st_gang_thread {
    volatile int tid;           // what ThreadCreate returned (written before the gang goes)
    uint32_t cpu;
};

struct st_gang {
    volatile uint32_t ready, go;
};

// Creates fn's threads, the one of CPU c (1..n-1) on the struct at threads + c * size (zeroed
// but for its CPU) and the stack of stack_size bytes at stacks + (c - 1) * stack_size, at
// priority 50, and waits until each that started is ready: how many started.
uint32_t st_gang_start(struct st_gang *g, uint32_t n, int (*fn)(void *), void *threads,
                       size_t size, void *stacks, uint32_t stack_size);
// A gang thread's first act: binds it to its CPU, says it is ready, spins until the gang goes.
void st_gang_wait(struct st_gang *g, const struct st_gang_thread *t);
// Lets the gang go, once the kernel's tick count and exclusive entries are read into *ticks
// and *entries (what the tests bound the gang's work by).
void st_gang_go(struct st_gang *g, uint32_t *ticks, uint32_t *entries);

#endif
