// SPDX-License-Identifier: MIT
// stackover: recursion without end, in frames of about 128 bytes, to show that a stack's overflow
// is a fault and never a write into the program's own data (docs/hostile.md, "Stack guards").
// As `stackover` it recurses in its main thread, whose stack lies at the bottom of its RAM slot
// (user/module.mk); as `stackover_th` in a thread of its own, on a stack from KSTACK, whose
// guard is at the bottom (kern.h); as `stackover_al` in a thread on a stack of ALLOC_STACK bytes
// that ThreadCreate allocates, its guard below it. Each frame writes two bytes of its locals, the lowest and
// the highest, and the call writes its return address: a frame touches little of itself, as
// most do. Before each call the program checks its canaries: the 64 bytes right below the
// thread's stack and two blocks of its data; one written says so and exits 3. The kernel's
// guard kills it before: the test (test/qemu/test_stack_guard.sh) reads the kernel's line,
// the FAULT event and the wait status, and holds the fault's address to the ELF's symbols.
#include <kern.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOCALS   112u       // with the call's own words, a frame of about 128 bytes
#define CANARY   0xa5u
#define THREAD_STACK 2048u
#define ALLOC_STACK  1024u

// The program's data right below the thread's stack: the area's first KSTACK_GUARD bytes end
// where the stack begins, with the canary last.
// (KSTACK's section on the whole area: a member takes none of its own.)
static struct {
    uint8_t pad[KSTACK_GUARD - 64u];
    uint8_t below[64];
    uint8_t stack[KSTACK_SIZE(THREAD_STACK)] __attribute__((aligned(KSTACK_GUARD)));
} area __attribute__((aligned(KSTACK_GUARD), section(".bss.kstack")));

static uint8_t canary_data[64] = { [0 ... 63] = CANARY };   // .data
static uint8_t canary_bss[64];                              // .bss, set in main

static volatile uintptr_t frame_at[2];      // depth 0's and 1's locals: the frame's size

static unsigned intact(const uint8_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (p[i] != CANARY)
            return 0;
    return 1;
}

static void check(unsigned depth)
{
    const char *what = !intact(area.below, sizeof(area.below)) ? "below the thread's stack"
                       : !intact(canary_data, sizeof(canary_data)) ? "in .data"
                       : !intact(canary_bss, sizeof(canary_bss)) ? "in .bss" : NULL;
    if (what) {
        printf("stackover: canary %s overwritten at depth %u\n", what, depth);
        exit(3);
    }
}

#pragma GCC diagnostic ignored "-Winfinite-recursion"
__attribute__((noinline)) static unsigned recurse(unsigned depth)
{
    volatile uint8_t locals[LOCALS];
    locals[0] = (uint8_t)depth;
    locals[LOCALS - 1] = (uint8_t)depth;
    if (depth < 2)
        frame_at[depth] = (uintptr_t)locals;
    if (depth == 2)
        printf("stackover: frames of %u bytes\n", (unsigned)(frame_at[0] - frame_at[1]));
    check(depth);
    return recurse(depth + 1) + locals[0];
}

static int recurse_thread(void *arg)
{
    (void)arg;
    ThreadName(ThreadSelf(), "recurse");    // itself: on another CPU it may fault before main
    return (int)recurse(0);                 // would name it
}

int main(int argc, char **argv)
{
    (void)argc;
    memset(area.below, CANARY, sizeof(area.below));
    memset(canary_bss, CANARY, sizeof(canary_bss));
    int tid;
    if (strcmp(argv[0], "stackover_th") == 0) {
        printf("stackover: recursing in a thread, stack %p + %u, canary at %p\n",
               (void *)area.stack, (unsigned)sizeof(area.stack), (void *)area.below);
        tid = ThreadCreate(recurse_thread, NULL, area.stack, sizeof(area.stack), 0, 0);
    } else if (strcmp(argv[0], "stackover_al") == 0) {
        printf("stackover: recursing in a thread on a stack of %u bytes ThreadCreate allocates\n",
               ALLOC_STACK);
        tid = ThreadCreate(recurse_thread, NULL, NULL, ALLOC_STACK, 0, 0);
    } else {
        printf("stackover: recursing in main, sp %p\n", (void *)&argc);
        return (int)recurse(0);
    }
    if (tid < 0) {
        printf("stackover: ThreadCreate failed\n");
        return 2;
    }
    int status = 0;
    ThreadJoin(tid, &status);
    printf("stackover: the thread ended, status %d\n", status);
    return 1;
}
