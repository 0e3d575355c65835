// SPDX-License-Identifier: MIT
// fplocals: a program as a newcomer writes one, on every default (its app.mk is one comment
// line): 4 KB of locals in main, doubles computed and printed with %f, %e and %g. It also
// measures its own stack: it paints the unused part of its main stack, runs printf("%f") from
// a function of its own, and finds the deepest byte written (the stack grows down from
// __stack, the main stack's top, to __app_ram, its bottom: user/module.mk). It prints how deep
// printf of a double went, and how much of the main stack the whole program used, the figures
// the default main stack is sized from (docs/applications.md, "Thread stacks"); the test
// (test/qemu/test_stack_guard.sh) holds its doubles to the host's printf of the same values.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern char __app_ram[], __stack[];     // the main stack: [__app_ram, __stack)

#define PAINT 0xa5u

// Paints the main stack from its bottom to `to`, below the caller's frame.
__attribute__((noinline)) static void paint(uintptr_t to)
{
    for (volatile uint8_t *p = (volatile uint8_t *)__app_ram; (uintptr_t)p < to; p++)
        *p = PAINT;
}

// The lowest byte of the main stack written since paint(): the deepest the stack went.
__attribute__((noinline)) static uintptr_t deepest(void)
{
    const volatile uint8_t *p = (const volatile uint8_t *)__app_ram;
    while ((uintptr_t)p < (uintptr_t)__stack && *p == PAINT)
        p++;
    return (uintptr_t)p;
}

// printf of a double, from a frame whose address is the depth's origin.
__attribute__((noinline)) static unsigned printf_depth(double v)
{
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    paint(here - 256u);
    printf("fplocals: printf %%f of %f\n", v);
    return (unsigned)(here - deepest());
}

int main(void)
{
    volatile double samples[512];           // 4 KB of locals
    double sum = 0.0;
    for (unsigned i = 0; i < 512; i++) {
        samples[i] = (double)i * 0.25 + 1.0 / (double)(i + 1);
        sum += samples[i];
    }
    printf("fplocals: 512 samples, sum %f, mean %e, last %g\n", sum, sum / 512.0, samples[511]);
    unsigned depth = printf_depth(sum / 3.0);
    printf("fplocals: printf of a double took %u bytes of stack\n", depth);
    printf("fplocals: main's stack %u bytes, %u used at the deepest\n",
           (unsigned)(__stack - __app_ram), (unsigned)((uintptr_t)__stack - deepest()));
    return 0;
}
