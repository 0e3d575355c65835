// SPDX-License-Identifier: MIT
// tflood -A respawn=T: per-thread user-event rings reused after their thread ended
// (user/lib/trace_uring.c, kernel/kuring.c). T threads, more than the board's ring slots
// (BOARD_USER_RING_THREADS), run one after another, each on a different stack, the way a pool
// that respawns its workers does. Each asks the kernel, not the library, whether it held a
// ring of its own: the kernel names a thread's registered ring in a register the thread reads
// and cannot write (arch_ring_hint.h: TPIDRRO_EL0 on AArch64), 0 when it has none. Each
// inserts n events the host checks in the capture: every one there, in its thread's order.
// "-A spawners=S" has S threads, each on a CPU of its own, create the T threads between them
// (thread k by spawner k mod S), so that threads are created at once on several CPUs; "-A
// idle=1" runs, before each, a thread that inserts nothing (it never registers its ring, so
// the library frees its slot as it ends).
#include <kern.h>
#include <stdio.h>
#include <board_user.h>
#include "tf_respawn.h"

#if defined(BOARD_USER_RING_THREADS) && BOARD_USER_RING_THREADS > 0 && \
    __has_include(<arch_ring_hint.h>)
#include <arch_ring_hint.h>

#define RESPAWN_MAX 16
#define SPAWNERS_MAX 2
static KSTACK(respawn_stacks[RESPAWN_MAX], 512);
static KSTACK(idle_stacks[SPAWNERS_MAX], 512);
static KSTACK(spawner_stacks[SPAWNERS_MAX], 1024);
static uintptr_t respawn_ring[RESPAWN_MAX + 1];
static int respawn_ran[RESPAWN_MAX + 1];
static uint32_t respawn_n, respawn_threads, nspawners, ncpu;
static bool with_idle;

static int respawned(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < respawn_n; i++)
        TraceEvent(KTRACE_INSERTSUSEREVENT, 1, k << 24 | i, 0);
    respawn_ring[k] = arch_ring_hint();     // the kernel's word: the ring its events went to
    return 0;
}

static int idle(void *arg)
{
    (void)arg;
    return 0;
}

static bool run(thread_fn fn, uint32_t arg, uint8_t *stack, size_t size)
{
    int tid = ThreadCreate(fn, (void *)(uintptr_t)arg, stack, size, 0, 0);
    return tid > 0 && ThreadJoin(tid, NULL) == 0;
}

// Spawner j: threads j + 1, j + 1 + S, ... in turn, on CPU j + 1 (or j alone with one spawner).
static int spawner(void *arg)
{
    uint32_t j = (uint32_t)(uintptr_t)arg;
    if (nspawners > 1)
        ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << ((j + 1) % ncpu)));
    for (uint32_t k = j + 1; k <= respawn_threads; k += nspawners) {
        if (with_idle)
            run(idle, 0, idle_stacks[j], sizeof(idle_stacks[j]));
        respawn_ran[k] = run(respawned, k, respawn_stacks[k - 1], sizeof(respawn_stacks[k - 1]));
    }
    return 0;
}

int tf_respawn(uint32_t threads, uint32_t n, uint32_t spawners, bool idle_between)
{
    respawn_threads = threads > RESPAWN_MAX ? RESPAWN_MAX : threads;
    respawn_n = n;
    nspawners = spawners < 1 ? 1 : spawners > SPAWNERS_MAX ? SPAWNERS_MAX : spawners;
    with_idle = idle_between;
    ncpu = 1;
    SysInfo(KSYSINFO_NCPUS, &ncpu);
    if (nspawners == 1) {
        spawner((void *)0);
    } else {
        int tids[SPAWNERS_MAX];
        for (uint32_t j = 0; j < nspawners; j++)
            tids[j] = ThreadCreate(spawner, (void *)(uintptr_t)j, spawner_stacks[j],
                                   sizeof(spawner_stacks[j]), 0, 0);
        for (uint32_t j = 0; j < nspawners; j++)
            if (tids[j] > 0)
                ThreadJoin(tids[j], NULL);
    }
    int without = 0;
    for (uint32_t k = 1; k <= respawn_threads; k++) {
        if (!respawn_ran[k])
            printf("tflood: respawn: thread %lu not run\n", (unsigned long)k);
        else
            printf("tflood: respawn: thread %lu stack %p ring %#lx\n", (unsigned long)k,
                   (void *)respawn_stacks[k - 1], (unsigned long)respawn_ring[k]);
        without += !respawn_ran[k] || respawn_ring[k] == 0;
    }
    printf("tflood: respawn: %lu threads by %lu spawner(s)%s, %d without a ring of their own "
           "(%d slots)\n", (unsigned long)respawn_threads, (unsigned long)nspawners,
           with_idle ? " with idle threads between" : "", without, BOARD_USER_RING_THREADS);
    return without;
}
#else
int tf_respawn(uint32_t threads, uint32_t n, uint32_t spawners, bool idle_between)
{
    (void)threads, (void)n, (void)spawners, (void)idle_between;
    printf("tflood: respawn: this board has no per-thread rings to check\n");
    return -1;
}
#endif
