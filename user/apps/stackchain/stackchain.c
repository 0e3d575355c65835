// SPDX-License-Identifier: MIT
// stackchain: a known call chain for stack( )/ustack( ) (docs/profiling.md, test/stacks/):
// main -> chain_a -> chain_b -> chain_c -> chain_d -> chain_e, which makes a ThreadSelf
// kernel call (the probe kercall::ThreadSelf:entry, and gdb's breakpoint, stop there) and
// then spins a while in chain_spin for profile-N samples. Every link is a real call
// (noinline) that does work after it returns, so none becomes a tail call.
#include <kern.h>
#include <stdio.h>

static volatile unsigned sink;

__attribute__((noinline)) static unsigned chain_spin(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sink += i;
    return sink;
}

__attribute__((noinline)) static unsigned chain_e(unsigned n)
{
    unsigned r = (unsigned)ThreadSelf();
    return r + chain_spin(n) + sink;
}

__attribute__((noinline)) static unsigned chain_d(unsigned n) { return chain_e(n) + sink; }
__attribute__((noinline)) static unsigned chain_c(unsigned n) { return chain_d(n) + sink; }
__attribute__((noinline)) static unsigned chain_b(unsigned n) { return chain_c(n) + sink; }
__attribute__((noinline)) static unsigned chain_a(unsigned n) { return chain_b(n) + sink; }

int main(void)
{
    unsigned r = 0;
    for (int i = 0; i < 20; i++)
        r += chain_a(200000);
    printf("stackchain: done %u\n", r & 1u);
    return 0;
}
