// SPDX-License-Identifier: MIT
// stackfault: a known call chain that ends in a fault, for the fault event's test
// (test/stacks/test_fault_capture.sh, docs/profiling.md): main -> fault_a -> fault_b ->
// fault_c, which stores to the kernel's RAM (BOARD_KERNEL_RAM_ADDR); the kernel kills the
// process there, and the trace's FAULT names fault_c's pc and that address, its STACK the
// chain. Every link does work after its call returns, so none becomes a tail call.
#include <kern.h>
#include <board_user.h>

static volatile unsigned sink;

__attribute__((noinline)) static void fault_c(unsigned n)
{
    *(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR = n;
    sink += n;
}

__attribute__((noinline)) static void fault_b(unsigned n) { fault_c(n + 1); sink++; }
__attribute__((noinline)) static void fault_a(unsigned n) { fault_b(n + 1); sink++; }

int main(void)
{
    fault_a(sink);
    return 0;
}
