// SPDX-License-Identifier: MIT
// qnxthreads: threads as a QNX program creates them. Two workers on plain 4 KB arrays of its
// own (no KSTACK, no guard: ThreadCreate uses a given stack whole, as QNX's and POSIX's do),
// each filling 3.5 KB of locals; then workers on stacks the library allocates (ThreadCreate
// with no stack: THREAD_STACK_DEFAULT bytes above a guard), one after another, more than the
// heap holds at once, so that the stacks of the joined ones must have been freed. Each worker
// notes where its locals lay and sums them; main holds each worker's locals to the stack it
// gave (within the array, or for an allocated one within THREAD_STACK_DEFAULT of the locals'
// top) and each sum to its own (docs/applications.md, "Thread stacks";
// test/qemu/test_stack_guard.sh reads the last line).
#include <kern.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#define LOCALS 3584u            // of a 4 KB stack: the rest for the frames above
#define ROUNDS 6                // allocated stacks, one after another

static uint8_t stacks[2][4096];                 // plain arrays, QNX style

struct job {
    unsigned id;
    uint32_t seed;
    uintptr_t lo, hi;           // where the worker's locals lay
};

static uint32_t expect(uint32_t seed)
{
    uint32_t sum = 0;
    for (unsigned i = 0; i < LOCALS; i++)
        sum += (uint8_t)(seed + i * 7u);
    return sum;
}

static int worker(void *arg)
{
    struct job *j = arg;
    volatile uint8_t locals[LOCALS];
    for (unsigned i = 0; i < LOCALS; i++)
        locals[i] = (uint8_t)(j->seed + i * 7u);
    uint32_t sum = 0;
    for (unsigned i = 0; i < LOCALS; i++)
        sum += locals[i];
    j->lo = (uintptr_t)&locals[0];
    j->hi = (uintptr_t)&locals[LOCALS];
    return (int)sum;
}

// Runs worker `id` on `stack` (NULL: the library's) and checks it; 1 when it failed.
static unsigned run(unsigned id, uint8_t *stack, size_t size)
{
    struct job j = { id, 0x1000u * id + 17u, 0, 0 };
    int tid = ThreadCreate(worker, &j, stack, size, 0, 0);
    if (tid < 0) {
        printf("qnxthreads: worker %u: ThreadCreate failed, errno %d\n", id, errno);
        return 1;
    }
    int status = -1;
    if (ThreadJoin(tid, &status) != 0 || (uint32_t)status != expect(j.seed)) {
        printf("qnxthreads: worker %u: sum %d, not %u\n", id, status, (unsigned)expect(j.seed));
        return 1;
    }
    uintptr_t lo = stack ? (uintptr_t)stack : j.hi - THREAD_STACK_DEFAULT;
    uintptr_t hi = stack ? (uintptr_t)stack + size : j.hi + THREAD_STACK_DEFAULT;
    if (j.lo < lo || j.hi > hi) {
        printf("qnxthreads: worker %u: locals at [%p, %p), not in its stack\n", id,
               (void *)j.lo, (void *)j.hi);
        return 1;
    }
    if (stack)
        printf("qnxthreads: worker %u: %u bytes of locals at %u..%u of its %u-byte array\n", id,
               LOCALS, (unsigned)(j.lo - lo), (unsigned)(j.hi - lo), (unsigned)size);
    return 0;
}

int main(void)
{
    unsigned fails = 0;
    for (unsigned k = 0; k < 2; k++)
        fails += run(k, stacks[k], sizeof(stacks[k]));
    for (unsigned k = 0; k < ROUNDS; k++)
        fails += run(2 + k, NULL, 0);
    printf("qnxthreads: %u workers on plain 4 KB arrays, %u on allocated stacks, %u failed\n", 2u,
           (unsigned)ROUNDS, fails);
    return fails ? 1 : 0;
}
