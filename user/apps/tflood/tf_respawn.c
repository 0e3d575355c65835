// SPDX-License-Identifier: MIT
// tflood -A respawn=T: per-thread user-event rings reused after their thread ended
// (user/lib/trace_uring.c, kernel/kuring.c). T threads, more than the board's ring slots
// (BOARD_USER_RING_THREADS), run one after another, each on a different stack, the way a pool
// that respawns its workers does. Each asks the kernel, not the library, whether it holds a
// ring of its own: the kernel names a thread's registered ring in a register the thread reads
// and cannot write (arch_ring_hint.h: TPIDRRO_EL0 on AArch64), 0 when it has none. Each then
// inserts n events the host checks in the capture: every one there, in its thread's order.
#include <kern.h>
#include <stdio.h>
#include <board_user.h>
#include "tf_respawn.h"

#if defined(BOARD_USER_RING_THREADS) && BOARD_USER_RING_THREADS > 0 && \
    __has_include(<arch_ring_hint.h>)
#include <arch_ring_hint.h>

#define RESPAWN_MAX 16
static uint8_t respawn_stacks[RESPAWN_MAX][512] __attribute__((aligned(16)));
static uintptr_t respawn_ring[RESPAWN_MAX + 1];
static uint32_t respawn_n;

static int respawned(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < respawn_n; i++)
        TraceEvent(KTRACE_INSERTSUSEREVENT, 1, k << 24 | i, 0);
    respawn_ring[k] = arch_ring_hint();     // the kernel's word: the ring its events went to
    return 0;
}

int tf_respawn(uint32_t threads, uint32_t n)
{
    if (threads > RESPAWN_MAX)
        threads = RESPAWN_MAX;
    respawn_n = n;
    int without = 0;
    for (uint32_t k = 1; k <= threads; k++) {
        int tid = ThreadCreate(respawned, (void *)(uintptr_t)k, respawn_stacks[k - 1],
                               sizeof(respawn_stacks[k - 1]), 0, 0);
        if (tid < 0 || ThreadJoin(tid, NULL) < 0) {
            printf("tflood: respawn: thread %lu not run\n", (unsigned long)k);
            without++;
            continue;
        }
        printf("tflood: respawn: thread %lu stack %p ring %#lx\n", (unsigned long)k,
               (void *)respawn_stacks[k - 1], (unsigned long)respawn_ring[k]);
        without += respawn_ring[k] == 0;
    }
    printf("tflood: respawn: %lu threads, %d without a ring of their own (%d slots)\n",
           (unsigned long)threads, without, BOARD_USER_RING_THREADS);
    return without;
}
#else
int tf_respawn(uint32_t threads, uint32_t n)
{
    (void)threads, (void)n;
    printf("tflood: respawn: this board has no per-thread rings to check\n");
    return -1;
}
#endif
