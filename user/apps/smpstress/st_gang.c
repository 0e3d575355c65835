// SPDX-License-Identifier: MIT
// The gang of st_gang.h: its threads' start, their wait for one another, and their release.
#include "st_gang.h"
#include "st_msg.h"
#include <kern.h>
#include <string.h>

uint32_t st_gang_start(struct st_gang *g, uint32_t n, int (*fn)(void *), void *threads,
                       size_t size, void *stacks, uint32_t stack_size)
{
    g->ready = g->go = 0;
    uint32_t started = 0;
    for (uint32_t c = 1; c < n; c++) {
        struct st_gang_thread *t = (struct st_gang_thread *)((uint8_t *)threads + c * size);
        memset(t, 0, size);
        t->cpu = c;
        t->tid = ThreadCreate(fn, t, (uint8_t *)stacks + (c - 1) * stack_size, stack_size, 50, 0);
        started += t->tid > 0;
    }
    while (g->ready < started)
        ThreadSleep(100000);
    return started;
}

void st_gang_wait(struct st_gang *g, const struct st_gang_thread *t)
{
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << t->cpu));
    __atomic_add_fetch(&g->ready, 1u, __ATOMIC_SEQ_CST);
    while (!g->go)
        ;                       // (spins on its own CPU: the work starts together)
}

void st_gang_go(struct st_gang *g, uint32_t *ticks, uint32_t *entries)
{
    SysInfo(KSYSINFO_TICKS, ticks);
    *entries = exclusive_entries();
    g->go = 1;
}
